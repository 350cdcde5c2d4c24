//===- ProblemFuzzer.cpp - libFuzzer harness of mla-run --inputs ----------===//
//
// mla-run --inputs DIR reads five .npy files and checks them against each
// other (loadProblem). The harness keeps valid problems on disk, one per KV
// format with KV rows and one without, and replaces one file per input, so
// that every cross-file check is reachable with small inputs:
//
//   byte 0 % 40 = 5 * base + file   base: bf16, fp8, fp8_fnuz, mxfp4, then
//                                         the same with no KV rows
//                                   file: qo_indptr, kv_indptr, q, kv,
//                                         kv_scale
//   bytes 1..   the replacement file
//
// A problem that loads must be one the driver and the reference can use
// without further checks: its sizes are consistent and every KV row decodes.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "mla/Decode/Problem.h"
#include "mla/Runtime/Npy.h"

#include <array>
#include <cstdint>
#include <sys/stat.h>

using namespace mla::decode;
using namespace mla::runtime;

namespace {

/// One file of a base problem.
struct BaseFile {
  const char *name;
  NpyDType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

/// A valid problem of one KV format: batch 3 with q_len 1, 4, 0 (4 is the
/// most a sequence may have) and kv_len 3, 0, 1, or 0, 0, 0 when `empty`.
struct BaseProblem {
  KvDType kvDType;
  std::string directory;
  std::array<BaseFile, 5> files;
};

} // namespace

template <typename T>
static std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  const auto *begin = reinterpret_cast<const uint8_t *>(values.data());
  return std::vector<uint8_t>(begin, begin + values.size() * sizeof(T));
}

static void writeBase(const BaseProblem &problem, const BaseFile &file) {
  Status s = writeNpy(problem.directory + "/" + file.name, file.dtype,
                      file.shape, file.bytes.data());
  FUZZ_CHECK(s.ok(), "writing a base problem: " + s.message());
}

static BaseFile file(const char *name, NpyDType dtype,
                     std::vector<int64_t> shape, std::vector<uint8_t> bytes) {
  return BaseFile{name, dtype, std::move(shape), std::move(bytes)};
}

static BaseProblem makeBase(KvDType kvDType, bool empty) {
  BaseProblem problem;
  problem.kvDType = kvDType;
  problem.directory = mla::fuzz::scratchDirectory() + "/" +
                      kvDTypeName(kvDType) + (empty ? "-empty" : "");
  FUZZ_CHECK(mkdir(problem.directory.c_str(), 0700) == 0,
             "cannot create " + problem.directory);
  const int64_t totalQ = 5, totalKv = empty ? 0 : 4;
  std::vector<int32_t> kvIndptr = {0, 3, 3, 4};
  if (empty)
    kvIndptr = {0, 0, 0, 0};
  int64_t rowElements = kvDType == KvDType::MXFP4 ? kPackedFp4RowBytes : kQkDim;
  NpyDType kvType =
      kvDType == KvDType::BF16 ? NpyDType::UInt16 : NpyDType::UInt8;
  std::vector<uint8_t> kv(totalKv * rowElements * npyItemSize(kvType), 0x11);
  BaseFile scale = file("kv_scale.npy", NpyDType::Float32, {1},
                        bytesOf(std::vector<float>{0.5f}));
  if (kvDType == KvDType::MXFP4)
    scale = file("kv_scale.npy", NpyDType::UInt8, {totalKv, kMxScalesPerRow},
                 std::vector<uint8_t>(totalKv * kMxScalesPerRow, 127));
  problem.files = {
      file("qo_indptr.npy", NpyDType::Int32, {4},
           bytesOf(std::vector<int32_t>{0, 1, 5, 5})),
      file("kv_indptr.npy", NpyDType::Int32, {4}, bytesOf(kvIndptr)),
      file("q.npy", NpyDType::UInt16, {totalQ, 16, kQkDim},
           std::vector<uint8_t>(totalQ * 16 * kQkDim * 2, 0)),
      file("kv.npy", kvType, {totalKv, 1, rowElements}, std::move(kv)),
      std::move(scale)};
  for (const BaseFile &base : problem.files)
    writeBase(problem, base);
  return problem;
}

/// What a loaded problem guarantees to its users.
static void checkLoaded(const MlaProblem &problem) {
  FUZZ_CHECK(problem.qoIndptr.size() >= 2 &&
                 problem.qoIndptr.size() == problem.kvIndptr.size(),
             "indptr lengths");
  FUZZ_CHECK(problem.qoIndptr[0] == 0 && problem.kvIndptr[0] == 0,
             "indptrs start at 0");
  for (int64_t seq = 0; seq < problem.batch(); ++seq) {
    FUZZ_CHECK(problem.qLen(seq) >= 0 && problem.qLen(seq) <= kMaxQLen,
               "q_len outside 0..4");
    FUZZ_CHECK(problem.kvLen(seq) >= 0, "negative kv_len");
  }
  FUZZ_CHECK(checkHeadCount(problem.heads, "heads").ok(), "head count");
  FUZZ_CHECK(problem.q.size() == static_cast<uint64_t>(problem.totalQ() *
                                                       problem.heads * kQkDim),
             "q size");
  // The cache may have rows past the last sequence's (docs/ABI.md).
  FUZZ_CHECK(problem.kv.size() % problem.kvRowBytes() == 0 &&
                 problem.kvRows() >= problem.totalKv(),
             "kv size");
  if (problem.kvDType == KvDType::MXFP4) {
    FUZZ_CHECK(problem.scaleRows >= problem.totalKv() &&
                   problem.scaleStride >= kMxScalesPerRow,
               "mxfp4 scale shape");
    // The kernels take the stride as an i32 argument (docs/ABI.md).
    FUZZ_CHECK(problem.scaleStride <= INT32_MAX, "scale_stride beyond i32");
    FUZZ_CHECK(
        problem.mxScale.size() ==
            static_cast<uint64_t>(problem.scaleRows * problem.scaleStride),
        "mxfp4 scale size");
  }
  double values[kQkDim];
  for (int64_t row = 0; row < problem.totalKv(); ++row)
    problem.dequantizeKvRow(row, values);
  FUZZ_CHECK(problem.essentialBytes() > 0, "essential bytes");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static std::array<BaseProblem, 8> bases = {
      makeBase(KvDType::BF16, false),     makeBase(KvDType::FP8, false),
      makeBase(KvDType::FP8_FNUZ, false), makeBase(KvDType::MXFP4, false),
      makeBase(KvDType::BF16, true),      makeBase(KvDType::FP8, true),
      makeBase(KvDType::FP8_FNUZ, true),  makeBase(KvDType::MXFP4, true)};
  if (size == 0)
    return 0;
  BaseProblem &base = bases[data[0] % 40 / 5];
  const BaseFile &file = base.files[data[0] % 5];
  mla::fuzz::writeFile(base.directory + "/" + file.name, data + 1, size - 1);
  MlaProblem problem;
  if (loadProblem(base.directory, base.kvDType, 0.125f, problem).ok())
    checkLoaded(problem);
  writeBase(base, file);
  return 0;
}
