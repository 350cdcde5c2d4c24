//===- Convert.cpp - fp8 and fp4 conversions ------------------------------===//
//
// gfx942 and gfx950 fp8 conversions read and write the chip's fp8 format
// (FNUZ on gfx942, OCP on gfx950). The gfx950 scaled conversions use only
// the exponent field of their f32 scale (an E8M0 code, 255 = NaN): up
// conversions return value * 2^(e - 127) rounded to the result type, down
// conversions encode value / 2^(e - 127). Selectors pick a byte (fp4 pairs,
// single fp8 values) or a 16-bit half (fp8 pairs) of the 32-bit register,
// as the intrinsics' immediate operands say.
//
//===----------------------------------------------------------------------===//

#include "Formats.h"
#include "Runtime.h"

#include <cmath>
#include <cstring>

using namespace mla::emu;

static uint32_t byteOf(uint32_t word, uint32_t index) {
  return word >> (8 * (index & 3)) & 0xFF;
}

static uint32_t withByte(uint32_t word, uint32_t index, uint32_t byte) {
  unsigned shift = 8 * (index & 3);
  return (word & ~(0xFFu << shift)) | (byte & 0xFF) << shift;
}

/// `value` * 2^exponent, or NaN for a NaN scale.
static double scaled(double value, float scale) {
  int exponent;
  if (!scaleExponent(scale, exponent))
    return NAN;
  return std::ldexp(value, exponent);
}

/// `value` / 2^exponent, or NaN for a NaN scale.
static double unscaled(double value, float scale) {
  int exponent;
  if (!scaleExponent(scale, exponent))
    return NAN;
  return std::ldexp(value, -exponent);
}

static void storeFloats(void *out, double first, double second) {
  float values[2] = {static_cast<float>(first), static_cast<float>(second)};
  std::memcpy(out, values, sizeof(values));
}

static void storeBf16s(void *out, double first, double second) {
  uint16_t values[2] = {floatToBf16(static_cast<float>(first)),
                        floatToBf16(static_cast<float>(second))};
  std::memcpy(out, values, sizeof(values));
}

static void storeHalves(void *out, double first, double second) {
  uint16_t values[2] = {floatToHalf(static_cast<float>(first)),
                        floatToHalf(static_cast<float>(second))};
  std::memcpy(out, values, sizeof(values));
}

static void loadPair(const void *in, bool bf16, float &first, float &second) {
  uint16_t values[2];
  std::memcpy(values, in, sizeof(values));
  first = bf16 ? bf16ToFloat(values[0]) : halfToFloat(values[0]);
  second = bf16 ? bf16ToFloat(values[1]) : halfToFloat(values[1]);
}

//===----------------------------------------------------------------------===//
// fp8 without scale (gfx942, gfx950)
//===----------------------------------------------------------------------===//

MLA_EMU_RT float __mla_emu_cvt_f32_fp8(uint32_t source, uint32_t byte,
                                       uint32_t) {
  return static_cast<float>(decodeMiniFloat(fp8Format(), byteOf(source, byte)));
}

MLA_EMU_RT float __mla_emu_cvt_f32_bf8(uint32_t source, uint32_t byte,
                                       uint32_t) {
  return static_cast<float>(decodeMiniFloat(bf8Format(), byteOf(source, byte)));
}

/// word_sel 1 converts bytes 2 and 3, else bytes 0 and 1.
static void unpackPair(void *out, MiniFloat format, uint32_t source,
                       uint32_t high) {
  unsigned first = high ? 2 : 0;
  storeFloats(out, decodeMiniFloat(format, byteOf(source, first)),
              decodeMiniFloat(format, byteOf(source, first + 1)));
}

MLA_EMU_RT void __mla_emu_cvt_pk_f32_fp8(void *out, uint32_t source,
                                         uint32_t high, uint32_t) {
  unpackPair(out, fp8Format(), source, high);
}

MLA_EMU_RT void __mla_emu_cvt_pk_f32_bf8(void *out, uint32_t source,
                                         uint32_t high, uint32_t) {
  unpackPair(out, bf8Format(), source, high);
}

/// word_sel 1 writes bytes 2 and 3 of `old`, else bytes 0 and 1.
static uint32_t packPair(MiniFloat format, double first, double second,
                         uint32_t old, uint32_t high) {
  unsigned byte = high ? 2 : 0;
  old = withByte(old, byte, encodeMiniFloat(format, first));
  return withByte(old, byte + 1, encodeMiniFloat(format, second));
}

MLA_EMU_RT uint32_t __mla_emu_cvt_pk_fp8_f32(float first, float second,
                                             uint32_t old, uint32_t high,
                                             uint32_t) {
  return packPair(fp8Format(), first, second, old, high);
}

MLA_EMU_RT uint32_t __mla_emu_cvt_pk_bf8_f32(float first, float second,
                                             uint32_t old, uint32_t high,
                                             uint32_t) {
  return packPair(bf8Format(), first, second, old, high);
}

//===----------------------------------------------------------------------===//
// Scaled fp4 (gfx950)
//===----------------------------------------------------------------------===//

/// Byte `select` of `source`: its low nibble is element 0, its high nibble
/// element 1.
static void fp4Pair(uint32_t source, uint32_t select, float scale,
                    double &first, double &second) {
  uint32_t byte = byteOf(source, select);
  first = scaled(decodeMiniFloat(MiniFloat::E2M1, byte & 0xF), scale);
  second = scaled(decodeMiniFloat(MiniFloat::E2M1, byte >> 4), scale);
}

/// The runtime function NAME: the pair PAIR decodes, stored by STORE.
#define SCALED_UNPACK(NAME, PAIR, STORE)                                       \
  MLA_EMU_RT void __mla_emu_##NAME(void *out, uint32_t source, float scale,    \
                                   uint32_t select, uint32_t) {                \
    double first, second;                                                      \
    PAIR(source, select, scale, first, second);                                \
    STORE(out, first, second);                                                 \
  }

SCALED_UNPACK(cvt_scalef32_pk_f32_fp4, fp4Pair, storeFloats)
SCALED_UNPACK(cvt_scalef32_pk_bf16_fp4, fp4Pair, storeBf16s)
SCALED_UNPACK(cvt_scalef32_pk_f16_fp4, fp4Pair, storeHalves)

/// Writes nibble(first) | nibble(second) << 4 into byte `select` of `old`.
static uint32_t packFp4(uint32_t old, double first, double second, float scale,
                        uint32_t select) {
  uint32_t low = encodeMiniFloat(MiniFloat::E2M1, unscaled(first, scale));
  uint32_t high = encodeMiniFloat(MiniFloat::E2M1, unscaled(second, scale));
  return withByte(old, select, low | high << 4);
}

MLA_EMU_RT uint32_t __mla_emu_cvt_scalef32_pk_fp4_f32(uint32_t old, float first,
                                                      float second, float scale,
                                                      uint32_t select,
                                                      uint32_t) {
  return packFp4(old, first, second, scale, select);
}

MLA_EMU_RT uint32_t __mla_emu_cvt_scalef32_pk_fp4_bf16(
    uint32_t old, const void *source, float scale, uint32_t select, uint32_t) {
  float first, second;
  loadPair(source, /*bf16=*/true, first, second);
  return packFp4(old, first, second, scale, select);
}

MLA_EMU_RT uint32_t __mla_emu_cvt_scalef32_pk_fp4_f16(
    uint32_t old, const void *source, float scale, uint32_t select, uint32_t) {
  float first, second;
  loadPair(source, /*bf16=*/false, first, second);
  return packFp4(old, first, second, scale, select);
}

//===----------------------------------------------------------------------===//
// Scaled fp8 (gfx950, OCP formats)
//===----------------------------------------------------------------------===//

MLA_EMU_RT float __mla_emu_cvt_scalef32_f32_fp8(uint32_t source, float scale,
                                                uint32_t byte, uint32_t) {
  return static_cast<float>(
      scaled(decodeMiniFloat(MiniFloat::E4M3, byteOf(source, byte)), scale));
}

MLA_EMU_RT float __mla_emu_cvt_scalef32_f32_bf8(uint32_t source, float scale,
                                                uint32_t byte, uint32_t) {
  return static_cast<float>(
      scaled(decodeMiniFloat(MiniFloat::E5M2, byteOf(source, byte)), scale));
}

/// src_lo_hi_sel 1 converts bytes 2 and 3, else bytes 0 and 1.
template <MiniFloat Format>
static void fp8Pair(uint32_t source, uint32_t high, float scale, double &first,
                    double &second) {
  unsigned byte = high ? 2 : 0;
  first = scaled(decodeMiniFloat(Format, byteOf(source, byte)), scale);
  second = scaled(decodeMiniFloat(Format, byteOf(source, byte + 1)), scale);
}

SCALED_UNPACK(cvt_scalef32_pk_f32_fp8, fp8Pair<MiniFloat::E4M3>, storeFloats)
SCALED_UNPACK(cvt_scalef32_pk_f32_bf8, fp8Pair<MiniFloat::E5M2>, storeFloats)
SCALED_UNPACK(cvt_scalef32_pk_bf16_fp8, fp8Pair<MiniFloat::E4M3>, storeBf16s)
SCALED_UNPACK(cvt_scalef32_pk_bf16_bf8, fp8Pair<MiniFloat::E5M2>, storeBf16s)
SCALED_UNPACK(cvt_scalef32_pk_f16_fp8, fp8Pair<MiniFloat::E4M3>, storeHalves)
SCALED_UNPACK(cvt_scalef32_pk_f16_bf8, fp8Pair<MiniFloat::E5M2>, storeHalves)

/// Writes the two encoded values into half `high` of `old` (a <2 x i16>).
static void scaledFp8Pack(void *out, const void *old, MiniFloat format,
                          double first, double second, float scale,
                          uint32_t high) {
  uint32_t word;
  std::memcpy(&word, old, sizeof(word));
  unsigned byte = high ? 2 : 0;
  word = withByte(word, byte, encodeMiniFloat(format, unscaled(first, scale)));
  word = withByte(word, byte + 1,
                  encodeMiniFloat(format, unscaled(second, scale)));
  std::memcpy(out, &word, sizeof(word));
}

MLA_EMU_RT void __mla_emu_cvt_scalef32_pk_fp8_f32(void *out, const void *old,
                                                  float first, float second,
                                                  float scale, uint32_t high,
                                                  uint32_t) {
  scaledFp8Pack(out, old, MiniFloat::E4M3, first, second, scale, high);
}

MLA_EMU_RT void __mla_emu_cvt_scalef32_pk_bf8_f32(void *out, const void *old,
                                                  float first, float second,
                                                  float scale, uint32_t high,
                                                  uint32_t) {
  scaledFp8Pack(out, old, MiniFloat::E5M2, first, second, scale, high);
}

#define SCALED_FP8_PACK16(NAME, FORMAT, BF16)                                  \
  MLA_EMU_RT void __mla_emu_##NAME(void *out, const void *old,                 \
                                   const void *source, float scale,            \
                                   uint32_t high, uint32_t) {                  \
    float first, second;                                                       \
    loadPair(source, BF16, first, second);                                     \
    scaledFp8Pack(out, old, MiniFloat::FORMAT, first, second, scale, high);    \
  }

SCALED_FP8_PACK16(cvt_scalef32_pk_fp8_f16, E4M3, false)
SCALED_FP8_PACK16(cvt_scalef32_pk_fp8_bf16, E4M3, true)
SCALED_FP8_PACK16(cvt_scalef32_pk_bf8_f16, E5M2, false)
SCALED_FP8_PACK16(cvt_scalef32_pk_bf8_bf16, E5M2, true)
