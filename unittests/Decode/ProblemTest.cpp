//===- ProblemTest.cpp - The MLA problem generator and its files ----------===//

#include "TestSupport.h"

#include "mla/Decode/Problem.h"
#include "mla/Runtime/Formats.h"

#include "llvm/Support/ThreadPool.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace mla::decode;
using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

/// FNV-1a of a byte range.
uint64_t fnv1a(const void *data, size_t size) {
  const unsigned char *bytes = static_cast<const unsigned char *>(data);
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  return hash;
}

TEST(Problem, Generator) {
  llvm::StdThreadPool one(llvm::hardware_concurrency(1)),
      four(llvm::hardware_concurrency(4));
  GeneratorOptions options;
  options.kvDType = KvDType::MXFP4;
  options.heads = 16;
  options.qLen = 2;
  options.kvLens = {100, 0, 300};
  options.seed = 7;
  options.smScale = 0.125f;
  MlaProblem a, b;
  EXPECT_TRUE(succeeded(generateProblem(options, one, a)));
  EXPECT_TRUE(succeeded(generateProblem(options, four, b)));
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.kv, b.kv);
  EXPECT_EQ(a.mxScale, b.mxScale);
  EXPECT_EQ(a.qoIndptr, (std::vector<int32_t>{0, 2, 4, 6}));
  EXPECT_EQ(a.kvIndptr, (std::vector<int32_t>{0, 100, 100, 400}));
  EXPECT_EQ(a.kv.size(), static_cast<size_t>(400 * kPackedFp4RowBytes));
  // Padded scale tensor: 512 x 24, padding NaN, real scales finite.
  EXPECT_EQ(a.scaleRows, 512);
  EXPECT_EQ(a.scaleStride, 24);
  bool paddingIsNaN = true, scalesFinite = true;
  for (int64_t row = 0; row < a.scaleRows; ++row)
    for (int64_t col = 0; col < a.scaleStride; ++col) {
      bool real = row < 400 && col < kMxScalesPerRow;
      uint8_t scale = a.mxScale[row * a.scaleStride + col];
      if (real && scale == kE8M0NaN)
        scalesFinite = false;
      if (!real && scale != kE8M0NaN)
        paddingIsNaN = false;
    }
  EXPECT_TRUE(paddingIsNaN);
  EXPECT_TRUE(scalesFinite);

  // Pinned hashes: a seed must give the same inputs on every machine,
  // compiler and release.
  EXPECT_EQ(fnv1a(a.q.data(), a.q.size() * 2), 0xf0d631777c6a2883ull);
  EXPECT_EQ(fnv1a(a.kv.data(), a.kv.size()), 0x4c237df245caa428ull);
  EXPECT_EQ(fnv1a(a.mxScale.data(), a.mxScale.size()), 0xf231ba79c0e67f20ull);
  options.seed = 8;
  MlaProblem c;
  EXPECT_TRUE(succeeded(generateProblem(options, four, c)));
  EXPECT_NE(c.q, a.q);
  options.seed = 7;

  // Normal statistics of q.
  double sum = 0, squares = 0;
  for (uint16_t bits : a.q) {
    double value = bf16ToFloat(bits);
    sum += value;
    squares += value * value;
  }
  double mean = sum / a.q.size(), variance = squares / a.q.size() - mean * mean;
  EXPECT_LT(std::fabs(mean), 0.02);
  EXPECT_LT(std::fabs(variance - 1), 0.05);

  // fp8: the scale maps the largest magnitude onto 448.
  options.kvDType = KvDType::FP8;
  MlaProblem fp8;
  EXPECT_TRUE(succeeded(generateProblem(options, four, fp8)));
  bool hitsMax = false;
  for (uint8_t code : fp8.kv)
    hitsMax |= (code & 0x7F) == 0x7E;
  EXPECT_TRUE(hitsMax);
  EXPECT_EQ(fp8.fp8Scale, 0x1.592492p-7f);
  EXPECT_EQ(fnv1a(fp8.kv.data(), fp8.kv.size()), 0x5afc54fea37f32f0ull);
  // fp8_fnuz: the same cache onto 240 (0x7F), no negative zero (0x80 is
  // NaN), and each value the cache's within the format's rounding.
  options.kvDType = KvDType::FP8_FNUZ;
  MlaProblem fnuz;
  EXPECT_TRUE(succeeded(generateProblem(options, four, fnuz)));
  bool fnuzHitsMax = false, fnuzHasNaN = false;
  for (uint8_t code : fnuz.kv) {
    fnuzHitsMax |= (code & 0x7F) == 0x7F;
    fnuzHasNaN |= code == 0x80;
  }
  EXPECT_TRUE(fnuzHitsMax);
  EXPECT_FALSE(fnuzHasNaN);
  EXPECT_EQ(fnuz.fp8Scale, fp8.fp8Scale * (448.0f / 240.0f));
  double fnuzRow[kQkDim], fp8Row[kQkDim];
  fnuz.dequantizeKvRow(0, fnuzRow);
  fp8.dequantizeKvRow(0, fp8Row);
  for (int64_t i = 0; i < kQkDim; ++i)
    EXPECT_NEAR(fnuzRow[i], fp8Row[i], std::fabs(fp8Row[i]) / 8 + 1e-3) << i;
  options.kvDType = KvDType::BF16;
  MlaProblem bf16;
  EXPECT_TRUE(succeeded(generateProblem(options, four, bf16)));
  EXPECT_EQ(fnv1a(bf16.kv.data(), bf16.kv.size()), 0xd16a763bf8197ce8ull);
  EXPECT_EQ(bf16.q, fp8.q);
  EXPECT_TRUE(bf16.mxScale.empty());

  // Errors name the flags.
  options.heads = 24;
  EXPECT_TRUE(
      failsWith(generateProblem(options, four, c), "--heads: 24 heads"));
  options.heads = 16;
  options.qLen = 5;
  EXPECT_TRUE(
      failsWith(generateProblem(options, four, c), "--q-len: 5: must be 1..4"));
  options.qLen = 1;
  options.kvLens = {INT32_MAX, 1};
  options.kvLensFlag = "--kv-lens";
  EXPECT_TRUE(
      failsWith(generateProblem(options, four, c), "--kv-lens: more than"));
  options.kvLens = {INT32_MAX - 5};
  options.spareKvRows = 6;
  EXPECT_TRUE(failsWith(generateProblem(options, four, c),
                        "--kv-spare-rows: more than 2^31 - 1 KV rows in all"));
}

/// Spare KV rows past the last sequence, as a cache pool has: NaN in every
/// format, the covered rows and the fp8 scale unchanged, and kept by
/// saveProblem and accepted by loadProblem.
TEST(Problem, SpareKvRows) {
  const std::string &scratch = scratchDirectory();
  llvm::StdThreadPool pool(llvm::hardware_concurrency(2));
  GeneratorOptions options;
  options.heads = 16;
  options.qLen = 1;
  options.kvLens = {100, 0, 300};
  options.seed = 7;
  for (KvDType dtype :
       {KvDType::BF16, KvDType::FP8, KvDType::FP8_FNUZ, KvDType::MXFP4}) {
    options.kvDType = dtype;
    options.spareKvRows = 0;
    MlaProblem exact, pooled;
    EXPECT_TRUE(succeeded(generateProblem(options, pool, exact)));
    options.spareKvRows = 212;
    EXPECT_TRUE(succeeded(generateProblem(options, pool, pooled)));
    EXPECT_EQ(pooled.totalKv(), 400);
    EXPECT_EQ(pooled.kvRows(), 612);
    EXPECT_TRUE(
        std::equal(exact.kv.begin(), exact.kv.end(), pooled.kv.begin()));
    EXPECT_EQ(pooled.fp8Scale, exact.fp8Scale);
    EXPECT_EQ(pooled.essentialBytes(), exact.essentialBytes());
    double row[kQkDim];
    bool spareIsNaN = true;
    for (int64_t r = 400; r < 612; ++r) {
      pooled.dequantizeKvRow(r, row);
      for (double value : row)
        spareIsNaN &= std::isnan(value);
    }
    EXPECT_TRUE(spareIsNaN);
    if (dtype == KvDType::MXFP4) {
      EXPECT_EQ(pooled.scaleRows, 768);
      EXPECT_TRUE(std::equal(exact.mxScale.begin(),
                             exact.mxScale.begin() + 400 * exact.scaleStride,
                             pooled.mxScale.begin()));
    }

    std::string directory = scratch + "/pool_" + kvDTypeName(dtype);
    EXPECT_TRUE(succeeded(saveProblem(pooled, directory)));
    MlaProblem loaded;
    EXPECT_TRUE(succeeded(loadProblem(directory, dtype, 0.125f, loaded)));
    EXPECT_EQ(loaded.kvRows(), 612);
    EXPECT_EQ(loaded.totalKv(), 400);
    EXPECT_EQ(loaded.kv, pooled.kv);
    EXPECT_EQ(loaded.mxScale, pooled.mxScale);
  }
}

} // namespace
