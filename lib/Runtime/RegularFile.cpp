//===- RegularFile.cpp - Opening input files safely -----------------------===//

#include "mla/Runtime/RegularFile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace mla::runtime {

Status readRegularFile(const std::string &path,
                       std::unique_ptr<llvm::MemoryBuffer> &buffer,
                       const ReadOptions &options) {
  // Opened here rather than by sys::fs, which has no O_NONBLOCK: without it
  // opening a FIFO waits for a writer. Regular files ignore the flag.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return Status::failure(path, std::strerror(errno));
  llvm::scope_exit closeFile([fd] { ::close(fd); });
  llvm::sys::fs::file_status info;
  if (std::error_code error = llvm::sys::fs::status(fd, info))
    return Status::failure(path, error.message());
  if (info.type() != llvm::sys::fs::file_type::regular_file)
    return Status::failure(path, "not a regular file");
  if (info.getSize() > options.maxBytes)
    return Status::failure(path, llvm::formatv("larger than {0} MiB; {1}",
                                               options.maxBytes >> 20,
                                               options.tooLarge));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> contents =
      llvm::MemoryBuffer::getOpenFile(
          fd, path, info.getSize(),
          /*RequiresNullTerminator=*/!options.mayMap,
          /*IsVolatile=*/!options.mayMap);
  if (!contents)
    return Status::failure(path,
                           "read failed: " + contents.getError().message());
  buffer = std::move(*contents);
  return Status::success();
}

Status readRegularFile(const std::string &path, std::string &text) {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (Status s = readRegularFile(path, buffer))
    return s;
  text = buffer->getBuffer().str();
  return Status::success();
}

} // namespace mla::runtime
