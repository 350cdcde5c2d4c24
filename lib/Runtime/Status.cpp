//===- Status.cpp - Message formatting ------------------------------------===//

#include "mla/Runtime/Status.h"

#include <cstdarg>
#include <cstdio>

namespace mla::runtime {

std::string formatString(const char *format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string result;
  if (length > 0) {
    result.resize(static_cast<size_t>(length));
    // C++17 strings own length + 1 bytes, so the terminator fits.
    std::vsnprintf(result.data(), result.size() + 1, format, args);
  }
  va_end(args);
  return result;
}

} // namespace mla::runtime
