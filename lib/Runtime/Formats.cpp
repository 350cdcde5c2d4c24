//===- Formats.cpp - bf16, fp8, fp4 and E8M0 conversions ------------------===//

#include "mla/Runtime/Formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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
  return static_cast<float>(decodeFloat(kFloat8E4M3FN, bits));
}

uint8_t floatToFp8E4M3FN(float value) {
  return static_cast<uint8_t>(
      encodeFloat(kFloat8E4M3FN, value, Overflow::Saturate));
}

float fp8E4M3FNUZToFloat(uint8_t bits) {
  return static_cast<float>(decodeFloat(kFloat8E4M3FNUZ, bits));
}

uint8_t floatToFp8E4M3FNUZ(float value) {
  return static_cast<uint8_t>(
      encodeFloat(kFloat8E4M3FNUZ, value, Overflow::Saturate));
}

float fp4E2M1ToFloat(uint8_t nibble) {
  return static_cast<float>(decodeFloat(kFloat4E2M1FN, nibble));
}

uint8_t floatToFp4E2M1(float value) {
  return static_cast<uint8_t>(
      encodeFloat(kFloat4E2M1FN, value, Overflow::Saturate));
}

float e8m0ToFloat(uint8_t bits) { return static_cast<float>(decodeE8M0(bits)); }

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
