//===- Problem.cpp - The MLA decode problem data --------------------------===//

#include "mla/Decode/Problem.h"
#include "mla/Runtime/Formats.h"
#include "mla/Runtime/HostMemory.h"
#include "mla/Runtime/Npy.h"
#include "mla/Runtime/Parallel.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <sys/stat.h>

using namespace mla::runtime;

namespace mla::decode {

const char *kvDTypeName(KvDType dtype) {
  switch (dtype) {
  case KvDType::BF16:
    return "bf16";
  case KvDType::FP8:
    return "fp8";
  case KvDType::FP8_FNUZ:
    return "fp8_fnuz";
  case KvDType::MXFP4:
    return "mxfp4";
  }
  return "?";
}

int64_t MlaProblem::maxQueryRows() const {
  int64_t most = 0;
  for (int64_t seq = 0; seq < batch(); ++seq)
    most = std::max(most, qLen(seq) * heads);
  return most;
}

int64_t MlaProblem::kvRowBytes() const {
  switch (kvDType) {
  case KvDType::BF16:
    return 2 * kQkDim;
  case KvDType::FP8:
  case KvDType::FP8_FNUZ:
    return kQkDim;
  case KvDType::MXFP4:
    return kPackedFp4RowBytes;
  }
  return 0;
}

void MlaProblem::dequantizeKvRow(int64_t row, double *values) const {
  const uint8_t *bytes = kv.data() + row * kvRowBytes();
  switch (kvDType) {
  case KvDType::BF16:
    for (int64_t i = 0; i < kQkDim; ++i)
      values[i] = bf16ToFloat(static_cast<uint16_t>(
          bytes[2 * i] | (static_cast<uint16_t>(bytes[2 * i + 1]) << 8)));
    return;
  case KvDType::FP8:
    for (int64_t i = 0; i < kQkDim; ++i)
      values[i] = static_cast<double>(fp8E4M3FNToFloat(bytes[i])) *
                  static_cast<double>(fp8Scale);
    return;
  case KvDType::FP8_FNUZ:
    for (int64_t i = 0; i < kQkDim; ++i)
      values[i] = static_cast<double>(fp8E4M3FNUZToFloat(bytes[i])) *
                  static_cast<double>(fp8Scale);
    return;
  case KvDType::MXFP4: {
    const uint8_t *scales = mxScale.data() + row * scaleStride;
    for (int64_t i = 0; i < kQkDim; ++i) {
      uint8_t byte = bytes[i / 2];
      uint8_t nibble = (i % 2 == 0) ? (byte & 0xF) : (byte >> 4);
      values[i] = static_cast<double>(fp4E2M1ToFloat(nibble)) *
                  static_cast<double>(e8m0ToFloat(scales[i / kMxBlockSize]));
    }
    return;
  }
  }
}

int64_t MlaProblem::essentialBytes() const {
  int64_t bytes = static_cast<int64_t>(q.size()) * 2 +
                  totalKv() * kvRowBytes() +
                  static_cast<int64_t>(qoIndptr.size() + kvIndptr.size()) * 4 +
                  totalQ() * heads * kVDim * 2;
  if (isFp8(kvDType))
    bytes += 4;
  if (kvDType == KvDType::MXFP4)
    bytes += totalKv() * kMxScalesPerRow;
  return bytes;
}

Status checkHeadCount(int64_t heads, const std::string &subject) {
  if (heads <= 0 || heads % kHeadGranule != 0 || heads > kMaxHeads)
    return Status::failure(
        subject, llvm::formatv("{0} heads: the head count must be a multiple "
                               "of 16 from 16 to 128",
                               heads)
                     .str());
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Generator
//===----------------------------------------------------------------------===//

/// splitmix64's output function: a bijective 64-bit mix.
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// log(x) for x > 0 with IEEE add, multiply and divide only, so that it
/// rounds the same everywhere (libm's log may differ in the last bit).
static double portableLog(double x) {
  int exponent;
  double mantissa = std::frexp(x, &exponent);
  if (mantissa < 0.70710678118654752) {
    mantissa *= 2;
    --exponent;
  }
  // log(m) = 2 atanh(f), f = (m - 1) / (m + 1), |f| <= 0.172: the odd series
  // to f^25 is below double rounding.
  double f = (mantissa - 1) / (mantissa + 1);
  double f2 = f * f;
  double series = 0;
  for (int k = 25; k >= 1; k -= 2)
    series = series * f2 + 1.0 / k;
  return 2 * f * series + exponent * 0.69314718055994530942;
}

namespace {

/// Standard normal values from one xoshiro256** stream.
class NormalStream {
public:
  /// Stream `index` of tensor `tensor` for `seed`.
  NormalStream(uint64_t seed, uint64_t tensor, uint64_t index) {
    uint64_t state = seed ^ mix64((tensor << 56) ^ index);
    for (uint64_t &word : words) {
      state += 0x9E3779B97F4A7C15ull;
      word = mix64(state);
    }
  }

  double next() {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    // Marsaglia's polar method: no trigonometry, one log per pair.
    double u, v, s;
    do {
      u = 2 * uniform() - 1;
      v = 2 * uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double factor = std::sqrt(-2 * portableLog(s) / s);
    spare = v * factor;
    hasSpare = true;
    return u * factor;
  }

private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t nextBits() {
    uint64_t result = rotl(words[1] * 5, 7) * 9;
    uint64_t t = words[1] << 17;
    words[2] ^= words[0];
    words[3] ^= words[1];
    words[1] ^= words[2];
    words[0] ^= words[3];
    words[2] ^= t;
    words[3] = rotl(words[3], 45);
    return result;
  }

  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(nextBits() >> 11) * 0x1p-53; }

  uint64_t words[4];
  double spare = 0;
  bool hasSpare = false;
};

enum : uint64_t { kQueryStream = 1, kKvStream = 2 };

/// Rows per parallel task: large enough to amortize dispatch.
constexpr int64_t kRowsPerTask = 64;

} // namespace

/// Runs body(begin, end) over [0, rows) in chunks on the pool.
static void forRowChunks(llvm::ThreadPoolInterface &pool, int64_t rows,
                         const std::function<void(int64_t, int64_t)> &body) {
  int64_t tasks = (rows + kRowsPerTask - 1) / kRowsPerTask;
  parallelFor(pool, tasks, [&](int64_t task) {
    int64_t begin = task * kRowsPerTask;
    body(begin, std::min(rows, begin + kRowsPerTask));
  });
}

static Status checkGeneratorOptions(const GeneratorOptions &options) {
  if (Status s = checkHeadCount(options.heads, "--heads"))
    return s;
  if (options.qLen < 1 || options.qLen > kMaxQLen)
    return Status::failure(
        "--q-len", llvm::formatv("{0}: must be 1..4", options.qLen).str());
  if (options.kvLens.empty())
    return Status::failure(options.kvLensFlag, "the batch is empty");
  int64_t totalKv = 0;
  for (int64_t length : options.kvLens) {
    if (length < 0)
      return Status::failure(options.kvLensFlag,
                             "KV lengths must be non-negative");
    if (length > INT32_MAX - totalKv)
      return Status::failure(options.kvLensFlag,
                             "more than 2^31 - 1 KV rows in all");
    totalKv += length;
  }
  if (options.spareKvRows < 0 || options.spareKvRows > INT32_MAX - totalKv)
    return Status::failure("--kv-spare-rows",
                           "more than 2^31 - 1 KV rows in all");
  int64_t kvRows = totalKv + options.spareKvRows;
  int64_t totalQ = options.qLen * static_cast<int64_t>(options.kvLens.size());
  if (totalQ > INT32_MAX)
    return Status::failure("--batch", "more than 2^31 - 1 queries in all");
  // The generator holds q, the bf16 cache and its quantized copy.
  uint64_t needed = static_cast<uint64_t>(totalQ) * options.heads * kQkDim * 2 +
                    static_cast<uint64_t>(kvRows) * kQkDim * 2 * 2;
  uint64_t available = physicalMemoryBytes();
  if (needed > available)
    return Status::failure(
        options.kvLensFlag,
        llvm::formatv("the problem needs {0:f1} GiB, more than the {1:f1} "
                      "GiB of memory of this machine",
                      needed / 1073741824.0, available / 1073741824.0)
            .str());
  return Status::success();
}

Status generateProblem(const GeneratorOptions &options,
                       llvm::ThreadPoolInterface &pool, MlaProblem &problem) {
  if (Status s = checkGeneratorOptions(options))
    return s;
  MlaProblem result;
  result.kvDType = options.kvDType;
  result.heads = options.heads;
  result.smScale = options.smScale;
  int64_t batch = static_cast<int64_t>(options.kvLens.size());
  result.qoIndptr.resize(batch + 1);
  result.kvIndptr.resize(batch + 1);
  for (int64_t seq = 0; seq < batch; ++seq) {
    result.qoIndptr[seq + 1] =
        result.qoIndptr[seq] + static_cast<int32_t>(options.qLen);
    result.kvIndptr[seq + 1] =
        result.kvIndptr[seq] + static_cast<int32_t>(options.kvLens[seq]);
  }
  int64_t totalQ = result.totalQ(), totalKv = result.totalKv();

  int64_t qRowElements = options.heads * kQkDim;
  result.q.resize(totalQ * qRowElements);
  forRowChunks(pool, totalQ, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      NormalStream stream(options.seed, kQueryStream, row);
      uint16_t *out = result.q.data() + row * qRowElements;
      for (int64_t i = 0; i < qRowElements; ++i)
        out[i] = floatToBf16(static_cast<float>(stream.next()));
    }
  });

  // The cache is drawn in bf16 first and quantized from there, as the
  // problem quantizes its bf16 cache.
  std::vector<uint16_t> cache(totalKv * kQkDim);
  forRowChunks(pool, totalKv, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      NormalStream stream(options.seed, kKvStream, row);
      for (int64_t i = 0; i < kQkDim; ++i)
        cache[row * kQkDim + i] =
            floatToBf16(static_cast<float>(stream.next()));
    }
  });

  int64_t kvRows = totalKv + options.spareKvRows;
  switch (options.kvDType) {
  case KvDType::BF16:
    result.kv.resize(cache.size() * 2);
    for (size_t i = 0; i < cache.size(); ++i) {
      result.kv[2 * i] = static_cast<uint8_t>(cache[i] & 0xFF);
      result.kv[2 * i + 1] = static_cast<uint8_t>(cache[i] >> 8);
    }
    break;
  case KvDType::FP8:
  case KvDType::FP8_FNUZ: {
    // Per-tensor quantization to the format's largest magnitude.
    bool fnuz = options.kvDType == KvDType::FP8_FNUZ;
    float amax = 0;
    for (uint16_t bits : cache)
      amax = std::max(amax, std::fabs(bf16ToFloat(bits)));
    float formatMax = fnuz ? kFp8E4M3FnuzMax : kFp8E4M3Max;
    result.fp8Scale = amax > 0 ? amax / formatMax : 1.0f;
    result.kv.resize(cache.size());
    forRowChunks(pool, totalKv, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin * kQkDim; i < end * kQkDim; ++i) {
        float value = bf16ToFloat(cache[i]) / result.fp8Scale;
        result.kv[i] =
            fnuz ? floatToFp8E4M3FNUZ(value) : floatToFp8E4M3FN(value);
      }
    });
    break;
  }
  case KvDType::MXFP4: {
    constexpr int64_t kScaleRowGranule = 256, kPaddedStride = 24;
    result.scaleStride = kPaddedStride;
    result.scaleRows =
        (kvRows + kScaleRowGranule - 1) / kScaleRowGranule * kScaleRowGranule;
    result.mxScale.assign(result.scaleRows * result.scaleStride, kE8M0NaN);
    result.kv.resize(totalKv * kPackedFp4RowBytes);
    forRowChunks(pool, totalKv, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        for (int64_t block = 0; block < kMxScalesPerRow; ++block) {
          const uint16_t *values = &cache[row * kQkDim + block * kMxBlockSize];
          float amax = 0;
          for (int64_t i = 0; i < kMxBlockSize; ++i)
            amax = std::max(amax, std::fabs(bf16ToFloat(values[i])));
          uint8_t scale = mxfp4BlockScale(amax);
          result.mxScale[row * result.scaleStride + block] = scale;
          uint8_t *packed =
              &result.kv[row * kPackedFp4RowBytes + block * kMxBlockSize / 2];
          for (int64_t i = 0; i < kMxBlockSize; i += 2) {
            // Dividing by a power of two is exact.
            uint8_t even =
                floatToFp4E2M1(std::ldexp(bf16ToFloat(values[i]), 127 - scale));
            uint8_t odd = floatToFp4E2M1(
                std::ldexp(bf16ToFloat(values[i + 1]), 127 - scale));
            packed[i / 2] = static_cast<uint8_t>(even | (odd << 4));
          }
        }
      }
    });
    break;
  }
  }
  // The pool's spare rows decode to NaN (mxfp4: through their NaN scales).
  const uint8_t spareByte = options.kvDType == KvDType::FP8        ? 0x7F
                            : options.kvDType == KvDType::FP8_FNUZ ? 0x80
                                                                   : 0xFF;
  result.kv.resize(kvRows * result.kvRowBytes(), spareByte);
  problem = std::move(result);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/// `directory`/`name`, without a doubled slash.
static std::string joinPath(const std::string &directory,
                            const std::string &name) {
  if (directory.empty() || directory.back() == '/')
    return directory + name;
  return directory + "/" + name;
}

/// Fails unless `array` (read from `path`) has one of `allowed` dtypes.
static Status expectDType(const NpyArray &array, const std::string &path,
                          std::initializer_list<NpyDType> allowed,
                          const char *role) {
  for (NpyDType dtype : allowed)
    if (array.dtype == dtype)
      return Status::success();
  std::string expected;
  for (NpyDType dtype : allowed)
    expected +=
        std::string(expected.empty() ? "" : " or ") + npyDTypeName(dtype);
  return Status::failure(path, llvm::formatv("dtype {0}, expected {1} ({2})",
                                             npyDTypeName(array.dtype),
                                             expected, role)
                                   .str());
}

/// Validates an indptr read from `path`: starts at 0, never decreases and
/// ends at `rows`, the row count of `rowsFile`, or before it when
/// `spareRows` (a cache pool's rows past the batch).
static Status checkIndptr(const std::vector<int32_t> &indptr,
                          const std::string &path, int64_t rows,
                          const std::string &rowsFile, bool spareRows) {
  if (indptr[0] != 0)
    return Status::failure(
        path, llvm::formatv("first entry is {0}, expected 0", indptr[0]).str());
  for (size_t i = 1; i < indptr.size(); ++i)
    if (indptr[i] < indptr[i - 1])
      return Status::failure(
          path, llvm::formatv("not monotonic: entry {0} ({1}) is less than "
                              "entry {2} ({3})",
                              i, indptr[i], i - 1, indptr[i - 1])
                    .str());
  int64_t last = indptr.back();
  if (last > rows)
    return Status::failure(
        path, llvm::formatv("last entry {0} is past the end of {1} ({2} "
                            "rows)",
                            last, rowsFile, rows)
                  .str());
  if (last < rows && !spareRows)
    return Status::failure(
        path, llvm::formatv("last entry {0} does not cover the {1} rows of "
                            "{2}",
                            last, rows, rowsFile)
                  .str());
  return Status::success();
}

Status loadProblem(const std::string &directory, KvDType kvDType, float smScale,
                   MlaProblem &problem) {
  std::string qPath = joinPath(directory, "q.npy");
  std::string kvPath = joinPath(directory, "kv.npy");
  std::string scalePath = joinPath(directory, "kv_scale.npy");
  std::string qoPath = joinPath(directory, "qo_indptr.npy");
  std::string kvIndptrPath = joinPath(directory, "kv_indptr.npy");

  NpyArray q, kv, scale, qoIndptr, kvIndptr;
  if (Status s = readNpy(qoPath, qoIndptr))
    return s;
  if (Status s = readNpy(kvIndptrPath, kvIndptr))
    return s;
  if (Status s = readNpy(qPath, q))
    return s;
  if (Status s = readNpy(kvPath, kv))
    return s;
  if (kvDType != KvDType::BF16) {
    if (Status s = readNpy(scalePath, scale))
      return s;
  }

  // Indptrs: int32 vectors of the same length, at least two entries.
  for (auto [array, path] :
       {std::pair{&qoIndptr, &qoPath}, std::pair{&kvIndptr, &kvIndptrPath}}) {
    if (Status s = expectDType(*array, *path, {NpyDType::Int32}, "row offsets"))
      return s;
    if (array->shape.size() != 1 || array->shape[0] < 2)
      return Status::failure(*path,
                             "shape " + array->shapeString() +
                                 ", expected (batch + 1,) with batch >= 1");
  }
  if (kvIndptr.shape[0] != qoIndptr.shape[0])
    return Status::failure(
        kvIndptrPath,
        llvm::formatv("{0} entries, but qo_indptr.npy has {1} (both are "
                      "batch + 1)",
                      kvIndptr.shape[0], qoIndptr.shape[0])
            .str());

  // q: [totalQ, H, 576] bf16 bits.
  if (Status s = expectDType(q, qPath, {NpyDType::UInt16}, "bf16 bits"))
    return s;
  if (q.shape.size() != 3 || q.shape[2] != kQkDim)
    return Status::failure(qPath, "shape " + q.shapeString() +
                                      ", expected (total_q, heads, 576)");
  if (Status s = checkHeadCount(q.shape[1], qPath))
    return s;

  // kv: [rows, 1, D] or [rows, D], rows >= total_kv.
  int64_t rowElements = kvDType == KvDType::MXFP4 ? kPackedFp4RowBytes : kQkDim;
  if (kvDType == KvDType::BF16) {
    if (Status s = expectDType(kv, kvPath, {NpyDType::UInt16},
                               "bf16 bits for --kv-dtype bf16"))
      return s;
  } else {
    std::string role =
        kvDType == KvDType::MXFP4
            ? std::string("packed fp4 for --kv-dtype mxfp4")
            : std::string("fp8 bytes for --kv-dtype ") + kvDTypeName(kvDType);
    if (Status s = expectDType(kv, kvPath, {NpyDType::UInt8, NpyDType::Int8},
                               role.c_str()))
      return s;
  }
  bool kvShapeOk =
      (kv.shape.size() == 2 && kv.shape[1] == rowElements) ||
      (kv.shape.size() == 3 && kv.shape[1] == 1 && kv.shape[2] == rowElements);
  if (!kvShapeOk)
    return Status::failure(
        kvPath,
        llvm::formatv("shape {0}, expected (total_kv, 1, {1}) or "
                      "(total_kv, {1}) for --kv-dtype {2}",
                      kv.shapeString(), rowElements, kvDTypeName(kvDType))
            .str());
  if (kv.shape[0] > INT32_MAX || q.shape[0] > INT32_MAX)
    return Status::failure(kv.shape[0] > INT32_MAX ? kvPath : qPath,
                           "more than 2^31 - 1 rows");

  std::vector<int32_t> qo = qoIndptr.elementsAs<int32_t>();
  std::vector<int32_t> kvOffsets = kvIndptr.elementsAs<int32_t>();
  if (Status s = checkIndptr(qo, qoPath, q.shape[0], "q.npy",
                             /*spareRows=*/false))
    return s;
  if (Status s = checkIndptr(kvOffsets, kvIndptrPath, kv.shape[0], "kv.npy",
                             /*spareRows=*/true))
    return s;
  for (size_t seq = 0; seq + 1 < qo.size(); ++seq)
    if (qo[seq + 1] - qo[seq] > kMaxQLen)
      return Status::failure(
          qoPath, llvm::formatv("sequence {0} has {1} queries, at most 4 are "
                                "supported",
                                seq, qo[seq + 1] - qo[seq])
                      .str());

  MlaProblem result;
  result.kvDType = kvDType;
  result.heads = q.shape[1];
  result.smScale = smScale;
  result.qoIndptr = std::move(qo);
  result.kvIndptr = std::move(kvOffsets);
  result.q = q.elementsAs<uint16_t>();
  result.kv = std::move(kv.bytes);

  if (isFp8(kvDType)) {
    if (Status s = expectDType(scale, scalePath, {NpyDType::Float32},
                               "the per-tensor fp8 scale"))
      return s;
    if (scale.numElements() != 1)
      return Status::failure(scalePath, "shape " + scale.shapeString() +
                                            ", expected (1,)");
    std::memcpy(&result.fp8Scale, scale.bytes.data(), sizeof(float));
  } else if (kvDType == KvDType::MXFP4) {
    if (Status s =
            expectDType(scale, scalePath, {NpyDType::UInt8, NpyDType::Int8},
                        "E8M0 block scales"))
      return s;
    if (scale.shape.size() != 2)
      return Status::failure(scalePath, "shape " + scale.shapeString() +
                                            ", expected (rows, cols)");
    if (scale.shape[0] < result.totalKv() || scale.shape[1] < kMxScalesPerRow)
      return Status::failure(
          scalePath,
          llvm::formatv("shape {0} is too small: needs rows >= {1} (the KV "
                        "rows) and cols >= 18",
                        scale.shapeString(), result.totalKv())
              .str());
    // Kernels take the row stride as an i32 (docs/ABI.md); only a tensor
    // with no rows can be that wide.
    if (scale.shape[1] > INT32_MAX)
      return Status::failure(
          scalePath, "shape " + scale.shapeString() +
                         ": more than 2^31 - 1 columns (scale_stride is i32)");
    result.scaleRows = scale.shape[0];
    result.scaleStride = scale.shape[1];
    result.mxScale = std::move(scale.bytes);
  }
  problem = std::move(result);
  return Status::success();
}

Status saveProblem(const MlaProblem &problem, const std::string &directory) {
  if (::mkdir(directory.c_str(), 0777) != 0 && errno != EEXIST)
    return Status::failure(directory, std::strerror(errno));
  int64_t totalQ = problem.totalQ(), kvRows = problem.kvRows();
  int64_t batchPlusOne = static_cast<int64_t>(problem.qoIndptr.size());
  if (Status s = writeNpy(joinPath(directory, "qo_indptr.npy"), NpyDType::Int32,
                          {batchPlusOne}, problem.qoIndptr.data()))
    return s;
  if (Status s = writeNpy(joinPath(directory, "kv_indptr.npy"), NpyDType::Int32,
                          {batchPlusOne}, problem.kvIndptr.data()))
    return s;
  if (Status s = writeNpy(joinPath(directory, "q.npy"), NpyDType::UInt16,
                          {totalQ, problem.heads, kQkDim}, problem.q.data()))
    return s;
  // The KV cache, spare rows included, in the problem's [rows, 1, dim]
  // layout.
  bool bf16 = problem.kvDType == KvDType::BF16;
  int64_t rowElements = bf16 ? kQkDim : problem.kvRowBytes();
  if (Status s = writeNpy(joinPath(directory, "kv.npy"),
                          bf16 ? NpyDType::UInt16 : NpyDType::UInt8,
                          {kvRows, 1, rowElements}, problem.kv.data()))
    return s;
  std::string scalePath = joinPath(directory, "kv_scale.npy");
  switch (problem.kvDType) {
  case KvDType::BF16:
    return Status::success();
  case KvDType::FP8:
  case KvDType::FP8_FNUZ:
    return writeNpy(scalePath, NpyDType::Float32, {1}, &problem.fp8Scale);
  case KvDType::MXFP4:
    return writeNpy(scalePath, NpyDType::UInt8,
                    {problem.scaleRows, problem.scaleStride},
                    problem.mxScale.data());
  }
  return Status::success();
}

} // namespace mla::decode
