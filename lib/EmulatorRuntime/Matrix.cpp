//===- Matrix.cpp - MFMA and scaled MFMA ----------------------------------===//
//
// The single-block MFMA shapes of CDNA3 (gfx942) and CDNA4 (gfx950), with
// the lane layouts of AMD's matrix instruction calculator (shared/AMD.md):
// for an M x N x K instruction (M = N = 16 or 32) every lane holds
// P = K * M / 64 consecutive values of K,
//   A[i][k] in lane i + M * (k / P), element k % P,
//   B[k][j] in lane j + N * (k / P), element k % P,
//   C/D[i][j] in lane j + N * ((i / 4) % (64 / N)),
//             register 4 * (i / (4 * 64 / N)) + i % 4.
// Products are exact in double and summed in double, then rounded once to
// f32: the hardware's fused multiply-adds round about as rarely, so results
// agree to a few ulps (integer MFMAs agree exactly).
//
//===----------------------------------------------------------------------===//

#include "Formats.h"
#include "Runtime.h"

#include <cmath>
#include <cstring>

using namespace mla::emu;

namespace {
enum class Element { F32, F16, BF16, Fp8, Bf8, I8, Fp4 };

struct MfmaShape {
  unsigned m;
  unsigned k;
  Element a;
  Element b;
  bool integer;
  /// Scaled MFMA: each lane's values of A and B (one block of 32) are
  /// multiplied by 2^(e - 127), e the byte imm[2] (A) / imm[3] (B) selects
  /// from the lane's scale word imm[0] (A) / imm[1] (B).
  bool scaled;
};
} // namespace

/// Decodes the `count` values of one lane's operand into `values`.
static void decode(const void *operand, Element type, unsigned count,
                   double *values) {
  const auto *bytes = static_cast<const uint8_t *>(operand);
  switch (type) {
  case Element::F32:
    for (unsigned i = 0; i < count; ++i) {
      float value;
      std::memcpy(&value, bytes + 4 * i, sizeof(value));
      values[i] = value;
    }
    return;
  case Element::BF16:
    for (unsigned i = 0; i < count; ++i) {
      uint32_t bits = uint32_t(bytes[2 * i] | bytes[2 * i + 1] << 8) << 16;
      float value;
      std::memcpy(&value, &bits, sizeof(value));
      values[i] = value;
    }
    return;
  case Element::F16:
    for (unsigned i = 0; i < count; ++i)
      values[i] = halfToFloat(uint16_t(bytes[2 * i] | bytes[2 * i + 1] << 8));
    return;
  case Element::I8:
    for (unsigned i = 0; i < count; ++i)
      values[i] = static_cast<int8_t>(bytes[i]);
    return;
  case Element::Fp8:
  case Element::Bf8:
  case Element::Fp4: {
    // Narrow formats decode through a table of all their codes.
    MiniFloat format = type == Element::Fp8   ? fp8Format()
                       : type == Element::Bf8 ? bf8Format()
                                              : MiniFloat::E2M1;
    double table[256];
    unsigned codes = type == Element::Fp4 ? 16 : 256;
    for (unsigned code = 0; code < codes; ++code)
      table[code] = decodeMiniFloat(format, code);
    for (unsigned i = 0; i < count; ++i)
      values[i] = type == Element::Fp4
                      ? table[bytes[i / 2] >> (4 * (i % 2)) & 0xF]
                      : table[bytes[i]];
    return;
  }
  }
}

/// 2^(e - 127) for the scale byte `select` of `word`; NaN for code 255.
static double scaleFactor(uint64_t word, uint64_t select) {
  unsigned code = static_cast<unsigned>(word >> (8 * (select & 3)) & 0xFF);
  return code == 0xFF ? NAN : std::ldexp(1.0, int(code) - 127);
}

/// Decodes every lane's A and B operands: row i of A is the operands of
/// lanes i, i + M, ... laid end to end (a[i][k]); B is kept transposed,
/// b[k][j], so that the products vectorize over j.
static void gatherOperands(const Wave &wave, const MfmaShape &shape, double *a,
                           double *b) {
  const unsigned m = shape.m, k = shape.k;
  const unsigned perLane = k * m / kWaveSize;
  double column[128];
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    const Lane &record = wave.lanes[lane];
    unsigned row = lane % m, block = lane / m;
    double *aBlock = a + row * k + block * perLane;
    decode(record.in[0], shape.a, perLane, aBlock);
    decode(record.in[1], shape.b, perLane, column);
    double scaleA = 1, scaleB = 1;
    if (shape.scaled) {
      scaleA = scaleFactor(record.imm[0], record.imm[2]);
      scaleB = scaleFactor(record.imm[1], record.imm[3]);
    }
    for (unsigned e = 0; e < perLane; ++e) {
      aBlock[e] *= scaleA;
      b[(block * perLane + e) * m + row] = column[e] * scaleB;
    }
  }
}

/// D = C + A B for the rows of D: `sums` (row-major M x N) receives the
/// products of row i summed in order of k. N is a constant so that a row's
/// sums stay in registers.
template <unsigned N, typename T>
__attribute__((always_inline)) static inline void
multiply(const double *a, const double *b, unsigned m, unsigned k, T *sums) {
  for (unsigned i = 0; i < m; ++i) {
    T row[N] = {};
    for (unsigned kk = 0; kk < k; ++kk) {
      T x = static_cast<T>(a[i * k + kk]);
      const double *column = b + kk * N;
      for (unsigned j = 0; j < N; ++j)
        row[j] += x * static_cast<T>(column[j]);
    }
    for (unsigned j = 0; j < N; ++j)
      sums[i * N + j] = row[j];
  }
}

// The products dominate emulation time: vectorize them for AVX2 where the
// host has it (the module must still run on baseline x86-64). Each D[i][j]
// sums its products in order of k whatever the vector width.
#define MULTIPLY(NAME, N, T)                                                   \
  __attribute__((target_clones("avx2", "default"))) static void NAME(          \
      const double *a, const double *b, unsigned m, unsigned k, T *sums) {     \
    multiply<N, T>(a, b, m, k, sums);                                          \
  }
MULTIPLY(multiply16, 16, double)
MULTIPLY(multiply32, 32, double)
MULTIPLY(multiplyIntegers16, 16, int64_t)
MULTIPLY(multiplyIntegers32, 32, int64_t)

static void mfma(Wave &wave, uint64_t exec, const MfmaShape &shape) {
  if (exec != ~uint64_t(0)) {
    waveFail(wave, wave.lanes[__builtin_ctzll(exec)].site,
             "MFMA executed by wave %u with lanes inactive (EXEC 0x%016llx); "
             "its result is undefined",
             wave.index, static_cast<unsigned long long>(exec));
    return;
  }
  const unsigned m = shape.m, n = shape.m, k = shape.k;
  const unsigned groups = kWaveSize / n;
  double a[32 * 128], b[128 * 32];
  gatherOperands(wave, shape, a, b);
  double sums[32 * 32];
  int64_t integers[32 * 32];
  if (shape.integer)
    (n == 16 ? multiplyIntegers16 : multiplyIntegers32)(a, b, m, k, integers);
  else
    (n == 16 ? multiply16 : multiply32)(a, b, m, k, sums);
  for (unsigned i = 0; i < m; ++i) {
    unsigned laneBase = n * ((i / 4) % groups);
    unsigned reg = 4 * (i / (4 * groups)) + i % 4;
    for (unsigned j = 0; j < n; ++j) {
      Lane &lane = wave.lanes[j + laneBase];
      if (shape.integer) {
        int32_t c;
        std::memcpy(&c, static_cast<const int32_t *>(lane.in[2]) + reg,
                    sizeof(c));
        uint32_t d = static_cast<uint32_t>(c) +
                     static_cast<uint32_t>(integers[i * n + j]);
        std::memcpy(static_cast<uint32_t *>(lane.out) + reg, &d, sizeof(d));
        continue;
      }
      float c;
      std::memcpy(&c, static_cast<const float *>(lane.in[2]) + reg, sizeof(c));
      float d = static_cast<float>(sums[i * n + j] + c);
      std::memcpy(static_cast<float *>(lane.out) + reg, &d, sizeof(d));
    }
  }
}

template <const MfmaShape &Shape>
static void mfmaCollective(Wave &wave, uint64_t exec) {
  mfma(wave, exec, Shape);
}

template <const MfmaShape &Shape>
static void mfmaEntry(void *out, const void *a, const void *b, const void *c,
                      uint32_t site) {
  Lane &lane = currentLane();
  lane.in[0] = a;
  lane.in[1] = b;
  lane.in[2] = c;
  lane.out = out;
  arrive(lane, site, mfmaCollective<Shape>);
}

/// k_NAME, the shape the runtime function __mla_emu_NAME executes.
#define MFMA_SHAPE(NAME, M, K, A, B, INTEGER, SCALED)                          \
  static const MfmaShape k_##NAME = {M,          K,       Element::A,          \
                                     Element::B, INTEGER, SCALED};

/// An MFMA whose A and B operands are vectors, passed by address. The
/// retargeter accepts only cbsz = abid = blgp = 0.
#define MFMA_VECTOR(NAME, M, K, A, B, INTEGER)                                 \
  MFMA_SHAPE(NAME, M, K, A, B, INTEGER, false)                                 \
  MLA_EMU_RT void __mla_emu_##NAME(void *out, const void *a, const void *b,    \
                                   const void *c, uint32_t, uint32_t,          \
                                   uint32_t, uint32_t site) {                  \
    mfmaEntry<k_##NAME>(out, a, b, c, site);                                   \
  }

/// An MFMA whose A and B operands are scalars (f32, or 8 bytes in an i64).
#define MFMA_SCALAR(NAME, TYPE, M, K, A, B, INTEGER)                           \
  MFMA_SHAPE(NAME, M, K, A, B, INTEGER, false)                                 \
  MLA_EMU_RT void __mla_emu_##NAME(void *out, TYPE a, TYPE b, const void *c,   \
                                   uint32_t, uint32_t, uint32_t,               \
                                   uint32_t site) {                            \
    mfmaEntry<k_##NAME>(out, &a, &b, c, site);                                 \
  }

// gfx942 and gfx950.
MFMA_SCALAR(mfma_f32_16x16x4f32, float, 16, 4, F32, F32, false)
MFMA_SCALAR(mfma_f32_32x32x2f32, float, 32, 2, F32, F32, false)
MFMA_VECTOR(mfma_f32_16x16x16f16, 16, 16, F16, F16, false)
MFMA_VECTOR(mfma_f32_32x32x8f16, 32, 8, F16, F16, false)
MFMA_VECTOR(mfma_f32_16x16x16bf16_1k, 16, 16, BF16, BF16, false)
MFMA_VECTOR(mfma_f32_32x32x8bf16_1k, 32, 8, BF16, BF16, false)
MFMA_SCALAR(mfma_i32_16x16x32_i8, uint64_t, 16, 32, I8, I8, true)
MFMA_SCALAR(mfma_i32_32x32x16_i8, uint64_t, 32, 16, I8, I8, true)
MFMA_SCALAR(mfma_f32_16x16x32_fp8_fp8, uint64_t, 16, 32, Fp8, Fp8, false)
MFMA_SCALAR(mfma_f32_16x16x32_fp8_bf8, uint64_t, 16, 32, Fp8, Bf8, false)
MFMA_SCALAR(mfma_f32_16x16x32_bf8_fp8, uint64_t, 16, 32, Bf8, Fp8, false)
MFMA_SCALAR(mfma_f32_16x16x32_bf8_bf8, uint64_t, 16, 32, Bf8, Bf8, false)
MFMA_SCALAR(mfma_f32_32x32x16_fp8_fp8, uint64_t, 32, 16, Fp8, Fp8, false)
MFMA_SCALAR(mfma_f32_32x32x16_fp8_bf8, uint64_t, 32, 16, Fp8, Bf8, false)
MFMA_SCALAR(mfma_f32_32x32x16_bf8_fp8, uint64_t, 32, 16, Bf8, Fp8, false)
MFMA_SCALAR(mfma_f32_32x32x16_bf8_bf8, uint64_t, 32, 16, Bf8, Bf8, false)

// gfx950.
MFMA_VECTOR(mfma_f32_16x16x32_f16, 16, 32, F16, F16, false)
MFMA_VECTOR(mfma_f32_32x32x16_f16, 32, 16, F16, F16, false)
MFMA_VECTOR(mfma_f32_16x16x32_bf16, 16, 32, BF16, BF16, false)
MFMA_VECTOR(mfma_f32_32x32x16_bf16, 32, 16, BF16, BF16, false)
MFMA_VECTOR(mfma_i32_16x16x64_i8, 16, 64, I8, I8, true)
MFMA_VECTOR(mfma_i32_32x32x32_i8, 32, 32, I8, I8, true)

/// Scaled MFMA with fp4 A and B (cbsz = blgp = 4; the retargeter rejects
/// the other formats, whose lane placement no source settles yet).
#define MFMA_SCALED(NAME, M, K)                                                \
  MFMA_SHAPE(NAME, M, K, Fp4, Fp4, false, true)                                \
  MLA_EMU_RT void __mla_emu_##NAME(                                            \
      void *out, const void *a, const void *b, const void *c, uint32_t,        \
      uint32_t, uint32_t selectA, uint32_t scaleA, uint32_t selectB,           \
      uint32_t scaleB, uint32_t site) {                                        \
    Lane &lane = currentLane();                                                \
    lane.imm[0] = scaleA;                                                      \
    lane.imm[1] = scaleB;                                                      \
    lane.imm[2] = selectA;                                                     \
    lane.imm[3] = selectB;                                                     \
    mfmaEntry<k_##NAME>(out, a, b, c, site);                                   \
  }

MFMA_SCALED(mfma_scale_f32_16x16x128_f8f6f4, 16, 128)
MFMA_SCALED(mfma_scale_f32_32x32x64_f8f6f4, 32, 64)
