//===- CodeObjectTest.cpp - ELF extents checked before a driver reads -----===//

#include "mla/Runtime/CodeObject.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

template <typename T>
void put(std::vector<char> &image, size_t offset, T value) {
  std::memcpy(image.data() + offset, &value, sizeof(T));
}

/// A 64-bit little-endian ELF of a header, 16 bytes of section data at 64
/// and one section header at 80 that holds them.
std::vector<char> smallElf() {
  std::vector<char> image(64 + 16 + 64, 0);
  std::memcpy(image.data(),
              "\x7F"
              "ELF",
              4);
  image[4] = 2;                      // 64-bit
  image[5] = 1;                      // little-endian
  put<uint64_t>(image, 40, 80);      // e_shoff
  put<uint16_t>(image, 58, 64);      // e_shentsize
  put<uint16_t>(image, 60, 1);       // e_shnum
  put<uint32_t>(image, 80 + 4, 1);   // sh_type: PROGBITS
  put<uint64_t>(image, 80 + 24, 64); // sh_offset
  put<uint64_t>(image, 80 + 32, 16); // sh_size
  return image;
}

TEST(CodeObject, AcceptsAnImageThatHoldsItsSections) {
  EXPECT_TRUE(isElfImage(smallElf()));
  EXPECT_TRUE(succeeded(checkElfExtents(smallElf(), "m.hsaco")));
}

TEST(CodeObject, RefusesTruncatedOrInconsistentImages) {
  std::vector<char> truncated = smallElf();
  truncated.resize(100);
  EXPECT_TRUE(failsWith(checkElfExtents(truncated, "m.hsaco"),
                        "m.hsaco: not a valid code object: its section "
                        "headers lie past its end (truncated?)"));
  std::vector<char> header = smallElf();
  header.resize(40);
  EXPECT_TRUE(failsWith(checkElfExtents(header, "m.hsaco"),
                        "shorter than an ELF header"));
  std::vector<char> longSection = smallElf();
  put<uint64_t>(longSection, 80 + 32, 81); // to byte 145 of 144
  EXPECT_TRUE(failsWith(checkElfExtents(longSection, "m.hsaco"),
                        "section 0 lies past its end"));
  std::vector<char> wrapping = smallElf();
  put<uint64_t>(wrapping, 80 + 24, ~uint64_t(0) - 4);
  EXPECT_TRUE(failsWith(checkElfExtents(wrapping, "m.hsaco"),
                        "section 0 lies past its end"));
  std::vector<char> manyHeaders = smallElf();
  put<uint16_t>(manyHeaders, 60, 2);
  EXPECT_TRUE(failsWith(checkElfExtents(manyHeaders, "m.hsaco"),
                        "section headers lie past its end"));
  std::vector<char> elf32 = smallElf();
  elf32[4] = 1;
  EXPECT_TRUE(failsWith(checkElfExtents(elf32, "m.hsaco"),
                        "not a 64-bit little-endian ELF"));
}

TEST(CodeObject, SectionsWithoutBytesNeedNone) {
  std::vector<char> bss = smallElf();
  put<uint32_t>(bss, 80 + 4, 8); // SHT_NOBITS
  put<uint64_t>(bss, 80 + 32, 1 << 20);
  EXPECT_TRUE(succeeded(checkElfExtents(bss, "m.hsaco")));
}

} // namespace
