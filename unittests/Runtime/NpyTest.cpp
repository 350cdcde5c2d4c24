//===- NpyTest.cpp - Reading and writing .npy files -----------------------===//

#include "TestSupport.h"

#include "mla/Runtime/Npy.h"

#include "gtest/gtest.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

void writeBytes(const std::string &path, const std::string &bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), file);
  std::fclose(file);
}

/// A version 1.0 file with `header` and `dataBytes` zero bytes of data.
std::string npyBytes(const std::string &header, size_t dataBytes) {
  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes.push_back(static_cast<char>(header.size() & 0xFF));
  bytes.push_back(static_cast<char>(header.size() >> 8));
  return bytes + header + std::string(dataBytes, '\0');
}

TEST(Npy, ReadAndWrite) {
  const std::string &scratch = scratchDirectory();
  std::string path = scratch + "/round_trip.npy";
  std::vector<int32_t> values = {1, -2, 3, 4, 5, 6};
  EXPECT_TRUE(
      succeeded(writeNpy(path, NpyDType::Int32, {2, 3}, values.data())));
  NpyArray array;
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_EQ(array.dtype, NpyDType::Int32);
  EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(array.elementsAs<int32_t>(), values);
  EXPECT_EQ(array.shapeString(), "(2, 3)");

  std::vector<uint16_t> halves = {0x3F80, 0xFFFF};
  EXPECT_TRUE(succeeded(writeNpy(path, NpyDType::UInt16, {2}, halves.data())));
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_EQ(array.dtype, NpyDType::UInt16);
  EXPECT_EQ(array.shapeString(), "(2,)");
  EXPECT_EQ(array.elementsAs<uint16_t>(), halves);
  // The data starts on a 64-byte boundary, as NumPy writes it.
  std::FILE *file = std::fopen(path.c_str(), "rb");
  std::fseek(file, 0, SEEK_END);
  EXPECT_EQ((std::ftell(file) - 4) % 64, 0);
  std::fclose(file);

  // The dtypes of f16 and i64 buffers.
  std::vector<uint16_t> f16 = {0x3C00, 0xFC00};
  EXPECT_TRUE(succeeded(writeNpy(path, NpyDType::Float16, {1, 2}, f16.data())));
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_EQ(array.dtype, NpyDType::Float16);
  EXPECT_EQ(array.elementsAs<uint16_t>(), f16);
  std::vector<int64_t> wide = {-1, int64_t(1) << 40};
  EXPECT_TRUE(succeeded(writeNpy(path, NpyDType::Int64, {2}, wide.data())));
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_EQ(array.dtype, NpyDType::Int64);
  EXPECT_EQ(array.elementsAs<int64_t>(), wide);
  EXPECT_EQ(npyItemSize(NpyDType::Int64), 8u);
  EXPECT_STREQ(npyDTypeName(NpyDType::Float16), "float16");

  // Version 2.0 headers, scalars and byte-order marks NumPy writes.
  std::string v2("\x93NUMPY\x02\x00", 8);
  std::string header =
      "{'descr': '|i1', 'fortran_order': False, 'shape': (), }";
  v2 += std::string({static_cast<char>(header.size()), 0, 0, 0});
  writeBytes(path, v2 + header + "x");
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_EQ(array.dtype, NpyDType::Int8);
  EXPECT_TRUE(array.shape.empty());
  ASSERT_FALSE(array.bytes.empty());
  EXPECT_EQ(array.bytes[0], 'x');

  auto expectError = [&](const std::string &bytes, const std::string &text) {
    writeBytes(path, bytes);
    EXPECT_TRUE(failsWith(readNpy(path, array), path + ": " + text));
  };
  expectError("PK\x03\x04 not numpy", "not a .npy file (bad magic)");
  expectError(std::string("\x93NUMPY\x03\x00", 8) + "abcd",
              "unsupported .npy version 3.0");
  expectError(npyBytes("{'descr': '<u2', 'fortran_order': False, 'shape': "
                       "(4,), }",
                       6),
              "truncated data: shape (4,) of uint16 needs 8 bytes, the file "
              "has 6");
  expectError(npyBytes("{'descr': '<u2', 'fortran_order': False, 'shape': "
                       "(4,), }",
                       9),
              "1 bytes after the data");
  expectError(npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': "
                       "(1,), }",
                       8),
              "unsupported dtype '<f8'");
  expectError(npyBytes("{'descr': '>u2', 'fortran_order': False, 'shape': "
                       "(1,), }",
                       2),
              "dtype '>u2' is not little-endian");
  expectError(npyBytes("{'descr': '>i8', 'fortran_order': False, 'shape': "
                       "(1,), }",
                       8),
              "dtype '>i8' is not little-endian");
  expectError(npyBytes("{'descr': '<i4', 'fortran_order': True, 'shape': "
                       "(2, 2), }",
                       16),
              "Fortran-order array");
  expectError(npyBytes("{'descr': '<i4', 'shape': (1,), }", 4),
              "malformed header: missing");
  expectError(npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': "
                       "(-1,), }",
                       4),
              "malformed header: 'shape' is not a tuple");
  expectError(std::string("\x93NUMPY\x01\x00\x40\x00{'descr'", 17),
              "truncated header");
  // Header bytes are echoed printably.
  expectError(npyBytes("{'d\x01scr': '<i4', 'fortran_order': False, "
                       "'shape': (1,), }",
                       4),
              "malformed header: unexpected key 'd\\x01scr'");
  EXPECT_TRUE(failsWith(readNpy(scratch + "/missing.npy", array),
                        scratch + "/missing.npy: " + std::strerror(ENOENT)));
  EXPECT_TRUE(failsWith(
      writeNpy(scratch + "/no/such/dir/x.npy", NpyDType::UInt8, {1}, "x"),
      "cannot create"));
}

} // namespace
