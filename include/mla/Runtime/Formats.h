//===- Formats.h - bf16, fp8, fp4 and E8M0 conversions ----------*- C++ -*-===//
//
// Bit-exact conversions between float and the narrow formats of the MLA
// problem. Encoders round to nearest even and saturate; they are what the
// problem generator quantizes with, and the decoders are what the reference
// dequantizes with.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_FORMATS_H
#define MLA_RUNTIME_FORMATS_H

#include "mla/Support/FloatFormats.h"

#include <cstdint>

namespace mla::runtime {

/// The largest finite OCP fp8 e4m3fn magnitude.
constexpr float kFp8E4M3Max = 448.0f;
/// The largest finite fp8 e4m3fnuz magnitude (MI300X's fp8).
constexpr float kFp8E4M3FnuzMax = 240.0f;
/// The largest fp4 e2m1 magnitude.
constexpr float kFp4E2M1Max = 6.0f;
/// E8M0 code of a NaN scale.
using mla::kE8M0NaN;

/// bf16 bits to float (exact).
float bf16ToFloat(uint16_t bits);
/// float to bf16 bits, rounding to nearest even; NaN stays a quiet NaN.
uint16_t floatToBf16(float value);

/// OCP fp8 e4m3fn (bias 7, no infinities, S.1111.111 is NaN) to float.
float fp8E4M3FNToFloat(uint8_t bits);
/// float to fp8 e4m3fn, rounding to nearest even and saturating finite and
/// infinite values to +-448; NaN gives NaN.
uint8_t floatToFp8E4M3FN(float value);

/// fp8 e4m3fnuz (bias 8, no infinities, no negative zero: 0x80 is the only
/// NaN), the fp8 of gfx942's conversion instructions, to float.
float fp8E4M3FNUZToFloat(uint8_t bits);
/// float to fp8 e4m3fnuz, rounding to nearest even and saturating finite and
/// infinite values to +-240; NaN gives 0x80, and -0 gives +0.
uint8_t floatToFp8E4M3FNUZ(float value);

/// fp4 e2m1 (bias 1: 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives) in the
/// low four bits of `nibble` to float.
float fp4E2M1ToFloat(uint8_t nibble);
/// float to fp4 e2m1 (low four bits of the result), rounding to nearest even
/// and saturating to +-6. e2m1 has no NaN: NaN encodes as +-6, as AMD's
/// conversions do; it matters only for data already poisoned by a NaN block
/// scale.
uint8_t floatToFp4E2M1(float value);

/// E8M0 block scale to float: 2^(bits - 127); 0x00 is 2^-127, 0xFF is NaN.
float e8m0ToFloat(uint8_t bits);

/// The OCP MX shared exponent, as an E8M0 code, of an fp4 e2m1 block whose
/// largest magnitude is `amax`: floor(log2(amax)) - 2 (2 being e2m1's largest
/// exponent), clamped to the E8M0 range. An all-zero block gets 0x00
/// (2^-127), which is where the clamp takes log2(0) = -inf.
uint8_t mxfp4BlockScale(float amax);

} // namespace mla::runtime

#endif // MLA_RUNTIME_FORMATS_H
