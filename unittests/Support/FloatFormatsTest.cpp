//===- FloatFormatsTest.cpp - The format table against APFloat -----------===//
//
// Every code of every format decodes as LLVM's APFloat reads it, and values
// on and around every code's value, between codes and past the range encode
// as APFloat rounds them (ties to even), with this table's rules where
// APFloat has none: saturation, and NaN in e2m1.
//
//===----------------------------------------------------------------------===//

#include "mla/Support/FloatFormats.h"

#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace mla;

namespace {

struct Case {
  const char *name;
  const FloatFormat &format;
  const llvm::fltSemantics &semantics;
};

const Case kCases[] = {
    {"e4m3fn", kFloat8E4M3FN, llvm::APFloat::Float8E4M3FN()},
    {"e4m3fnuz", kFloat8E4M3FNUZ, llvm::APFloat::Float8E4M3FNUZ()},
    {"e5m2", kFloat8E5M2, llvm::APFloat::Float8E5M2()},
    {"e5m2fnuz", kFloat8E5M2FNUZ, llvm::APFloat::Float8E5M2FNUZ()},
    {"e2m1fn", kFloat4E2M1FN, llvm::APFloat::Float4E2M1FN()},
    {"f16", kHalf, llvm::APFloat::IEEEhalf()},
    {"bf16", kBFloat16, llvm::APFloat::BFloat()},
};

llvm::APFloat fromCode(const Case &c, uint32_t code) {
  return llvm::APFloat(c.semantics,
                       llvm::APInt(c.format.width(), code, /*isSigned=*/false));
}

/// What APFloat makes of `value` in the format, as a code, under this
/// table's rules for what APFloat leaves undefined or answers otherwise.
uint32_t expectedCode(const Case &c, double value, Overflow overflow) {
  const FloatFormat &f = c.format;
  bool finiteOnly = f.specials == FloatSpecials::None;
  double max = f.maxFinite();
  // Saturation, and e2m1's only rule, clamp before rounding.
  if ((overflow == Overflow::Saturate || finiteOnly) && !std::isnan(value))
    value = std::fmax(-max, std::fmin(max, value));
  if (std::isnan(value) && finiteOnly)
    return encodeFloat(f, std::copysign(max, value), overflow);
  llvm::APFloat converted(value);
  bool losesInfo = false;
  converted.convert(c.semantics, llvm::APFloat::rmNearestTiesToEven,
                    &losesInfo);
  if (converted.isNaN()) {
    // APFloat's NaN code is its own choice; the table's NaN is a NaN the
    // format decodes as one, of the input's sign where it has signs.
    return encodeFloat(f, std::copysign(NAN, value), overflow);
  }
  return static_cast<uint32_t>(converted.bitcastToAPInt().getZExtValue());
}

TEST(FloatFormatsTest, DecodesEveryCodeAsAPFloat) {
  for (const Case &c : kCases) {
    for (uint32_t code = 0; code < (1u << c.format.width()); ++code) {
      llvm::APFloat expected = fromCode(c, code);
      double actual = decodeFloat(c.format, code);
      if (expected.isNaN()) {
        EXPECT_TRUE(std::isnan(actual)) << c.name << " code " << code;
        continue;
      }
      EXPECT_EQ(actual, expected.convertToDouble())
          << c.name << " code " << code;
      EXPECT_EQ(std::signbit(actual), expected.isNegative())
          << c.name << " code " << code;
    }
  }
}

TEST(FloatFormatsTest, MaxFiniteIsAPFloatsLargest) {
  for (const Case &c : kCases)
    EXPECT_EQ(c.format.maxFinite(),
              llvm::APFloat::getLargest(c.semantics).convertToDouble())
        << c.name;
}

TEST(FloatFormatsTest, EncodesAsAPFloatRounds) {
  std::mt19937_64 rng(20261205);
  for (const Case &c : kCases) {
    // Each finite code's value, its neighbours in double, the midpoints to
    // the next code (ties), past the largest, and random doubles across the
    // range; both signs.
    std::vector<double> values = {0.0, INFINITY, NAN, 1e300, 1e-300};
    std::vector<double> finite;
    for (uint32_t code = 0; code < (1u << (c.format.width() - 1)); ++code) {
      double v = decodeFloat(c.format, code);
      if (std::isfinite(v))
        finite.push_back(v);
    }
    std::sort(finite.begin(), finite.end());
    for (size_t i = 0; i < finite.size(); ++i) {
      double v = finite[i];
      values.insert(values.end(),
                    {v, std::nextafter(v, 0.0), std::nextafter(v, INFINITY)});
      double next =
          i + 1 < finite.size() ? finite[i + 1] : 2 * v - finite[i - 1];
      double mid = 0.5 * (v + next);
      values.insert(values.end(), {mid, std::nextafter(mid, 0.0),
                                   std::nextafter(mid, INFINITY), next});
    }
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    double top = std::log2(c.format.maxFinite()) + 2;
    double bottom = std::log2(finite[1]) - 2;
    for (int i = 0; i < 20000; ++i)
      values.push_back(std::exp2(bottom + (top - bottom) * unit(rng)));
    for (double magnitude : values)
      for (double value : {magnitude, -magnitude})
        for (Overflow overflow : {Overflow::Saturate, Overflow::Special}) {
          uint32_t actual = encodeFloat(c.format, value, overflow);
          uint32_t expected = expectedCode(c, value, overflow);
          if (std::isnan(decodeFloat(c.format, expected))) {
            EXPECT_TRUE(std::isnan(decodeFloat(c.format, actual)))
                << c.name << " " << value;
            continue;
          }
          EXPECT_EQ(actual, expected)
              << c.name << " " << value
              << (overflow == Overflow::Saturate ? " saturating" : "");
        }
  }
}

TEST(FloatFormatsTest, TheTablesOwnRules) {
  // FNUZ: one NaN, no negative zero.
  EXPECT_EQ(encodeFloat(kFloat8E4M3FNUZ, NAN, Overflow::Special), 0x80u);
  EXPECT_EQ(encodeFloat(kFloat8E4M3FNUZ, -0.0, Overflow::Special), 0u);
  EXPECT_EQ(encodeFloat(kFloat8E4M3FNUZ, -1e-30, Overflow::Special), 0u);
  // e4m3fn overflows to NaN as AMD's conversions do, or saturates.
  EXPECT_EQ(encodeFloat(kFloat8E4M3FN, 1000, Overflow::Special), 0x7Fu);
  EXPECT_EQ(encodeFloat(kFloat8E4M3FN, -1000, Overflow::Saturate), 0xFEu);
  // e5m2 overflows to infinity.
  EXPECT_EQ(encodeFloat(kFloat8E5M2, 1e6, Overflow::Special), 0x7Cu);
  // e2m1 has neither NaN nor infinity: both saturate.
  EXPECT_EQ(encodeFloat(kFloat4E2M1FN, NAN, Overflow::Special), 0x7u);
  EXPECT_EQ(encodeFloat(kFloat4E2M1FN, -INFINITY, Overflow::Special), 0xFu);
  // E8M0.
  EXPECT_EQ(decodeE8M0(127), 1.0);
  EXPECT_EQ(decodeE8M0(0), std::ldexp(1.0, -127));
  EXPECT_TRUE(std::isnan(decodeE8M0(kE8M0NaN)));
}

} // namespace
