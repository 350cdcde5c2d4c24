//===- RegularFile.cpp - Opening input files safely -----------------------===//

#include "mla/Runtime/RegularFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace mla::runtime {

InputFile::~InputFile() {
  if (file)
    std::fclose(file);
}

Status InputFile::open(const std::string &path) {
  // Without O_NONBLOCK, opening a FIFO waits for a writer; regular files
  // ignore the flag.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return Status::failure(path, std::strerror(errno));
  struct stat info;
  if (fstat(fd, &info) != 0) {
    int error = errno;
    ::close(fd);
    return Status::failure(path, std::strerror(error));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    return Status::failure(path, "not a regular file");
  }
  std::FILE *opened = fdopen(fd, "rb");
  if (!opened) {
    int error = errno;
    ::close(fd);
    return Status::failure(path, std::strerror(error));
  }
  if (file)
    std::fclose(file);
  file = opened;
  bytes = static_cast<uint64_t>(info.st_size);
  return Status::success();
}

Status readRegularFile(const std::string &path, std::string &text) {
  InputFile input;
  if (Status s = input.open(path))
    return s;
  std::string contents;
  char buffer[65536];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof(buffer), input.get())) > 0)
    contents.append(buffer, got);
  if (std::ferror(input.get()))
    return Status::failure(path, "read failed");
  text = std::move(contents);
  return Status::success();
}

} // namespace mla::runtime
