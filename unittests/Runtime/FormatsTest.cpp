//===- FormatsTest.cpp - bf16, fp8, fp4 and e8m0 conversions --------------===//

#include "mla/Runtime/Formats.h"

#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <utility>

using namespace mla::runtime;

namespace {

/// Every one of the `codes` codes of a format that decodes to a number
/// encodes back to itself; else the first that does not.
template <typename Code>
testing::AssertionResult roundTrips(uint32_t codes, float (*decode)(Code),
                                    Code (*encode)(float)) {
  for (uint32_t bits = 0; bits < codes; ++bits) {
    float value = decode(static_cast<Code>(bits));
    if (!std::isnan(value) && encode(value) != bits)
      return testing::AssertionFailure()
             << "code " << bits << " decodes to " << value
             << ", which encodes as " << +encode(value);
  }
  return testing::AssertionSuccess();
}

TEST(Formats, Bf16) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3F80);
  EXPECT_EQ(floatToBf16(-2.0f), 0xC000);
  // Halfway cases round to the even neighbour.
  EXPECT_EQ(floatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(floatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  EXPECT_EQ(floatToBf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -12)),
            0x3F81);
  EXPECT_EQ(floatToBf16(INFINITY), 0x7F80);
  EXPECT_EQ(floatToBf16(3.4e38f), 0x7F80);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
  EXPECT_TRUE(roundTrips<uint16_t>(0x10000, bf16ToFloat, floatToBf16));
}

TEST(Formats, Fp8E4M3FN) {
  EXPECT_EQ(fp8E4M3FNToFloat(0x38), 1.0f);
  EXPECT_EQ(fp8E4M3FNToFloat(0x7E), 448.0f);
  EXPECT_EQ(fp8E4M3FNToFloat(0xFE), -448.0f);
  EXPECT_EQ(fp8E4M3FNToFloat(0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(fp8E4M3FNToFloat(0x08), std::ldexp(1.0f, -6));
  EXPECT_TRUE(std::isnan(fp8E4M3FNToFloat(0x7F)));
  EXPECT_TRUE(std::isnan(fp8E4M3FNToFloat(0xFF)));
  // 0x78..0x7E are finite: e4m3fn has no infinities.
  EXPECT_EQ(fp8E4M3FNToFloat(0x78), 256.0f);
  EXPECT_TRUE(roundTrips<uint8_t>(256, fp8E4M3FNToFloat, floatToFp8E4M3FN));
  // Saturation.
  EXPECT_EQ(floatToFp8E4M3FN(449.0f), 0x7E);
  EXPECT_EQ(floatToFp8E4M3FN(1e6f), 0x7E);
  EXPECT_EQ(floatToFp8E4M3FN(-INFINITY), 0xFE);
  EXPECT_TRUE(std::isnan(fp8E4M3FNToFloat(floatToFp8E4M3FN(NAN))));
  // Round to nearest even, normal and subnormal.
  EXPECT_EQ(floatToFp8E4M3FN(1.0625f), 0x38);
  EXPECT_EQ(floatToFp8E4M3FN(1.1875f), 0x3A);
  EXPECT_EQ(floatToFp8E4M3FN(1.07f), 0x39);
  EXPECT_EQ(floatToFp8E4M3FN(std::ldexp(1.0f, -10)), 0x00);
  EXPECT_EQ(floatToFp8E4M3FN(3 * std::ldexp(1.0f, -10)), 0x02);
  EXPECT_EQ(floatToFp8E4M3FN(-0.0f), 0x80);
  // Rounding up out of the subnormals and into the top binade.
  EXPECT_EQ(floatToFp8E4M3FN(15 * std::ldexp(1.0f, -10)), 0x08);
  EXPECT_EQ(floatToFp8E4M3FN(440.0f), 0x7E);
}

TEST(Formats, Fp8E4M3FNUZ) {
  EXPECT_EQ(fp8E4M3FNUZToFloat(0x40), 1.0f);
  EXPECT_EQ(fp8E4M3FNUZToFloat(0x7F), 240.0f);
  EXPECT_EQ(fp8E4M3FNUZToFloat(0xFF), -240.0f);
  EXPECT_EQ(fp8E4M3FNUZToFloat(0x01), std::ldexp(1.0f, -10));
  EXPECT_TRUE(std::isnan(fp8E4M3FNUZToFloat(0x80)));
  // Every code decodes as LLVM's APFloat reads it.
  for (uint32_t bits = 0; bits < 256; ++bits) {
    llvm::APFloat expected(llvm::APFloat::Float8E4M3FNUZ(),
                           llvm::APInt(8, bits));
    float value = fp8E4M3FNUZToFloat(static_cast<uint8_t>(bits));
    if (expected.isNaN())
      EXPECT_TRUE(std::isnan(value)) << bits;
    else
      EXPECT_EQ(value, expected.convertToFloat()) << bits;
  }
  // Every bf16 value within range encodes as APFloat rounds it (to nearest,
  // ties to even); beyond it the encoder saturates to +-240.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = bf16ToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value) || std::fabs(value) >= kFp8E4M3FnuzMax)
      continue;
    llvm::APFloat rounded(value);
    bool inexact;
    rounded.convert(llvm::APFloat::Float8E4M3FNUZ(),
                    llvm::APFloat::rmNearestTiesToEven, &inexact);
    ASSERT_EQ(floatToFp8E4M3FNUZ(value),
              rounded.bitcastToAPInt().getZExtValue())
        << value;
  }
  EXPECT_EQ(floatToFp8E4M3FNUZ(241.0f), 0x7F);
  EXPECT_EQ(floatToFp8E4M3FNUZ(-INFINITY), 0xFF);
  EXPECT_EQ(floatToFp8E4M3FNUZ(NAN), 0x80);
  // No negative zero: -0 and tiny negatives are +0.
  EXPECT_EQ(floatToFp8E4M3FNUZ(-0.0f), 0x00);
  EXPECT_EQ(floatToFp8E4M3FNUZ(-std::ldexp(1.0f, -13)), 0x00);
}

TEST(Formats, Fp4AndE8M0) {
  const float values[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (uint8_t code = 0; code < 16; ++code) {
    float expected = (code & 8) ? -values[code & 7] : values[code & 7];
    EXPECT_EQ(fp4E2M1ToFloat(code), expected);
    EXPECT_EQ(floatToFp4E2M1(fp4E2M1ToFloat(code)), code);
  }
  EXPECT_EQ(fp4E2M1ToFloat(0x10 | 0x3), 1.5f);
  // Ties go to even codes; beyond 6, saturation.
  const std::pair<float, uint8_t> encodings[] = {
      {0.25f, 0}, {0.75f, 2}, {1.25f, 2}, {1.75f, 4}, {2.5f, 4},     {3.5f, 6},
      {5.0f, 6},  {5.1f, 7},  {0.3f, 1},  {7.0f, 7},  {-100.0f, 0xF}};
  for (auto [value, code] : encodings)
    EXPECT_EQ(floatToFp4E2M1(value), code) << value;

  EXPECT_EQ(e8m0ToFloat(127), 1.0f);
  EXPECT_EQ(e8m0ToFloat(128), 2.0f);
  EXPECT_EQ(e8m0ToFloat(0), std::ldexp(1.0f, -127));
  EXPECT_EQ(e8m0ToFloat(254), std::ldexp(1.0f, 127));
  EXPECT_TRUE(std::isnan(e8m0ToFloat(0xFF)));

  // A block's scale is 2^(floor(log2(largest magnitude)) - 2), 2 being
  // e2m1's largest exponent (OCP MX); zero and NaN have their own codes.
  const std::pair<float, uint8_t> scales[] = {
      {6.0f, 127}, {4.0f, 127}, {7.9f, 127}, {8.0f, 128},
      {1.0f, 125}, {0.0f, 0},   {1e-40f, 0}, {NAN, 0xFF}};
  for (auto [largest, scale] : scales)
    EXPECT_EQ(mxfp4BlockScale(largest), scale) << largest;
}

} // namespace
