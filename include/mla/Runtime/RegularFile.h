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

#include <cstdint>
#include <cstdio>
#include <string>

namespace mla::runtime {

/// An open input file, closed on destruction.
class InputFile {
public:
  InputFile() = default;
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;
  ~InputFile();

  /// Opens `path` for reading if it is a regular file; anything else is
  /// refused before a byte is read.
  Status open(const std::string &path);

  std::FILE *get() const { return file; }
  /// The file's size when it was opened.
  uint64_t size() const { return bytes; }

private:
  std::FILE *file = nullptr;
  uint64_t bytes = 0;
};

/// Reads all of regular file `path` into `text`.
Status readRegularFile(const std::string &path, std::string &text);

} // namespace mla::runtime

#endif // MLA_RUNTIME_REGULARFILE_H
