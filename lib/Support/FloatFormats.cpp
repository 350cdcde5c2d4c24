//===- FloatFormats.cpp - The narrow float formats, one table -------------===//

#include "mla/Support/FloatFormats.h"

#include <cmath>

using namespace mla;

double FloatFormat::maxFinite() const {
  // The all-ones exponent is special in IEEE formats; in e4m3fn only its
  // all-ones mantissa is.
  int topExponent = (1 << expBits) - 1 - bias;
  int mantissa = (1 << manBits) - 1;
  if (specials == FloatSpecials::Ieee)
    topExponent -= 1;
  if (specials == FloatSpecials::AllOnesNaN)
    mantissa -= 1;
  return std::ldexp(double((1 << manBits) | mantissa), topExponent - manBits);
}

double mla::decodeFloat(const FloatFormat &format, uint32_t bits) {
  int width = format.width();
  bits &= (1u << width) - 1;
  uint32_t sign = bits >> (width - 1);
  uint32_t expMask = (1u << format.expBits) - 1;
  uint32_t manMask = (1u << format.manBits) - 1;
  uint32_t exponent = bits >> format.manBits & expMask;
  uint32_t mantissa = bits & manMask;
  // NaNs keep their sign bit, which later conversions may carry on.
  double nan = std::copysign(NAN, sign ? -1.0 : 1.0);
  switch (format.specials) {
  case FloatSpecials::None:
    break;
  case FloatSpecials::AllOnesNaN:
    if (exponent == expMask && mantissa == manMask)
      return nan;
    break;
  case FloatSpecials::NegZeroNaN:
    if (bits == 1u << (width - 1))
      return nan;
    break;
  case FloatSpecials::Ieee:
    if (exponent == expMask)
      return mantissa ? nan : (sign ? -INFINITY : INFINITY);
    break;
  }
  double value =
      exponent == 0
          ? std::ldexp(double(mantissa), 1 - format.bias - format.manBits)
          : std::ldexp(double(mantissa | 1u << format.manBits),
                       int(exponent) - format.bias - format.manBits);
  return sign ? -value : value;
}

/// The code of the largest finite magnitude with sign bit `sign`.
static uint32_t maxCode(const FloatFormat &format, uint32_t sign) {
  uint32_t exponent = (1u << format.expBits) - 1;
  uint32_t mantissa = (1u << format.manBits) - 1;
  if (format.specials == FloatSpecials::Ieee)
    exponent -= 1;
  if (format.specials == FloatSpecials::AllOnesNaN)
    mantissa -= 1;
  return sign << (format.width() - 1) | exponent << format.manBits | mantissa;
}

/// The code NaN encodes to, with sign bit `sign`.
static uint32_t nanCode(const FloatFormat &format, uint32_t sign) {
  int width = format.width();
  uint32_t all = (1u << (width - 1)) - 1;
  switch (format.specials) {
  case FloatSpecials::None:
    return maxCode(format, sign);
  case FloatSpecials::NegZeroNaN:
    return 1u << (width - 1);
  case FloatSpecials::AllOnesNaN:
    return sign << (width - 1) | all;
  case FloatSpecials::Ieee:
    // A quiet NaN: the all-ones exponent and the top mantissa bit.
    return sign << (width - 1) |
           ((1u << format.expBits) - 1) << format.manBits |
           1u << (format.manBits - 1);
  }
  return all;
}

uint32_t mla::encodeFloat(const FloatFormat &format, double value,
                          Overflow overflow) {
  int width = format.width();
  uint32_t sign = std::signbit(value) ? 1 : 0;
  if (std::isnan(value))
    return nanCode(format, sign);
  double magnitude = std::fabs(value);
  int minExp = 1 - format.bias;
  uint32_t code = 0; // the magnitude's code
  bool overflows = std::isinf(magnitude);
  if (!overflows && magnitude != 0) {
    // Round on the grid of the value's binade; subnormals share the grid
    // of the smallest normal binade.
    int exponent = std::ilogb(magnitude);
    int quantum = (exponent < minExp ? minExp : exponent) - format.manBits;
    double rounded =
        std::ldexp(std::nearbyint(std::ldexp(magnitude, -quantum)), quantum);
    if (rounded > format.maxFinite()) {
      overflows = true;
    } else if (rounded != 0) {
      int e = std::ilogb(rounded);
      if (e < minExp)
        code =
            static_cast<uint32_t>(std::ldexp(rounded, format.manBits - minExp));
      else
        code = uint32_t(e + format.bias) << format.manBits |
               (static_cast<uint32_t>(std::ldexp(rounded, format.manBits - e)) -
                (1u << format.manBits));
    }
  }
  if (overflows) {
    if (overflow == Overflow::Saturate ||
        format.specials == FloatSpecials::None)
      return maxCode(format, sign);
    if (format.specials == FloatSpecials::Ieee)
      return sign << (width - 1) | ((1u << format.expBits) - 1)
                                       << format.manBits;
    return nanCode(format, sign);
  }
  if (code == 0 && format.specials == FloatSpecials::NegZeroNaN)
    return 0;
  return sign << (width - 1) | code;
}

double mla::decodeE8M0(uint8_t bits) {
  if (bits == kE8M0NaN)
    return NAN;
  return std::ldexp(1.0, int(bits) - 127);
}
