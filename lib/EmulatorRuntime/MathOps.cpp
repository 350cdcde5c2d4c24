//===- MathOps.cpp - Transcendental and bit-manipulation instructions -----===//
//
// The ISA specifies v_exp_f32, v_log_f32, v_rcp_f32, v_rsq_f32 and
// v_sqrt_f32 to 1 ulp and flushes f32 denormal inputs and outputs of
// exp/log/rcp/rsq. The emulator returns the correctly rounded result (one
// of the values the ISA allows) and flushes as the ISA says; f16 variants
// keep denormals, as the hardware does.
//
//===----------------------------------------------------------------------===//

#include "Formats.h"
#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mla::emu;

/// A denormal becomes a zero of the same sign.
static float flush(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value)
                                                : value;
}

MLA_EMU_RT float __mla_emu_exp2_f32(float x, uint32_t) {
  return flush(static_cast<float>(std::exp2(double(flush(x)))));
}

MLA_EMU_RT float __mla_emu_log_f32(float x, uint32_t) {
  return static_cast<float>(std::log2(double(flush(x))));
}

MLA_EMU_RT float __mla_emu_rcp_f32(float x, uint32_t) {
  return flush(static_cast<float>(1.0 / double(flush(x))));
}

MLA_EMU_RT float __mla_emu_rsq_f32(float x, uint32_t) {
  return flush(static_cast<float>(1.0 / std::sqrt(double(flush(x)))));
}

MLA_EMU_RT float __mla_emu_sqrt_f32(float x, uint32_t) {
  return static_cast<float>(std::sqrt(double(flush(x))));
}

/// v_sin_f32 and v_cos_f32 take the angle in revolutions.
MLA_EMU_RT float __mla_emu_sin_f32(float x, uint32_t) {
  return static_cast<float>(std::sin(2 * M_PI * double(x)));
}

MLA_EMU_RT float __mla_emu_cos_f32(float x, uint32_t) {
  return static_cast<float>(std::cos(2 * M_PI * double(x)));
}

static uint32_t half16(uint32_t bits, double (*op)(double)) {
  return floatToHalf(
      static_cast<float>(op(double(halfToFloat(static_cast<uint16_t>(bits))))));
}

static double reciprocal(double x) { return 1.0 / x; }
static double reciprocalSqrt(double x) { return 1.0 / std::sqrt(x); }
static double exp2d(double x) { return std::exp2(x); }
static double log2d(double x) { return std::log2(x); }
static double sqrtd(double x) { return std::sqrt(x); }

MLA_EMU_RT uint32_t __mla_emu_exp2_f16(uint32_t x, uint32_t) {
  return half16(x, exp2d);
}
MLA_EMU_RT uint32_t __mla_emu_log_f16(uint32_t x, uint32_t) {
  return half16(x, log2d);
}
MLA_EMU_RT uint32_t __mla_emu_rcp_f16(uint32_t x, uint32_t) {
  return half16(x, reciprocal);
}
MLA_EMU_RT uint32_t __mla_emu_rsq_f16(uint32_t x, uint32_t) {
  return half16(x, reciprocalSqrt);
}
MLA_EMU_RT uint32_t __mla_emu_sqrt_f16(uint32_t x, uint32_t) {
  return half16(x, sqrtd);
}

/// v_fract_f32: x - floor(x), below 1.0; infinities and NaN give NaN.
MLA_EMU_RT float __mla_emu_fract_f32(float x, uint32_t) {
  if (std::isinf(x) || std::isnan(x))
    return NAN;
  float fraction = x - std::floor(x);
  return fraction < 0x1.fffffep-1f ? fraction : 0x1.fffffep-1f;
}

MLA_EMU_RT float __mla_emu_frexp_mant_f32(float x, uint32_t) {
  if (std::isinf(x) || std::isnan(x))
    return x;
  int exponent;
  return std::frexp(x, &exponent);
}

MLA_EMU_RT uint32_t __mla_emu_frexp_exp_i32_f32(float x, uint32_t) {
  if (std::isinf(x) || std::isnan(x))
    return 0;
  int exponent;
  std::frexp(x, &exponent);
  return static_cast<uint32_t>(exponent);
}

/// v_fmul_legacy_f32: 0 * anything (infinities and NaN included) is +0.
MLA_EMU_RT float __mla_emu_fmul_legacy(float a, float b, uint32_t) {
  return a == 0 || b == 0 ? 0.0f : a * b;
}

/// v_med3_f32 for non-NaN operands: the middle value.
MLA_EMU_RT float __mla_emu_fmed3_f32(float a, float b, float c, uint32_t) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c))
    return std::fmin(std::fmin(a, b), c);
  return std::fmax(std::fmin(a, b), std::fmin(std::fmax(a, b), c));
}

/// v_perm_b32: byte i of the result is selected by byte i of `selector`
/// from the 8 bytes {a (high word), b (low word)}: 0-7 a byte, 8-11 the
/// sign of bytes 1, 3, 5, 7 replicated, 12 zero, 13-255 0xFF.
MLA_EMU_RT uint32_t __mla_emu_perm(uint32_t a, uint32_t b, uint32_t selector,
                                   uint32_t) {
  uint64_t data = uint64_t(a) << 32 | b;
  uint32_t result = 0;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned select = selector >> (8 * i) & 0xFF;
    uint32_t byte;
    if (select < 8)
      byte = data >> (8 * select) & 0xFF;
    else if (select < 12)
      byte = data >> (16 * (select - 8) + 15) & 1 ? 0xFF : 0;
    else if (select == 12)
      byte = 0;
    else
      byte = 0xFF;
    result |= byte << (8 * i);
  }
  return result;
}

/// v_bfe_u32 / v_bfe_i32: `width` bits from bit `offset` (both mod 32),
/// fewer where the field would pass bit 31.
static unsigned fieldBits(uint32_t offset, uint32_t width) {
  return std::min(width & 31, 32 - (offset & 31));
}

MLA_EMU_RT uint32_t __mla_emu_ubfe_i32(uint32_t source, uint32_t offset,
                                       uint32_t width, uint32_t) {
  unsigned bits = fieldBits(offset, width);
  return bits ? source >> (offset & 31) & ((1u << bits) - 1) : 0;
}

MLA_EMU_RT uint32_t __mla_emu_sbfe_i32(uint32_t source, uint32_t offset,
                                       uint32_t width, uint32_t) {
  unsigned bits = fieldBits(offset, width);
  if (bits == 0)
    return 0;
  unsigned shift = 32 - bits;
  return static_cast<uint32_t>(
      static_cast<int32_t>(source >> (offset & 31) << shift) >> shift);
}

/// v_cvt_pkrtz_f16_f32: two halves rounded toward zero.
static uint16_t halfTowardZero(float value) {
  uint16_t nearest = floatToHalf(value);
  if (std::isnan(value) || std::isinf(value))
    return nearest;
  // Where rounding to nearest went away from zero, step back one code.
  float back = halfToFloat(nearest);
  return std::fabs(back) > std::fabs(value) ? static_cast<uint16_t>(nearest - 1)
                                            : nearest;
}

MLA_EMU_RT void __mla_emu_cvt_pkrtz(void *out, float a, float b, uint32_t) {
  uint16_t values[2] = {halfTowardZero(a), halfTowardZero(b)};
  std::memcpy(out, values, sizeof(values));
}
