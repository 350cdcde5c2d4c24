//===- FloatFormats.h - The narrow float formats, one table -----*- C++ -*-===//
//
// bf16, f16, the OCP fp8 formats (gfx950), the FNUZ fp8 formats (gfx942)
// and fp4 (E2M1): their layouts, exact decoding and round-to-nearest-even
// encoding. The runtime (inputs and reference), the emulation runtime (AMD
// conversion instructions) and the compiler's integer decoding
// (Conversion/Utils/FloatDecode) all read this table. Plain C++ with the C
// library only, so that the emulation runtime can carry it.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_SUPPORT_FLOATFORMATS_H
#define MLA_SUPPORT_FLOATFORMATS_H

#include <cstdint>

namespace mla {

/// How a format spends its special encodings.
enum class FloatSpecials {
  None,       // every encoding is finite (e2m1)
  AllOnesNaN, // S.1111.111 is NaN, no infinity (e4m3fn)
  NegZeroNaN, // 0x80 is the only NaN, no -0, no infinity (the FNUZ types)
  Ieee,       // all-ones exponent: infinity or NaN (e5m2, f16, bf16)
};

/// A binary float format with a sign bit.
struct FloatFormat {
  int expBits;
  int manBits;
  int bias;
  FloatSpecials specials;

  int width() const { return 1 + expBits + manBits; }
  /// The largest finite magnitude.
  double maxFinite() const;
};

constexpr FloatFormat kFloat8E4M3FN = {4, 3, 7, FloatSpecials::AllOnesNaN};
constexpr FloatFormat kFloat8E4M3FNUZ = {4, 3, 8, FloatSpecials::NegZeroNaN};
constexpr FloatFormat kFloat8E5M2 = {5, 2, 15, FloatSpecials::Ieee};
constexpr FloatFormat kFloat8E5M2FNUZ = {5, 2, 16, FloatSpecials::NegZeroNaN};
constexpr FloatFormat kFloat4E2M1FN = {2, 1, 1, FloatSpecials::None};
constexpr FloatFormat kHalf = {5, 10, 15, FloatSpecials::Ieee};
constexpr FloatFormat kBFloat16 = {8, 7, 127, FloatSpecials::Ieee};

/// The value of the low `format.width()` bits of `bits`, exactly; NaN
/// codes give a NaN of the code's sign.
double decodeFloat(const FloatFormat &format, uint32_t bits);

/// What encoding does with a magnitude beyond the largest finite one.
enum class Overflow {
  /// The largest finite magnitude, as quantizers do.
  Saturate,
  /// Infinity where the format has one, else NaN (e2m1, which has neither,
  /// saturates), as AMD's conversion instructions do.
  Special,
};

/// `value` rounded to `format` with ties to even. NaN gives the format's
/// NaN (a quiet NaN of its sign; 0x80 for FNUZ), or for e2m1 the largest
/// magnitude of its sign. FNUZ formats have no -0: it encodes as +0.
uint32_t encodeFloat(const FloatFormat &format, double value,
                     Overflow overflow);

/// E8M0 block scale code to its value: 2^(bits - 127); 0x00 is 2^-127 and
/// 0xFF is NaN.
double decodeE8M0(uint8_t bits);
constexpr uint8_t kE8M0NaN = 0xFF;

} // namespace mla

#endif // MLA_SUPPORT_FLOATFORMATS_H
