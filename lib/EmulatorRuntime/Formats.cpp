//===- Formats.cpp - Narrow float formats of the AMD ISAs -----------------===//

#include "Formats.h"
#include "Runtime.h"

#include <cmath>
#include <cstring>

using namespace mla::emu;

namespace {
/// A binary float format with a sign bit.
struct Layout {
  int expBits;
  int manBits;
  int bias;
  /// One NaN (the negative zero code) and no negative zero.
  bool fnuz;
  /// The all-ones exponent holds infinities and NaNs (IEEE style).
  bool ieee;
  /// Overflow gives the largest finite value (fp4 has no NaN or infinity).
  bool saturates;
  double maxFinite;
};
} // namespace

static const Layout kE4M3 = {4, 3, 7, false, false, false, 448.0};
static const Layout kE5M2 = {5, 2, 15, false, true, false, 57344.0};
static const Layout kE4M3Fnuz = {4, 3, 8, true, false, false, 240.0};
static const Layout kE5M2Fnuz = {5, 2, 16, true, false, false, 57344.0};
static const Layout kE2M1 = {2, 1, 1, false, false, true, 6.0};
static const Layout kHalf = {5, 10, 15, false, true, false, 65504.0};
static const Layout kBf16 = {8, 7, 127, false, true, false, 0x1.FEp127};

static const Layout &layoutOf(MiniFloat format) {
  switch (format) {
  case MiniFloat::E4M3:
    return kE4M3;
  case MiniFloat::E5M2:
    return kE5M2;
  case MiniFloat::E4M3Fnuz:
    return kE4M3Fnuz;
  case MiniFloat::E5M2Fnuz:
    return kE5M2Fnuz;
  case MiniFloat::E2M1:
    return kE2M1;
  }
  return kE4M3;
}

MiniFloat mla::emu::fp8Format() {
  return isGfx950() ? MiniFloat::E4M3 : MiniFloat::E4M3Fnuz;
}

MiniFloat mla::emu::bf8Format() {
  return isGfx950() ? MiniFloat::E5M2 : MiniFloat::E5M2Fnuz;
}

static double decode(const Layout &layout, uint32_t bits) {
  int width = 1 + layout.expBits + layout.manBits;
  bits &= (1u << width) - 1;
  uint32_t sign = bits >> (width - 1);
  uint32_t expMask = (1u << layout.expBits) - 1;
  uint32_t exponent = bits >> layout.manBits & expMask;
  uint32_t mantissa = bits & ((1u << layout.manBits) - 1);
  // NaNs keep their sign bit, which later conversions may carry on.
  double nan = std::copysign(NAN, sign ? -1.0 : 1.0);
  if (layout.fnuz && bits == 1u << (width - 1))
    return nan;
  if (layout.ieee && exponent == expMask)
    return mantissa ? nan : (sign ? -INFINITY : INFINITY);
  // OCP E4M3: only S.1111.111 is NaN.
  if (!layout.ieee && !layout.fnuz && !layout.saturates &&
      exponent == expMask && mantissa == (1u << layout.manBits) - 1)
    return nan;
  double value =
      exponent == 0
          ? std::ldexp(double(mantissa), 1 - layout.bias - layout.manBits)
          : std::ldexp(double(mantissa | 1u << layout.manBits),
                       int(exponent) - layout.bias - layout.manBits);
  return sign ? -value : value;
}

static uint32_t nanCode(const Layout &layout, uint32_t sign) {
  int width = 1 + layout.expBits + layout.manBits;
  if (layout.fnuz)
    return 1u << (width - 1);
  if (layout.saturates) // fp4: NaN becomes the largest magnitude
    return sign << (width - 1) | ((1u << (width - 1)) - 1);
  uint32_t all = (1u << (width - 1)) - 1;
  // E4M3: S.1111.111; IEEE-style formats: a quiet NaN.
  return sign << (width - 1) |
         (layout.ieee ? all & ~((1u << (layout.manBits - 1)) - 1) : all);
}

static uint32_t encode(const Layout &layout, double value) {
  int width = 1 + layout.expBits + layout.manBits;
  uint32_t sign = std::signbit(value) ? 1 : 0;
  if (std::isnan(value))
    return nanCode(layout, sign);
  double magnitude = std::fabs(value);
  int minExp = 1 - layout.bias;
  uint32_t rounded = 0; // the magnitude's code
  bool overflow = std::isinf(magnitude);
  if (!overflow && magnitude != 0) {
    int exponent = std::ilogb(magnitude);
    int quantum = (exponent < minExp ? minExp : exponent) - layout.manBits;
    double steps = std::nearbyint(std::ldexp(magnitude, -quantum));
    double result = std::ldexp(steps, quantum);
    if (result > layout.maxFinite) {
      overflow = true;
    } else if (result != 0) {
      int e = std::ilogb(result);
      if (e < minExp) {
        rounded = static_cast<uint32_t>(
            std::ldexp(result, -(minExp - layout.manBits)));
      } else {
        uint32_t mantissa =
            static_cast<uint32_t>(std::ldexp(result, layout.manBits - e)) -
            (1u << layout.manBits);
        rounded = uint32_t(e + layout.bias) << layout.manBits | mantissa;
      }
    }
  }
  if (overflow) {
    if (layout.saturates)
      return sign << (width - 1) | ((1u << (width - 1)) - 1);
    if (!layout.ieee)
      return nanCode(layout, sign);
    return sign << (width - 1) | ((1u << layout.expBits) - 1) << layout.manBits;
  }
  if (rounded == 0 && layout.fnuz)
    return 0;
  return sign << (width - 1) | rounded;
}

double mla::emu::decodeMiniFloat(MiniFloat format, uint32_t bits) {
  return decode(layoutOf(format), bits);
}

uint32_t mla::emu::encodeMiniFloat(MiniFloat format, double value) {
  return encode(layoutOf(format), value);
}

bool mla::emu::scaleExponent(float scale, int &exponent) {
  uint32_t bits;
  std::memcpy(&bits, &scale, sizeof(bits));
  uint32_t code = bits >> 23 & 0xFF;
  exponent = int(code) - 127;
  return code != 0xFF;
}

float mla::emu::bf16ToFloat(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

uint16_t mla::emu::floatToBf16(float value) {
  return static_cast<uint16_t>(encode(kBf16, value));
}

float mla::emu::halfToFloat(uint16_t bits) {
  return static_cast<float>(decode(kHalf, bits));
}

uint16_t mla::emu::floatToHalf(float value) {
  return static_cast<uint16_t>(encode(kHalf, value));
}
