//===- RegularFile.h - Opening input files safely ---------------*- C++ -*-===//
//
// Inputs named on the command line are read only when they are regular
// files: /dev/zero never ends, a FIFO blocks until someone writes to it, and
// a directory has no contents to read.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_REGULARFILE_H
#define MLA_RUNTIME_REGULARFILE_H

#include "mla/Runtime/Status.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mla::runtime {

/// How readRegularFile reads a file.
struct ReadOptions {
  /// A larger file fails with "larger than <maxBytes in MiB> MiB; `tooLarge`".
  uint64_t maxBytes = UINT64_MAX;
  const char *tooLarge = "";
  /// Whether the file may be mapped rather than copied into memory: only for
  /// contents copied out at once, as a file changed while mapped changes (or
  /// faults) the buffer. A copy ends in a NUL byte past its size.
  bool mayMap = false;
};

/// Reads all of `path` into `buffer` if it is a regular file; anything else
/// is refused before a byte is read. Errors name the file.
Status readRegularFile(const std::string &path,
                       std::unique_ptr<llvm::MemoryBuffer> &buffer,
                       const ReadOptions &options = {});

/// Reads all of regular file `path` into `text`.
Status readRegularFile(const std::string &path, std::string &text);

} // namespace mla::runtime

#endif // MLA_RUNTIME_REGULARFILE_H
