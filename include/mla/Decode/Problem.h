//===- Problem.h - The MLA decode problem data ------------------*- C++ -*-===//
//
// The inputs of one MLA decode run (DESIGN.md section 5): bf16 queries, a KV
// cache in bf16, fp8 or mxfp4, and the ragged batch layout. They come from
// the built-in generator or from .npy files, and are validated either way.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DECODE_PROBLEM_H
#define MLA_DECODE_PROBLEM_H

#include "mla/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace mla::decode {

using runtime::Status;

/// Key (and query) dimension: 512 latent + 64 rope.
constexpr int64_t kQkDim = 576;
/// Value (and output) dimension: the first 512 key dimensions.
constexpr int64_t kVDim = 512;
/// Bytes of one packed fp4 KV row: two elements per byte.
constexpr int64_t kPackedFp4RowBytes = kQkDim / 2;
/// Elements sharing one E8M0 scale.
constexpr int64_t kMxBlockSize = 32;
/// E8M0 scales per KV row.
constexpr int64_t kMxScalesPerRow = kQkDim / kMxBlockSize;
/// Queries per sequence the kernels support.
constexpr int64_t kMaxQLen = 4;
/// Head counts must be multiples of this, up to kMaxHeads.
constexpr int64_t kHeadGranule = 16;
constexpr int64_t kMaxHeads = 128;

/// How the KV cache is stored. FP8 is OCP e4m3fn (MI355X, the H200);
/// FP8_FNUZ is e4m3fnuz, the fp8 of MI300X (gfx942), with its own scale
/// range (amax / 240).
enum class KvDType { BF16, FP8, FP8_FNUZ, MXFP4 };

/// Whether `dtype` is one of the fp8 formats (one f32 per-tensor scale).
inline bool isFp8(KvDType dtype) {
  return dtype == KvDType::FP8 || dtype == KvDType::FP8_FNUZ;
}

/// "bf16", "fp8", "fp8_fnuz" or "mxfp4".
const char *kvDTypeName(KvDType dtype);

/// The MLA decode inputs. The KV cache and the mxfp4 scale tensor may have
/// more rows than kv_indptr covers, as a preallocated cache pool does; only
/// the covered rows are read.
struct MlaProblem {
  KvDType kvDType = KvDType::BF16;
  int64_t heads = 0;
  float smScale = 0;
  /// [batch + 1] row offsets of each sequence's queries and KV rows.
  std::vector<int32_t> qoIndptr;
  std::vector<int32_t> kvIndptr;
  /// [totalQ, heads, 576] bf16 bits.
  std::vector<uint16_t> q;
  /// [kvRows(), kvRowBytes()], kvRows() >= totalKv(): little-endian bf16
  /// bits, fp8 e4m3fn bytes, or packed fp4 e2m1 (low nibble = even element).
  std::vector<uint8_t> kv;
  /// fp8: the per-tensor scale.
  float fp8Scale = 1;
  /// mxfp4: E8M0 scales [scaleRows, scaleStride], scaleRows >= totalKv(),
  /// row r for KV row r, column c for elements [32c, 32c + 32).
  std::vector<uint8_t> mxScale;
  int64_t scaleRows = 0;
  int64_t scaleStride = 0;

  int64_t batch() const { return static_cast<int64_t>(qoIndptr.size()) - 1; }
  int64_t totalQ() const { return qoIndptr.back(); }
  int64_t totalKv() const { return kvIndptr.back(); }
  int64_t qLen(int64_t seq) const { return qoIndptr[seq + 1] - qoIndptr[seq]; }
  int64_t kvLen(int64_t seq) const { return kvIndptr[seq + 1] - kvIndptr[seq]; }
  /// The most query rows (q_len * heads) of any sequence.
  int64_t maxQueryRows() const;
  /// Rows of the KV cache, covered or not.
  int64_t kvRows() const {
    return static_cast<int64_t>(kv.size()) / kvRowBytes();
  }
  /// Bytes of one KV row: 1152, 576 or 288.
  int64_t kvRowBytes() const;
  /// Decodes KV row `row` into `values[576]` (exact in double).
  void dequantizeKvRow(int64_t row, double *values) const;
  /// Bytes a kernel must read or write at least: q, the covered KV rows and
  /// their scales, the indptrs and the output.
  int64_t essentialBytes() const;
};

/// Fails unless `heads` is a positive multiple of 16 up to 128; `subject`
/// names the flag or file the count came from.
Status checkHeadCount(int64_t heads, const std::string &subject);

/// What the generator makes: `randn` values quantized like the problem.
struct GeneratorOptions {
  KvDType kvDType = KvDType::BF16;
  int64_t heads = 16;
  /// Queries per sequence, 1..4.
  int64_t qLen = 1;
  /// One KV length per sequence (the batch is their count).
  std::vector<int64_t> kvLens;
  uint64_t seed = 0;
  float smScale = 0;
  /// Rows the KV cache (and the mxfp4 scale tensor) has past the last
  /// sequence, as a preallocated pool does.
  int64_t spareKvRows = 0;
  /// The flag that gave kvLens, named in size errors.
  std::string kvLensFlag = "--kv-len";
};

/// Generates a problem. Values are standard normal, drawn from a
/// xoshiro256** stream per row (seeded from `seed` with splitmix64) through
/// the polar method with a log in plain IEEE arithmetic, so a seed gives the
/// same bits on any machine and any thread count. q and bf16 KV are the
/// normals rounded to bf16; fp8 KV is that bf16 cache divided by the
/// per-tensor scale amax / 448 (1 for an all-zero cache); mxfp4 KV is the
/// bf16 cache in blocks of 32 with OCP MX scales (mxfp4BlockScale). The
/// mxfp4 scale tensor is padded to a multiple of 256 rows and 24 columns,
/// the padding filled with 0xFF (NaN), so a kernel reading it shows NaN.
/// Spare KV rows are NaN too: bf16 0xFFFF, fp8 0x7F, and mxfp4 values whose
/// scales are the NaN padding; the fp8 scale comes from the covered rows.
/// Errors name mla-run's flags.
Status generateProblem(const GeneratorOptions &options,
                       llvm::ThreadPoolInterface &pool, MlaProblem &problem);

/// Loads q.npy, kv.npy, kv_scale.npy (fp8 and mxfp4), qo_indptr.npy and
/// kv_indptr.npy from `directory` and validates dtypes, shapes and indptrs
/// (kv.npy and kv_scale.npy may have rows past kv_indptr's last entry);
/// errors name the file.
Status loadProblem(const std::string &directory, KvDType kvDType, float smScale,
                   MlaProblem &problem);

/// Writes `problem` to `directory` (created if missing) in the file form
/// loadProblem reads: kv.npy is [kv_rows, 1, 576] (uint16 bf16 bits or
/// uint8 fp8) or [kv_rows, 1, 288] (uint8 packed fp4), spare rows included,
/// kv_scale.npy holds the fp8 scale or the padded E8M0 tensor. Errors name
/// the file.
Status saveProblem(const MlaProblem &problem, const std::string &directory);

} // namespace mla::decode

#endif // MLA_DECODE_PROBLEM_H
