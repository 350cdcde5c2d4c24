//===- OutputFile.h - Writing and publishing compiler outputs ---*- C++ -*-===//
//
// Outputs are written under fresh random names, created exclusively so that
// a planted symlink is never followed, and renamed into place only when
// complete. Until then they are removed on failure and on interrupt.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_OUTPUTFILE_H
#define MLA_TARGET_OUTPUTFILE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace mla {

/// A file created exclusively (O_CREAT | O_EXCL) under a random name and
/// removed when destroyed, or when the process is interrupted
/// (llvm::sys::RemoveFileOnSignal), unless it was published first.
/// Not llvm::sys::fs::TempFile: that registers its file for removal only
/// after creating it, so an interrupt between the two leaves it behind, and
/// its keep() falls back to a copy that is not atomic.
class TemporaryFile {
public:
  /// Creates `DIR/NAME-XXXXXXXX.tmp` for `destination` = `DIR/NAME`, so that
  /// publishing it is a rename within one directory.
  static std::unique_ptr<TemporaryFile> createFor(llvm::StringRef destination,
                                                  std::string &error);
  /// Creates a scratch file in the system's temporary directory.
  static std::unique_ptr<TemporaryFile> createScratch(llvm::StringRef prefix,
                                                      llvm::StringRef suffix,
                                                      std::string &error);

  TemporaryFile(const TemporaryFile &) = delete;
  TemporaryFile &operator=(const TemporaryFile &) = delete;
  ~TemporaryFile();

  llvm::StringRef getPath() const { return path; }
  /// The file, open for writing until close() or publish().
  llvm::raw_fd_ostream &os() { return *stream; }
  /// Flushes and closes the file; an error if any write failed.
  mlir::LogicalResult close(std::string &error);
  /// Closes the file and renames it to `destination`, replacing what is
  /// there (a symlink itself, not its target). Afterwards the file is no
  /// longer removed.
  mlir::LogicalResult publish(llvm::StringRef destination, std::string &error);

private:
  TemporaryFile(llvm::StringRef path, int fd);

  llvm::SmallString<128> path;
  std::optional<llvm::raw_fd_ostream> stream;
  bool published = false;
};

/// Writes `path` through a temporary that `write` fills, published only when
/// `write` succeeds; "-" writes to stdout.
mlir::LogicalResult writeOutputFile(
    llvm::StringRef path,
    llvm::function_ref<mlir::LogicalResult(llvm::raw_pwrite_stream &,
                                           std::string &)>
        write,
    std::string &error);

/// Fails if `path` is a directory: remove() would delete an empty one, and
/// renaming onto one fails only after the old manifest is gone.
mlir::LogicalResult refuseDirectory(llvm::StringRef path, std::string &error);

/// Publishes a module: `binary` as `binaryPath` and `manifest` as
/// `binaryPath`.json, in the order of docs/ABI.md: the old manifest is
/// removed first and the new one renamed last, so no interruption leaves a
/// manifest next to a binary it was not written for.
mlir::LogicalResult publishModule(TemporaryFile &binary,
                                  TemporaryFile &manifest,
                                  llvm::StringRef binaryPath,
                                  std::string &error);

/// Publishes `binary` as `binaryPath` with `manifest` written, as two-space
/// indented JSON, to `binaryPath`.json, as above.
mlir::LogicalResult publishModule(TemporaryFile &binary,
                                  const llvm::json::Value &manifest,
                                  llvm::StringRef binaryPath,
                                  std::string &error);

} // namespace mla

#endif // MLA_TARGET_OUTPUTFILE_H
