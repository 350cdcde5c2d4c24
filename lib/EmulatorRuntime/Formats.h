//===- Formats.h - Narrow float formats of the AMD ISAs ---------*- C++ -*-===//
//
// Decoding and round-to-nearest-even encoding of bf16, f16, the OCP fp8
// formats (gfx950), the FNUZ fp8 formats (gfx942) and fp4 (E2M1), with the
// special values and overflow behaviour of AMD's reference conversions
// (HIP's amd_hip_ocp_host.hpp): E4M3 has no infinity and overflows to NaN,
// E5M2 overflows to infinity, FNUZ formats have one NaN (0x80) and no
// negative zero, fp4 has neither and saturates at +-6.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_EMULATORRUNTIME_FORMATS_H
#define MLA_EMULATORRUNTIME_FORMATS_H

#include <cstdint>

namespace mla::emu {

enum class MiniFloat { E4M3, E5M2, E4M3Fnuz, E5M2Fnuz, E2M1 };

/// The fp8 format the chip's "fp8" and "bf8" instructions read and write.
MiniFloat fp8Format();
MiniFloat bf8Format();

/// The value of `bits` (the low 4 or 8 bits), exactly; NaN for NaN codes.
double decodeMiniFloat(MiniFloat format, uint32_t bits);

/// `value` rounded to `format` with ties to even; E2M1 saturates.
uint32_t encodeMiniFloat(MiniFloat format, double value);

/// The power of two an E8M0 code stands for, as the exponent of an f32
/// `scale` operand: bits 30:23 of it; code 255 is NaN.
bool scaleExponent(float scale, int &exponent);

float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value);
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);

} // namespace mla::emu

#endif // MLA_EMULATORRUNTIME_FORMATS_H
