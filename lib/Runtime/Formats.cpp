//===- Formats.cpp - bf16, fp8, fp4 and E8M0 conversions ------------------===//

#include "mla/Runtime/Formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace mla::runtime {

float bf16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

uint16_t floatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if (std::isnan(value))
    return static_cast<uint16_t>((bits >> 16) | 0x0040);
  // Adding 0x7FFF plus the kept LSB rounds half to even; a carry out of the
  // mantissa correctly bumps the exponent (up to infinity).
  uint32_t lsb = (bits >> 16) & 1;
  return static_cast<uint16_t>((bits + 0x7FFF + lsb) >> 16);
}

float fp8E4M3FNToFloat(uint8_t bits) {
  float sign = (bits & 0x80) ? -1.0f : 1.0f;
  int exponent = (bits >> 3) & 0xF;
  int mantissa = bits & 0x7;
  if (exponent == 0xF && mantissa == 0x7)
    return std::numeric_limits<float>::quiet_NaN();
  if (exponent == 0)
    return sign * std::ldexp(static_cast<float>(mantissa), -9);
  return sign * std::ldexp(static_cast<float>(8 + mantissa), exponent - 10);
}

uint8_t floatToFp8E4M3FN(float value) {
  uint8_t sign = std::signbit(value) ? 0x80 : 0x00;
  if (std::isnan(value))
    return sign | 0x7F;
  double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude >= kFp8E4M3Max)
    return sign | 0x7E;
  // Round on the grid of the value's binade (3 mantissa bits); subnormals
  // share the grid of the smallest normal binade, 2^-6.
  int frexpExponent;
  std::frexp(magnitude, &frexpExponent);
  int binade = std::max(frexpExponent - 1, -6);
  double steps = std::nearbyint(std::ldexp(magnitude, 3 - binade));
  double rounded = std::ldexp(steps, binade - 3);
  if (rounded == 0)
    return sign;
  std::frexp(rounded, &frexpExponent);
  binade = frexpExponent - 1;
  if (binade < -6)
    return sign | static_cast<uint8_t>(std::ldexp(rounded, 9));
  int mantissa = static_cast<int>(std::ldexp(rounded, 3 - binade)) - 8;
  return sign | static_cast<uint8_t>(((binade + 7) << 3) | mantissa);
}

float fp8E4M3FNUZToFloat(uint8_t bits) {
  if (bits == 0x80)
    return std::numeric_limits<float>::quiet_NaN();
  float sign = (bits & 0x80) ? -1.0f : 1.0f;
  int exponent = (bits >> 3) & 0xF;
  int mantissa = bits & 0x7;
  if (exponent == 0)
    return sign * std::ldexp(static_cast<float>(mantissa), -10);
  return sign * std::ldexp(static_cast<float>(8 + mantissa), exponent - 11);
}

uint8_t floatToFp8E4M3FNUZ(float value) {
  if (std::isnan(value))
    return 0x80;
  uint8_t sign = std::signbit(value) ? 0x80 : 0x00;
  double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude >= kFp8E4M3FnuzMax)
    return sign | 0x7F;
  // As for e4m3fn, one binade lower: the smallest normal is 2^-7.
  int frexpExponent;
  std::frexp(magnitude, &frexpExponent);
  int binade = std::max(frexpExponent - 1, -7);
  double steps = std::nearbyint(std::ldexp(magnitude, 3 - binade));
  double rounded = std::ldexp(steps, binade - 3);
  if (rounded == 0)
    return 0; // no negative zero: 0x80 is NaN
  std::frexp(rounded, &frexpExponent);
  binade = frexpExponent - 1;
  if (binade < -7)
    return sign | static_cast<uint8_t>(std::ldexp(rounded, 10));
  int mantissa = static_cast<int>(std::ldexp(rounded, 3 - binade)) - 8;
  return sign | static_cast<uint8_t>(((binade + 8) << 3) | mantissa);
}

/// The non-negative e2m1 values, indexed by their 3-bit code.
static constexpr float kFp4Values[8] = {0.0f, 0.5f, 1.0f, 1.5f,
                                        2.0f, 3.0f, 4.0f, 6.0f};

float fp4E2M1ToFloat(uint8_t nibble) {
  float magnitude = kFp4Values[nibble & 0x7];
  return (nibble & 0x8) ? -magnitude : magnitude;
}

uint8_t floatToFp4E2M1(float value) {
  if (std::isnan(value))
    return 0;
  uint8_t sign = std::signbit(value) ? 0x8 : 0x0;
  float magnitude = std::min(std::fabs(value), kFp4E2M1Max);
  uint8_t code = 0;
  for (uint8_t next = 1; next < 8; ++next) {
    float midpoint = 0.5f * (kFp4Values[next - 1] + kFp4Values[next]);
    // Above the midpoint, or on it when `next` is the even code.
    if (magnitude > midpoint || (magnitude == midpoint && next % 2 == 0))
      code = next;
  }
  return sign | code;
}

float e8m0ToFloat(uint8_t bits) {
  if (bits == kE8M0NaN)
    return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, static_cast<int>(bits) - 127);
}

uint8_t mxfp4BlockScale(float amax) {
  if (std::isnan(amax))
    return kE8M0NaN;
  if (amax == 0)
    return 0x00;
  int frexpExponent;
  std::frexp(amax, &frexpExponent);
  int shared = std::clamp(frexpExponent - 1 - 2, -127, 127);
  return static_cast<uint8_t>(shared + 127);
}

} // namespace mla::runtime
