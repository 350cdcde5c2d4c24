//===- FuzzSupport.cpp - Helpers shared by the libFuzzer harnesses --------===//

#include "FuzzSupport.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <ftw.h>
#include <unistd.h>

namespace mla::fuzz {

static std::string scratch;

static void removeScratch() {
  // Children first, symlinks not followed.
  nftw(
      scratch.c_str(),
      [](const char *path, const struct stat *, int, FTW *) {
        std::remove(path);
        return 0;
      },
      16, FTW_DEPTH | FTW_PHYS);
}

const std::string &scratchDirectory() {
  if (scratch.empty()) {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp && *tmp ? tmp : "/tmp") + "/mla-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data()))
      fail(__FILE__, __LINE__, "cannot create " + pattern);
    scratch = pattern;
    std::atexit(removeScratch);
  }
  return scratch;
}

void writeFile(const std::string &path, const uint8_t *data, size_t size) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    fail(__FILE__, __LINE__, "cannot write " + path);
  while (size > 0) {
    ssize_t written = write(fd, data, size);
    if (written <= 0)
      fail(__FILE__, __LINE__, "cannot write " + path);
    data += written;
    size -= static_cast<size_t>(written);
  }
  close(fd);
}

void fail(const char *file, int line, const std::string &what) {
  std::fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line,
               what.c_str());
  std::abort();
}

} // namespace mla::fuzz
