//===- Formats.cpp - Narrow float formats of the AMD ISAs -----------------===//

#include "Formats.h"
#include "Runtime.h"
#include "mla/Support/FloatFormats.h"

#include <cstring>

using namespace mla;
using namespace mla::emu;

static const FloatFormat &formatOf(MiniFloat format) {
  switch (format) {
  case MiniFloat::E4M3:
    return kFloat8E4M3FN;
  case MiniFloat::E5M2:
    return kFloat8E5M2;
  case MiniFloat::E4M3Fnuz:
    return kFloat8E4M3FNUZ;
  case MiniFloat::E5M2Fnuz:
    return kFloat8E5M2FNUZ;
  case MiniFloat::E2M1:
    return kFloat4E2M1FN;
  }
  return kFloat8E4M3FN;
}

MiniFloat mla::emu::fp8Format() {
  return isGfx950() ? MiniFloat::E4M3 : MiniFloat::E4M3Fnuz;
}

MiniFloat mla::emu::bf8Format() {
  return isGfx950() ? MiniFloat::E5M2 : MiniFloat::E5M2Fnuz;
}

double mla::emu::decodeMiniFloat(MiniFloat format, uint32_t bits) {
  return decodeFloat(formatOf(format), bits);
}

uint32_t mla::emu::encodeMiniFloat(MiniFloat format, double value) {
  return encodeFloat(formatOf(format), value, Overflow::Special);
}

bool mla::emu::scaleExponent(float scale, int &exponent) {
  uint32_t bits;
  std::memcpy(&bits, &scale, sizeof(bits));
  uint32_t code = bits >> 23 & 0xFF;
  exponent = int(code) - 127;
  return code != 0xFF;
}

float mla::emu::bf16ToFloat(uint16_t bits) {
  return static_cast<float>(decodeFloat(kBFloat16, bits));
}

uint16_t mla::emu::floatToBf16(float value) {
  return static_cast<uint16_t>(
      encodeFloat(kBFloat16, value, Overflow::Special));
}

float mla::emu::halfToFloat(uint16_t bits) {
  return static_cast<float>(decodeFloat(kHalf, bits));
}

uint16_t mla::emu::floatToHalf(float value) {
  return static_cast<uint16_t>(encodeFloat(kHalf, value, Overflow::Special));
}
