//===- FuzzSupport.h - Helpers shared by the libFuzzer harnesses -*- C++
//-*-===//

#ifndef MLA_FUZZ_FUZZSUPPORT_H
#define MLA_FUZZ_FUZZSUPPORT_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace mla::fuzz {

/// A directory of its own under $TMPDIR for the files a harness reads,
/// created on first use and removed with its files at exit.
const std::string &scratchDirectory();

/// Replaces `path` with `size` bytes of `data`; aborts if it cannot.
void writeFile(const std::string &path, const uint8_t *data, size_t size);

/// Reports a broken invariant and aborts, which libFuzzer records as a
/// finding.
[[noreturn]] void fail(const char *file, int line, const std::string &what);

} // namespace mla::fuzz

/// Checks an invariant that must hold whatever the input.
#define FUZZ_CHECK(condition, what)                                            \
  do {                                                                         \
    if (!(condition))                                                          \
      ::mla::fuzz::fail(__FILE__, __LINE__, what);                             \
  } while (false)

#endif // MLA_FUZZ_FUZZSUPPORT_H
