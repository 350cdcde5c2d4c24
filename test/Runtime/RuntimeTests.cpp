//===- RuntimeTests.cpp - Unit tests of the MLA runtime library -----------===//
//
// usage: mla-runtime-tests [GTEST_FLAGS] SCRATCH_DIR
// GoogleTest tests; files they write go to SCRATCH_DIR.
//
//===----------------------------------------------------------------------===//

#include "mla/Runtime/AbiRecord.h"
#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Check.h"
#include "mla/Runtime/Formats.h"
#include "mla/Runtime/Json.h"
#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/LaunchPlan.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/MlaDriver.h"
#include "mla/Runtime/Npy.h"
#include "mla/Runtime/Parallel.h"
#include "mla/Runtime/Problem.h"
#include "mla/Runtime/Reference.h"

#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace mla::runtime;

/// The directory of the command line, for files the tests write.
static std::string scratchDirectory;

/// The pool of the tests that run on host threads.
static llvm::ThreadPoolInterface &testPool() {
  static llvm::StdThreadPool pool(llvm::hardware_concurrency(3));
  return pool;
}

/// Success of `status`, or its message.
static testing::AssertionResult succeeded(const Status &status) {
  if (status.ok())
    return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << "unexpected error: " << status.message();
}

/// Failure of `status` with a message containing `text`.
static testing::AssertionResult failsWith(const Status &status,
                                          const std::string &text) {
  if (status.ok())
    return testing::AssertionFailure()
           << "expected an error containing '" << text << "', got success";
  if (status.message().find(text) == std::string::npos)
    return testing::AssertionFailure()
           << "expected an error containing '" << text << "', got '"
           << status.message() << "'";
  return testing::AssertionSuccess();
}

static bool near(double a, double b, double tolerance = 1e-12) {
  return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}

//===----------------------------------------------------------------------===//
// Formats
//===----------------------------------------------------------------------===//

TEST(Formats, Bf16) {
  EXPECT_TRUE(floatToBf16(1.0f) == 0x3F80);
  EXPECT_TRUE(floatToBf16(-2.0f) == 0xC000);
  // Halfway cases round to the even neighbour.
  EXPECT_TRUE(floatToBf16(1.0f + std::ldexp(1.0f, -8)) == 0x3F80);
  EXPECT_TRUE(floatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3F82);
  EXPECT_TRUE(floatToBf16(1.0f + std::ldexp(1.0f, -8) +
                          std::ldexp(1.0f, -12)) == 0x3F81);
  EXPECT_TRUE(floatToBf16(INFINITY) == 0x7F80);
  EXPECT_TRUE(floatToBf16(3.4e38f) == 0x7F80);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
  bool roundTrips = true;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = bf16ToFloat(static_cast<uint16_t>(bits));
    if (!std::isnan(value) && floatToBf16(value) != bits)
      roundTrips = false;
  }
  EXPECT_TRUE(roundTrips);
}

TEST(Formats, Fp8E4M3FN) {
  EXPECT_TRUE(fp8E4M3FNToFloat(0x38) == 1.0f);
  EXPECT_TRUE(fp8E4M3FNToFloat(0x7E) == 448.0f);
  EXPECT_TRUE(fp8E4M3FNToFloat(0xFE) == -448.0f);
  EXPECT_TRUE(fp8E4M3FNToFloat(0x01) == std::ldexp(1.0f, -9));
  EXPECT_TRUE(fp8E4M3FNToFloat(0x08) == std::ldexp(1.0f, -6));
  EXPECT_TRUE(std::isnan(fp8E4M3FNToFloat(0x7F)));
  EXPECT_TRUE(std::isnan(fp8E4M3FNToFloat(0xFF)));
  // 0x78..0x7E are finite: e4m3fn has no infinities.
  EXPECT_TRUE(fp8E4M3FNToFloat(0x78) == 256.0f);
  bool roundTrips = true;
  for (uint32_t bits = 0; bits < 256; ++bits) {
    float value = fp8E4M3FNToFloat(static_cast<uint8_t>(bits));
    if (!std::isnan(value) && floatToFp8E4M3FN(value) != bits)
      roundTrips = false;
  }
  EXPECT_TRUE(roundTrips);
  // Saturation.
  EXPECT_TRUE(floatToFp8E4M3FN(449.0f) == 0x7E);
  EXPECT_TRUE(floatToFp8E4M3FN(1e6f) == 0x7E);
  EXPECT_TRUE(floatToFp8E4M3FN(-INFINITY) == 0xFE);
  EXPECT_TRUE(std::isnan(fp8E4M3FNToFloat(floatToFp8E4M3FN(NAN))));
  // Round to nearest even, normal and subnormal.
  EXPECT_TRUE(floatToFp8E4M3FN(1.0625f) == 0x38);
  EXPECT_TRUE(floatToFp8E4M3FN(1.1875f) == 0x3A);
  EXPECT_TRUE(floatToFp8E4M3FN(1.07f) == 0x39);
  EXPECT_TRUE(floatToFp8E4M3FN(std::ldexp(1.0f, -10)) == 0x00);
  EXPECT_TRUE(floatToFp8E4M3FN(3 * std::ldexp(1.0f, -10)) == 0x02);
  EXPECT_TRUE(floatToFp8E4M3FN(-0.0f) == 0x80);
  // Rounding up out of the subnormals and into the top binade.
  EXPECT_TRUE(floatToFp8E4M3FN(15 * std::ldexp(1.0f, -10)) == 0x08);
  EXPECT_TRUE(floatToFp8E4M3FN(440.0f) == 0x7E);
}

TEST(Formats, Fp4AndE8M0) {
  const float values[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (uint8_t code = 0; code < 16; ++code) {
    float expected = (code & 8) ? -values[code & 7] : values[code & 7];
    EXPECT_TRUE(fp4E2M1ToFloat(code) == expected);
    EXPECT_TRUE(floatToFp4E2M1(fp4E2M1ToFloat(code)) == code);
  }
  EXPECT_TRUE(fp4E2M1ToFloat(0x10 | 0x3) == 1.5f);
  // Ties to even codes.
  EXPECT_TRUE(floatToFp4E2M1(0.25f) == 0);
  EXPECT_TRUE(floatToFp4E2M1(0.75f) == 2);
  EXPECT_TRUE(floatToFp4E2M1(1.25f) == 2);
  EXPECT_TRUE(floatToFp4E2M1(1.75f) == 4);
  EXPECT_TRUE(floatToFp4E2M1(2.5f) == 4);
  EXPECT_TRUE(floatToFp4E2M1(3.5f) == 6);
  EXPECT_TRUE(floatToFp4E2M1(5.0f) == 6);
  EXPECT_TRUE(floatToFp4E2M1(5.1f) == 7);
  EXPECT_TRUE(floatToFp4E2M1(0.3f) == 1);
  // Saturation.
  EXPECT_TRUE(floatToFp4E2M1(7.0f) == 7);
  EXPECT_TRUE(floatToFp4E2M1(-100.0f) == 0xF);

  EXPECT_TRUE(e8m0ToFloat(127) == 1.0f);
  EXPECT_TRUE(e8m0ToFloat(128) == 2.0f);
  EXPECT_TRUE(e8m0ToFloat(0) == std::ldexp(1.0f, -127));
  EXPECT_TRUE(e8m0ToFloat(254) == std::ldexp(1.0f, 127));
  EXPECT_TRUE(std::isnan(e8m0ToFloat(0xFF)));

  EXPECT_TRUE(mxfp4BlockScale(6.0f) == 127);
  EXPECT_TRUE(mxfp4BlockScale(4.0f) == 127);
  EXPECT_TRUE(mxfp4BlockScale(7.9f) == 127);
  EXPECT_TRUE(mxfp4BlockScale(8.0f) == 128);
  EXPECT_TRUE(mxfp4BlockScale(1.0f) == 125);
  EXPECT_TRUE(mxfp4BlockScale(0.0f) == 0);
  EXPECT_TRUE(mxfp4BlockScale(1e-40f) == 0);
  EXPECT_TRUE(mxfp4BlockScale(NAN) == 0xFF);
}

//===----------------------------------------------------------------------===//
// Reference
//===----------------------------------------------------------------------===//

/// A bf16 problem with one sequence per entry of `qLens`/`kvLens`, all
/// values zero; tests fill in what they need.
static MlaProblem makeBf16Problem(int64_t heads,
                                  const std::vector<int32_t> &qLens,
                                  const std::vector<int32_t> &kvLens) {
  MlaProblem problem;
  problem.kvDType = KvDType::BF16;
  problem.heads = heads;
  problem.smScale = 1.0f;
  problem.qoIndptr = {0};
  problem.kvIndptr = {0};
  for (size_t i = 0; i < qLens.size(); ++i) {
    problem.qoIndptr.push_back(problem.qoIndptr.back() + qLens[i]);
    problem.kvIndptr.push_back(problem.kvIndptr.back() + kvLens[i]);
  }
  problem.q.assign(problem.totalQ() * heads * kQkDim, 0);
  problem.kv.assign(problem.totalKv() * 2 * kQkDim, 0);
  return problem;
}

static void setKv(MlaProblem &problem, int64_t row, int64_t dim, float value) {
  uint16_t bits = floatToBf16(value);
  problem.kv[(row * kQkDim + dim) * 2] = static_cast<uint8_t>(bits & 0xFF);
  problem.kv[(row * kQkDim + dim) * 2 + 1] = static_cast<uint8_t>(bits >> 8);
}

static void setQ(MlaProblem &problem, int64_t row, int64_t head, int64_t dim,
                 float value) {
  problem.q[(row * problem.heads + head) * kQkDim + dim] = floatToBf16(value);
}

static double outAt(const MlaProblem &problem, const std::vector<double> &out,
                    int64_t row, int64_t head, int64_t dim) {
  return out[(row * problem.heads + head) * kVDim + dim];
}

TEST(Reference, SmallCases) {
  llvm::ThreadPoolInterface &pool = testPool();
  // One key: the output is its value part, whatever the query.
  {
    MlaProblem problem = makeBf16Problem(16, {1}, {1});
    for (int64_t d = 0; d < kQkDim; ++d)
      setKv(problem, 0, d, static_cast<float>(d % 7) - 3);
    setQ(problem, 0, 5, 0, 2.5f);
    std::vector<double> out = computeReference(problem, pool);
    EXPECT_TRUE(out.size() == static_cast<size_t>(16 * kVDim));
    bool equal = true;
    for (int64_t h = 0; h < 16; ++h)
      for (int64_t d = 0; d < kVDim; ++d)
        equal &= outAt(problem, out, 0, h, d) == static_cast<double>(d % 7) - 3;
    EXPECT_TRUE(equal);
  }
  // Two keys with scores 0 and 1 (sm_scale 0.5, q.k2 = 2).
  {
    MlaProblem problem = makeBf16Problem(16, {1}, {2});
    problem.smScale = 0.5f;
    setQ(problem, 0, 3, 0, 1.0f);
    setKv(problem, 1, 0, 2.0f);
    for (int64_t d = 1; d < kQkDim; ++d) {
      setKv(problem, 0, d, 1.0f);
      setKv(problem, 1, d, -1.0f);
    }
    std::vector<double> out = computeReference(problem, pool);
    double p2 = std::exp(1.0) / (1 + std::exp(1.0)), p1 = 1 - p2;
    EXPECT_TRUE(near(outAt(problem, out, 0, 3, 0), 2 * p2));
    EXPECT_TRUE(near(outAt(problem, out, 0, 3, 1), p1 - p2));
    EXPECT_TRUE(near(outAt(problem, out, 0, 3, 511), p1 - p2));
    // Head 0 has a zero query: equal weights.
    EXPECT_TRUE(near(outAt(problem, out, 0, 0, 0), 1.0));
    EXPECT_TRUE(near(outAt(problem, out, 0, 0, 7), 0.0));
  }
  // Causal q_len 2 over 3 keys: query 0 sees keys 0-1, query 1 all three.
  {
    MlaProblem problem = makeBf16Problem(16, {2}, {3});
    for (int64_t row = 0; row < 3; ++row)
      setKv(problem, row, 10, static_cast<float>(1 << row));
    std::vector<double> out = computeReference(problem, pool);
    EXPECT_TRUE(near(outAt(problem, out, 0, 0, 10), 1.5));
    EXPECT_TRUE(near(outAt(problem, out, 1, 0, 10), 7.0 / 3));
  }
  // q_len 4 over 2 keys: queries 0 and 1 see nothing, 2 sees key 0.
  {
    MlaProblem problem = makeBf16Problem(16, {4}, {2});
    setKv(problem, 0, 0, 4.0f);
    setKv(problem, 1, 0, 8.0f);
    std::vector<double> out = computeReference(problem, pool);
    EXPECT_TRUE(outAt(problem, out, 0, 0, 0) == 0.0);
    EXPECT_TRUE(outAt(problem, out, 1, 0, 0) == 0.0);
    EXPECT_TRUE(near(outAt(problem, out, 2, 0, 0), 4.0));
    EXPECT_TRUE(near(outAt(problem, out, 3, 0, 0), 6.0));
  }
  // kv_len 0 next to a non-empty sequence.
  {
    MlaProblem problem = makeBf16Problem(16, {1, 1}, {0, 1});
    setKv(problem, 0, 0, 3.0f);
    std::vector<double> out = computeReference(problem, pool);
    EXPECT_TRUE(outAt(problem, out, 0, 0, 0) == 0.0);
    EXPECT_TRUE(outAt(problem, out, 0, 15, 511) == 0.0);
    EXPECT_TRUE(near(outAt(problem, out, 1, 0, 0), 3.0));
  }
}

TEST(Reference, Quantized) {
  llvm::ThreadPoolInterface &pool = testPool();
  // fp8: values are code * scale.
  {
    MlaProblem problem = makeBf16Problem(16, {1}, {1});
    problem.kvDType = KvDType::FP8;
    problem.kv.assign(kQkDim, 0x38); // 1.0
    problem.fp8Scale = 0.25f;
    std::vector<double> out = computeReference(problem, pool);
    EXPECT_TRUE(near(outAt(problem, out, 0, 0, 0), 0.25));
  }
  // mxfp4: nibble order and per-block scales; 0xFF poisons the row.
  {
    MlaProblem problem = makeBf16Problem(16, {1}, {1});
    problem.kvDType = KvDType::MXFP4;
    problem.kv.assign(kPackedFp4RowBytes, 0);
    problem.kv[0] = 0x2 | (0x7 << 4); // element 0: 1.0, element 1: 6.0
    problem.kv[16] = 0xB;             // element 32: -1.5
    problem.scaleRows = 1;
    problem.scaleStride = 24;
    problem.mxScale.assign(24, 127);
    problem.mxScale[1] = 129; // block 1 scaled by 4
    double row[kQkDim];
    problem.dequantizeKvRow(0, row);
    EXPECT_TRUE(row[0] == 1.0 && row[1] == 6.0 && row[2] == 0.0 &&
                row[32] == -6.0);
    std::vector<double> out = computeReference(problem, pool);
    EXPECT_TRUE(near(outAt(problem, out, 0, 0, 1), 6.0));
    EXPECT_TRUE(near(outAt(problem, out, 0, 0, 32), -6.0));

    problem.mxScale[17] = kE8M0NaN; // a rope block: every score is NaN
    out = computeReference(problem, pool);
    EXPECT_TRUE(std::isnan(outAt(problem, out, 0, 0, 0)));
    EXPECT_TRUE(std::isnan(outAt(problem, out, 0, 15, 511)));
  }
}

//===----------------------------------------------------------------------===//
// Check
//===----------------------------------------------------------------------===//

TEST(Check, CompareWithReference) {
  std::vector<double> reference = {1.0, -2.0, 0.5, 0.0};
  std::vector<uint16_t> out;
  for (double value : reference)
    out.push_back(floatToBf16(static_cast<float>(value)));
  CheckResult exact = compareWithReference(out.data(), reference.data(), 4);
  EXPECT_TRUE(exact.passed() && exact.relativeFrobenius == 0 &&
              exact.maxAbsError == 0);
  EXPECT_TRUE(
      exact.summary() ==
      "check: rel_fro=0.0e+00 max_abs=0.0e+00 outside_tol=0/4 nan=0 PASS");

  out[1] = floatToBf16(-2.1f);
  CheckResult off = compareWithReference(out.data(), reference.data(), 4);
  EXPECT_TRUE(!off.passed() && off.outsideTolerance == 1 && off.nanCount == 0);
  EXPECT_TRUE(near(off.maxAbsError, 0.1, 1e-2));

  out[1] = 0xFFFF;
  CheckResult nan = compareWithReference(out.data(), reference.data(), 4);
  EXPECT_TRUE(!nan.passed() && nan.nanCount == 1 && nan.outsideTolerance == 1);
  EXPECT_TRUE(std::isnan(nan.maxAbsError));
}

//===----------------------------------------------------------------------===//
// Generator
//===----------------------------------------------------------------------===//

/// FNV-1a of a byte range.
static uint64_t fnv1a(const void *data, size_t size) {
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
  EXPECT_TRUE(a.q == b.q && a.kv == b.kv && a.mxScale == b.mxScale);
  EXPECT_TRUE(a.qoIndptr == (std::vector<int32_t>{0, 2, 4, 6}));
  EXPECT_TRUE(a.kvIndptr == (std::vector<int32_t>{0, 100, 100, 400}));
  EXPECT_TRUE(a.kv.size() == static_cast<size_t>(400 * kPackedFp4RowBytes));
  // Padded scale tensor: 512 x 24, padding NaN, real scales finite.
  EXPECT_TRUE(a.scaleRows == 512 && a.scaleStride == 24);
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
  EXPECT_TRUE(paddingIsNaN && scalesFinite);

  // Pinned hashes: a seed must give the same inputs on every machine,
  // compiler and release.
  EXPECT_TRUE(fnv1a(a.q.data(), a.q.size() * 2) == 0xf0d631777c6a2883ull);
  EXPECT_TRUE(fnv1a(a.kv.data(), a.kv.size()) == 0x4c237df245caa428ull);
  EXPECT_TRUE(fnv1a(a.mxScale.data(), a.mxScale.size()) ==
              0xf231ba79c0e67f20ull);
  options.seed = 8;
  MlaProblem c;
  EXPECT_TRUE(succeeded(generateProblem(options, four, c)));
  EXPECT_TRUE(c.q != a.q);
  options.seed = 7;

  // Normal statistics of q.
  double sum = 0, squares = 0;
  for (uint16_t bits : a.q) {
    double value = bf16ToFloat(bits);
    sum += value;
    squares += value * value;
  }
  double mean = sum / a.q.size(), variance = squares / a.q.size() - mean * mean;
  EXPECT_TRUE(std::fabs(mean) < 0.02);
  EXPECT_TRUE(std::fabs(variance - 1) < 0.05);

  // fp8: the scale maps the largest magnitude onto 448.
  options.kvDType = KvDType::FP8;
  MlaProblem fp8;
  EXPECT_TRUE(succeeded(generateProblem(options, four, fp8)));
  bool hitsMax = false;
  for (uint8_t code : fp8.kv)
    hitsMax |= (code & 0x7F) == 0x7E;
  EXPECT_TRUE(hitsMax && fp8.fp8Scale == 0x1.592492p-7f);
  EXPECT_TRUE(fnv1a(fp8.kv.data(), fp8.kv.size()) == 0x5afc54fea37f32f0ull);
  options.kvDType = KvDType::BF16;
  MlaProblem bf16;
  EXPECT_TRUE(succeeded(generateProblem(options, four, bf16)));
  EXPECT_TRUE(fnv1a(bf16.kv.data(), bf16.kv.size()) == 0xd16a763bf8197ce8ull);
  EXPECT_TRUE(bf16.q == fp8.q && bf16.mxScale.empty());

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
  const std::string &scratch = scratchDirectory;
  llvm::StdThreadPool pool(llvm::hardware_concurrency(2));
  GeneratorOptions options;
  options.heads = 16;
  options.qLen = 1;
  options.kvLens = {100, 0, 300};
  options.seed = 7;
  for (KvDType dtype : {KvDType::BF16, KvDType::FP8, KvDType::MXFP4}) {
    options.kvDType = dtype;
    options.spareKvRows = 0;
    MlaProblem exact, pooled;
    EXPECT_TRUE(succeeded(generateProblem(options, pool, exact)));
    options.spareKvRows = 212;
    EXPECT_TRUE(succeeded(generateProblem(options, pool, pooled)));
    EXPECT_TRUE(pooled.totalKv() == 400 && pooled.kvRows() == 612);
    EXPECT_TRUE(
        std::equal(exact.kv.begin(), exact.kv.end(), pooled.kv.begin()));
    EXPECT_TRUE(pooled.fp8Scale == exact.fp8Scale &&
                pooled.essentialBytes() == exact.essentialBytes());
    double row[kQkDim];
    bool spareIsNaN = true;
    for (int64_t r = 400; r < 612; ++r) {
      pooled.dequantizeKvRow(r, row);
      for (double value : row)
        spareIsNaN &= std::isnan(value);
    }
    EXPECT_TRUE(spareIsNaN);
    if (dtype == KvDType::MXFP4)
      EXPECT_TRUE(pooled.scaleRows == 768 &&
                  std::equal(exact.mxScale.begin(),
                             exact.mxScale.begin() + 400 * exact.scaleStride,
                             pooled.mxScale.begin()));

    std::string directory = scratch + "/pool_" + kvDTypeName(dtype);
    EXPECT_TRUE(succeeded(saveProblem(pooled, directory)));
    MlaProblem loaded;
    EXPECT_TRUE(succeeded(loadProblem(directory, dtype, 0.125f, loaded)));
    EXPECT_TRUE(loaded.kvRows() == 612 && loaded.totalKv() == 400 &&
                loaded.kv == pooled.kv && loaded.mxScale == pooled.mxScale);
  }
}

//===----------------------------------------------------------------------===//
// Npy
//===----------------------------------------------------------------------===//

static void writeBytes(const std::string &path, const std::string &bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), file);
  std::fclose(file);
}

/// A version 1.0 file with `header` and `dataBytes` zero bytes of data.
static std::string npyBytes(const std::string &header, size_t dataBytes) {
  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes.push_back(static_cast<char>(header.size() & 0xFF));
  bytes.push_back(static_cast<char>(header.size() >> 8));
  return bytes + header + std::string(dataBytes, '\0');
}

TEST(Npy, ReadAndWrite) {
  const std::string &scratch = scratchDirectory;
  std::string path = scratch + "/round_trip.npy";
  std::vector<int32_t> values = {1, -2, 3, 4, 5, 6};
  EXPECT_TRUE(
      succeeded(writeNpy(path, NpyDType::Int32, {2, 3}, values.data())));
  NpyArray array;
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_TRUE(array.dtype == NpyDType::Int32);
  EXPECT_TRUE(array.shape == (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(array.elementsAs<int32_t>() == values);
  EXPECT_TRUE(array.shapeString() == "(2, 3)");

  std::vector<uint16_t> halves = {0x3F80, 0xFFFF};
  EXPECT_TRUE(succeeded(writeNpy(path, NpyDType::UInt16, {2}, halves.data())));
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_TRUE(array.dtype == NpyDType::UInt16 && array.shapeString() == "(2,)");
  EXPECT_TRUE(array.elementsAs<uint16_t>() == halves);
  // The data starts on a 64-byte boundary, as NumPy writes it.
  std::FILE *file = std::fopen(path.c_str(), "rb");
  std::fseek(file, 0, SEEK_END);
  EXPECT_TRUE((std::ftell(file) - 4) % 64 == 0);
  std::fclose(file);

  // The dtypes of f16 and i64 buffers.
  std::vector<uint16_t> f16 = {0x3C00, 0xFC00};
  EXPECT_TRUE(succeeded(writeNpy(path, NpyDType::Float16, {1, 2}, f16.data())));
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_TRUE(array.dtype == NpyDType::Float16 &&
              array.elementsAs<uint16_t>() == f16);
  std::vector<int64_t> wide = {-1, int64_t(1) << 40};
  EXPECT_TRUE(succeeded(writeNpy(path, NpyDType::Int64, {2}, wide.data())));
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_TRUE(array.dtype == NpyDType::Int64 &&
              array.elementsAs<int64_t>() == wide);
  EXPECT_TRUE(npyItemSize(NpyDType::Int64) == 8 &&
              std::string(npyDTypeName(NpyDType::Float16)) == "float16");

  // Version 2.0 headers, scalars and byte-order marks NumPy writes.
  std::string v2("\x93NUMPY\x02\x00", 8);
  std::string header =
      "{'descr': '|i1', 'fortran_order': False, 'shape': (), }";
  v2 += std::string({static_cast<char>(header.size()), 0, 0, 0});
  writeBytes(path, v2 + header + "x");
  EXPECT_TRUE(succeeded(readNpy(path, array)));
  EXPECT_TRUE(array.dtype == NpyDType::Int8 && array.shape.empty() &&
              array.bytes[0] == 'x');

  auto expectError = [&](const std::string &bytes, const std::string &text) {
    writeBytes(path, bytes);
    EXPECT_TRUE(failsWith(readNpy(path, array), path + ": " + text));
  };
  expectError("PK\x03\x04 not numpy", "not a .npy file (bad magic)");
  expectError(std::string("\x93NUMPY\x03\x00", 8) + "abcd",
              "unsupported .npy version 3.0");
  expectError(npyBytes("{'descr': '<u2', 'fortran_order': False, 'shape': "
                       "(4,), }",
                       6),
              "truncated data: shape (4,) of uint16 needs 8 bytes, the file "
              "has 6");
  expectError(npyBytes("{'descr': '<u2', 'fortran_order': False, 'shape': "
                       "(4,), }",
                       9),
              "1 bytes after the data");
  expectError(npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': "
                       "(1,), }",
                       8),
              "unsupported dtype '<f8'");
  expectError(npyBytes("{'descr': '>u2', 'fortran_order': False, 'shape': "
                       "(1,), }",
                       2),
              "dtype '>u2' is not little-endian");
  expectError(npyBytes("{'descr': '>i8', 'fortran_order': False, 'shape': "
                       "(1,), }",
                       8),
              "dtype '>i8' is not little-endian");
  expectError(npyBytes("{'descr': '<i4', 'fortran_order': True, 'shape': "
                       "(2, 2), }",
                       16),
              "Fortran-order array");
  expectError(npyBytes("{'descr': '<i4', 'shape': (1,), }", 4),
              "malformed header: missing");
  expectError(npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': "
                       "(-1,), }",
                       4),
              "malformed header: 'shape' is not a tuple");
  expectError(std::string("\x93NUMPY\x01\x00\x40\x00{'descr'", 17),
              "truncated header");
  // Header bytes are echoed printably.
  expectError(npyBytes("{'d\x01scr': '<i4', 'fortran_order': False, "
                       "'shape': (1,), }",
                       4),
              "malformed header: unexpected key 'd\\x01scr'");
  EXPECT_TRUE(failsWith(readNpy(scratch + "/missing.npy", array),
                        scratch + "/missing.npy: " + std::strerror(ENOENT)));
  EXPECT_TRUE(failsWith(
      writeNpy(scratch + "/no/such/dir/x.npy", NpyDType::UInt8, {1}, "x"),
      "cannot create"));
}

//===----------------------------------------------------------------------===//
// Json
//===----------------------------------------------------------------------===//

TEST(Json, Parse) {
  llvm::json::Value value = nullptr;
  EXPECT_TRUE(succeeded(parseJson(
      R"({"a": [1, -2.5e1, 12345678901], "s": "x\"\\\n\u00e9\ud83d\ude00",
 "t": true, "f": false, "n": null, "o": {}})",
      "doc", value)));
  const llvm::json::Object *object = value.getAsObject();
  EXPECT_TRUE(object && object->size() == 6);
  const llvm::json::Array *a = object->getArray("a");
  EXPECT_TRUE(a && a->size() == 3);
  EXPECT_TRUE(getNonNegativeInteger((*a)[0]) == 1);
  EXPECT_TRUE(!getNonNegativeInteger((*a)[1]) && (*a)[1].getAsNumber() == -25);
  EXPECT_TRUE(getNonNegativeInteger((*a)[2]) == 12345678901);
  EXPECT_TRUE(object->getString("s") == "x\"\\\n\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_TRUE(object->getBoolean("t") == true &&
              object->getBoolean("f") == false);
  EXPECT_TRUE(object->getNull("n") && object->getObject("o"));
  EXPECT_TRUE(object->get("missing") == nullptr);

  // Integers are written as integers, and are not negative.
  for (const char *text : {"4.0", "1e3", "-1", "9223372036854775808"}) {
    EXPECT_TRUE(succeeded(parseJson(text, "m.json", value)));
    EXPECT_TRUE(!getNonNegativeInteger(value));
  }

  EXPECT_TRUE(failsWith(parseJson("{\n  \"a\": [1, 2,, 3]\n}", "m.json", value),
                        "m.json:2:15: invalid JSON value"));
  EXPECT_TRUE(failsWith(parseJson("{\"a\": 1} x", "m.json", value),
                        "m.json:1:10: text after end of document"));
  EXPECT_TRUE(failsWith(parseJson("{\"a\": \"abc", "m.json", value),
                        "unterminated string"));
  EXPECT_TRUE(failsWith(parseJson("{\"a\" 1}", "m.json", value),
                        "m.json:1:7: expected : after object key"));
  EXPECT_TRUE(failsWith(parseJson("{\"a\": tru}", "m.json", value),
                        "invalid JSON value"));
  EXPECT_TRUE(failsWith(parseJson("\"\\q\"", "m.json", value),
                        "invalid escape sequence"));
  EXPECT_TRUE(failsWith(parseJson("\"\xFF\"", "m.json", value),
                        "invalid UTF-8 sequence"));
  EXPECT_TRUE(failsWith(parseJson(std::string(100, '['), "m.json", value),
                        "m.json:1:65: nesting deeper than 64 levels"));
  // Brackets inside strings do not nest.
  EXPECT_TRUE(succeeded(
      parseJson("[\"" + std::string(100, '[') + "\\\"\"]", "m.json", value)));
  EXPECT_TRUE(
      failsWith(parseJson("", "m.json", value), "m.json:1:1: unexpected EOF"));
}

//===----------------------------------------------------------------------===//
// Manifest and kernel selection
//===----------------------------------------------------------------------===//

/// A manifest with MLA kernels for bf16 and the given partial arguments.
static std::string manifestText(const std::string &partialArgs,
                                int64_t heads = 16) {
  return R"({"target": "host", "binary": "m.so", "kernels": [
  {"symbol": "partial", "args": [)" +
         partialArgs + R"(],
   "workgroup_size": [1, 1, 1], "lds_bytes": 0, "registers": null,
   "spills": null,
   "launch": {"role": "mla.partial", "kv_dtype": "bf16", "heads": )" +
         std::to_string(heads) + R"(,
              "kv_tile": 64, "block_rows": 64, "max_splits": 8,
              "grid": ["programs", 1, 1]}},
  {"symbol": "combine", "args": [
     {"name": "part_out", "kind": "ptr", "type": "f32"},
     {"name": "part_lse", "kind": "ptr", "type": "f32"},
     {"name": "combine", "kind": "ptr", "type": "i32"},
     {"name": "out", "kind": "ptr", "type": "bf16"}],
   "workgroup_size": [64, 1, 1], "lds_bytes": 0,
   "launch": {"role": "mla.combine", "block_rows": 16,
              "grid": ["combine_items", 1, 1]}}]})";
}

static const char *const kPartialArgs =
    R"({"name": "q", "kind": "ptr", "type": "bf16"},
       {"name": "kv", "kind": "ptr", "type": "bf16"},
       {"name": "qo_indptr", "kind": "ptr", "type": "i32"},
       {"name": "kv_indptr", "kind": "ptr", "type": "i32"},
       {"name": "work", "kind": "ptr", "type": "i32"},
       {"name": "work_indptr", "kind": "ptr", "type": "i32"},
       {"name": "part_out", "kind": "ptr", "type": "f32"},
       {"name": "part_lse", "kind": "ptr", "type": "f32"},
       {"name": "out", "kind": "ptr", "type": "bf16"},
       {"name": "sm_scale", "kind": "scalar", "type": "f32"})";

/// `text` with the first `from` replaced by `to`.
static std::string replaced(std::string text, const std::string &from,
                            const std::string &to) {
  size_t at = text.find(from);
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

TEST(Manifest, Parse) {
  Manifest manifest;
  EXPECT_TRUE(succeeded(
      parseManifest(manifestText(kPartialArgs), "m.so.json", manifest)));
  EXPECT_TRUE(manifest.target == "host" && manifest.binary == "m.so");
  EXPECT_TRUE(manifest.kernels.size() == 2);
  const KernelInfo &partial = manifest.kernels[0];
  EXPECT_TRUE(partial.symbol == "partial" && partial.args.size() == 10);
  EXPECT_TRUE(partial.args[9].kind == ArgKind::Scalar &&
              partial.args[9].type == "f32");
  EXPECT_TRUE(partial.role == "mla.partial" && partial.hasGrid);
  EXPECT_TRUE(partial.grid[0].quantity == "programs" &&
              partial.grid[2].quantity.empty() &&
              partial.grid[2].rule == llvm::json::Value(1));
  EXPECT_TRUE(!partial.registers && manifest.kernels[1].workgroupSize[0] == 64);
  EXPECT_TRUE(manifestPathFor("dir/out.so") == "dir/out.so.json");

  EXPECT_TRUE(
      failsWith(parseManifest("{\"target\": \"host\"}", "m.json", manifest),
                "m.json: binary: missing"));
  EXPECT_TRUE(
      failsWith(parseManifest(manifestText(R"({"name": "q", "kind": "pointer",
                                            "type": "bf16"})"),
                              "m.json", manifest),
                "kernels[0].args[0].kind: expected \"ptr\" or \"scalar\""));
  EXPECT_TRUE(
      failsWith(parseManifest(manifestText(R"({"name": "q", "kind": "scalar",
                                            "type": "bf16"})"),
                              "m.json", manifest),
                "scalar type \"bf16\" is not one of i32, i64, f32"));
  EXPECT_TRUE(
      failsWith(parseManifest(manifestText(R"({"name": "q", "kind": "ptr",
                                            "type": "f64"})"),
                              "m.json", manifest),
                "unknown element type \"f64\""));
  std::string text = manifestText(kPartialArgs);
  std::string emptyName = text;
  emptyName.replace(emptyName.find("\"programs\""), 10, "\"\"");
  EXPECT_TRUE(failsWith(parseManifest(emptyName, "m.json", manifest),
                        "kernels[0].launch.grid[0]: empty quantity name"));
  std::string duplicate = text;
  duplicate.replace(duplicate.find("\"combine\""), 9, "\"partial\"");
  EXPECT_TRUE(failsWith(parseManifest(duplicate, "m.json", manifest),
                        "duplicate symbol 'partial'"));
  EXPECT_TRUE(partial.dynamicLdsBytes == 0);
  std::string dynamic = text;
  dynamic.replace(dynamic.find("\"lds_bytes\": 0"), 14,
                  "\"lds_bytes\": 4096, \"dynamic_lds_bytes\": 1024");
  EXPECT_TRUE(succeeded(parseManifest(dynamic, "m.json", manifest)));
  EXPECT_TRUE(manifest.kernels[0].ldsBytes == 4096 &&
              manifest.kernels[0].dynamicLdsBytes == 1024);
  dynamic.replace(dynamic.find("4096"), 4, "1000");
  EXPECT_TRUE(failsWith(parseManifest(dynamic, "m.json", manifest),
                        "kernels[0].dynamic_lds_bytes: more than lds_bytes"));
  EXPECT_TRUE(failsWith(loadManifest("/nonexistent/m.so", manifest),
                        "/nonexistent/m.so.json: "));
}

/// The ABI record of the binary `manifestText(kPartialArgs)` describes.
static std::string recordText() {
  Manifest manifest;
  EXPECT_TRUE(succeeded(
      parseManifest(manifestText(kPartialArgs), "m.so.json", manifest)));
  llvm::json::Array kernels;
  for (const KernelInfo &kernel : manifest.kernels) {
    llvm::json::Array args;
    for (const KernelArg &arg : kernel.args)
      args.push_back(llvm::json::Object{
          {"name", arg.name},
          {"kind", arg.kind == ArgKind::Pointer ? "ptr" : "scalar"},
          {"type", arg.type}});
    kernels.push_back(llvm::json::Object{
        {"symbol", kernel.symbol},
        {"args", std::move(args)},
        {"workgroup_size",
         llvm::json::Array{kernel.workgroupSize[0], kernel.workgroupSize[1],
                           kernel.workgroupSize[2]}},
        {"launch", llvm::json::Object(kernel.launch)}});
  }
  llvm::json::Value record =
      llvm::json::Object{{"version", kAbiRecordVersion},
                         {"target", "host"},
                         {"kernels", std::move(kernels)}};
  return llvm::formatv("{0}", record).str();
}

/// The result of checking the manifest `text` against `record`, given as
/// the bytes of the record's global (with its NUL and what may follow).
static Status checkRecord(const std::string &text, const std::string &record) {
  Manifest manifest;
  if (Status s = parseManifest(text, "m.so.json", manifest))
    return s;
  return checkAbiRecord(std::string_view(record.data(), record.size() + 1),
                        "m.so", manifest);
}

TEST(AbiRecord, Check) {
  std::string text = manifestText(kPartialArgs);
  std::string record = recordText();
  EXPECT_TRUE(succeeded(checkRecord(text, record)));
  // The text ends at the global's NUL.
  EXPECT_TRUE(
      succeeded(checkRecord(text, record + std::string("\0garbage", 8))));

  // What a launcher relies on, changed in the manifest.
  EXPECT_TRUE(failsWith(
      checkRecord(replaced(text, "\"max_splits\": 8", "\"max_splits\": 16"),
                  record),
      "m.so.json: kernels[0].launch.max_splits: 16 does not match the binary "
      "(8)"));
  EXPECT_TRUE(failsWith(
      checkRecord(replaced(text, "\"max_splits\": 8,", ""), record),
      "m.so.json: kernels[0].launch.max_splits: absent, the binary has 8"));
  EXPECT_TRUE(failsWith(
      checkRecord(replaced(text, "\"block_rows\": 16,",
                           "\"block_rows\": 16, \"splits\": 2,"),
                  record),
      "m.so.json: kernels[1].launch.splits: 2, absent from the binary"));
  EXPECT_TRUE(failsWith(
      checkRecord(
          replaced(text, "[\"programs\", 1, 1]", "[\"programs\", 2, 1]"),
          record),
      "kernels[0].launch.grid: [\"programs\",2,1] does not match the binary "
      "([\"programs\",1,1])"));
  EXPECT_TRUE(failsWith(
      checkRecord(replaced(text, "\"heads\": 16", "\"heads\": 32"), record),
      "kernels[0].launch.heads: 32 does not match the binary (16)"));
  EXPECT_TRUE(failsWith(
      checkRecord(replaced(text, "[64, 1, 1]", "[128, 1, 1]"), record),
      "m.so.json: kernels[1].workgroup_size: [128,1,1] does not match the "
      "binary ([64,1,1])"));
  std::string swapped =
      replaced(replaced(text, R"("name": "qo_indptr")", R"("name": "TMP")"),
               R"("name": "kv_indptr")", R"("name": "qo_indptr")");
  EXPECT_TRUE(failsWith(
      checkRecord(
          replaced(swapped, R"("name": "TMP")", R"("name": "kv_indptr")"),
          record),
      "m.so.json: kernels[0].args[2]: ptr i32 'kv_indptr' does not match the "
      "binary (ptr i32 'qo_indptr')"));
  EXPECT_TRUE(failsWith(
      checkRecord(
          replaced(text,
                   R"("name": "sm_scale", "kind": "scalar", "type": "f32")",
                   R"("name": "sm_scale", "kind": "scalar", "type": "i32")"),
          record),
      "m.so.json: kernels[0].args[9]: scalar i32 'sm_scale' does not match "
      "the binary (scalar f32 'sm_scale')"));
  EXPECT_TRUE(failsWith(
      checkRecord(manifestText(std::string(kPartialArgs) +
                               R"(, {"name": "extra", "kind": "scalar",
                                     "type": "i32"})"),
                  record),
      "m.so.json: kernels[0].args: 11 arguments, the binary's kernel takes "
      "10"));
  EXPECT_TRUE(failsWith(
      checkRecord(replaced(text, "\"partial\"", "\"getpid\""), record),
      "m.so.json: kernels[0].symbol: 'getpid' is not a kernel of m.so"));
  EXPECT_TRUE(failsWith(
      checkRecord(replaced(text, "\"host\"", "\"gfx950\""), record),
      "m.so.json: target: 'gfx950' does not match the binary ('host')"));

  // A record without a workgroup size does not constrain it.
  std::string sizeless = record;
  for (size_t at;
       (at = sizeless.find(",\"workgroup_size\":[")) != std::string::npos;)
    sizeless.erase(at, sizeless.find(']', at) - at + 1);
  EXPECT_TRUE(succeeded(
      checkRecord(replaced(text, "[64, 1, 1]", "[128, 1, 1]"), sizeless)));

  // Records that are not this mla-run's.
  EXPECT_TRUE(failsWith(
      checkRecord(text, replaced(record, "\"version\":1", "\"version\":2")),
      "m.so: ABI record version 2, this mla-run reads "
      "version 1"));
  EXPECT_TRUE(failsWith(checkRecord(text, "{\"kernels\": [}"),
                        "m.so: ABI record:1:15: invalid JSON value"));
  EXPECT_TRUE(failsWith(checkRecord(text, "[]"),
                        "m.so: malformed ABI record: not an object"));
  EXPECT_TRUE(failsWith(
      checkRecord(text, replaced(record, "\"args\":[", "\"args\":[1,")),
      "m.so: malformed ABI record: an argument of "
      "'partial'"));
  EXPECT_TRUE(failsWith(missingAbiRecord("m.so"),
                        "m.so: has no ABI record (__mla_abi)"));
}

/// The error of selecting bf16/16 kernels from manifest `text`, or
/// success.
static Status selectFrom(const std::string &text, MlaKernels &kernels) {
  Manifest manifest;
  if (Status s = parseManifest(text, "m.so.json", manifest))
    return s;
  return selectMlaKernels(manifest, KvDType::BF16, 16, 16, kernels);
}

TEST(MlaDriver, KernelSelection) {
  llvm::ThreadPoolInterface &pool = testPool();
  Manifest manifest;
  EXPECT_TRUE(succeeded(
      parseManifest(manifestText(kPartialArgs), "m.so.json", manifest)));
  MlaKernels kernels;
  EXPECT_TRUE(
      succeeded(selectMlaKernels(manifest, KvDType::BF16, 16, 16, kernels)));
  EXPECT_TRUE(kernels.partial == &manifest.kernels[0] &&
              kernels.combine == &manifest.kernels[1] &&
              kernels.maxSplits == 8);
  EXPECT_TRUE(kernels.kvTile == 64 && kernels.blockRows == 64 &&
              kernels.combineBlockRows == 16);
  EXPECT_TRUE(
      failsWith(selectMlaKernels(manifest, KvDType::BF16, 32, 32, kernels),
                "m.so.json: no mla.partial kernel for kv_dtype bf16 and 32 "
                "heads (the module has bf16/16)"));
  EXPECT_TRUE(failsWith(selectMlaKernels(manifest, KvDType::FP8, 16, 16, kernels),
                        "no mla.partial kernel for kv_dtype fp8"));

  // The launch keys the plan follows.
  std::string text = manifestText(kPartialArgs);
  EXPECT_TRUE(succeeded(selectFrom(
      replaced(text, "\"kv_tile\": 64", "\"kv_tile\": 32"), kernels)));
  EXPECT_TRUE(kernels.kvTile == 32 &&
              planOptionsFor(makeBf16Problem(16, {1}, {1}), kernels,
                             PlanMode::Reproducible, 4)
                      .kvTile == 32);
  EXPECT_TRUE(succeeded(
      selectFrom(replaced(text, ", \"max_splits\": 8", ""), kernels)));
  EXPECT_TRUE(kernels.maxSplits == kDefaultMaxSplits);
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "\"kv_tile\": 64, ", ""), kernels),
                "kernel 'partial': mla.partial needs launch.kv_tile"));
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "\"block_rows\": 64, ", ""), kernels),
                "kernel 'partial': mla.partial needs launch.block_rows"));
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "\"block_rows\": 16,", ""), kernels),
                "kernel 'combine': mla.combine needs launch.block_rows"));
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "\"heads\": 16,", ""), kernels),
                "kernel 'partial': mla.partial needs launch.heads"));
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(text, "\"kv_tile\": 64", "\"kv_tile\": 0"), kernels),
      "m.so.json: kernel 'partial': launch.kv_tile: expected an integer "
      ">= 1"));
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "\"kv_tile\": 64",
                                    "\"kv_tile\": 9223372036854775807"),
                           kernels),
                "kernel 'partial': launch.kv_tile: 9223372036854775807 is more "
                "than 65536"));
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "\"max_splits\": 8",
                                    "\"max_splits\": 4611686018427387904"),
                           kernels),
                "launch.max_splits: 4611686018427387904 is more than 1024"));
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(text, "\"block_rows\": 16", "\"block_rows\": 1e9"),
                 kernels),
      "kernel 'combine': launch.block_rows: expected an integer >= 1"));
  // Each role has its grid quantity; others may be defined by other
  // drivers, and the MLA driver rejects them on its own kernels.
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "[\"programs\", 1, 1]",
                                    "[\"programs\", \"max_q_len\", 1]"),
                           kernels),
                "kernel 'partial': launch.grid[1]: unknown quantity "
                "\"max_q_len\" (the MLA driver computes programs for "
                "mla.partial)"));
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "[\"combine_items\", 1, 1]",
                                    "[\"programs\", 1, 1]"),
                           kernels),
                "kernel 'combine': launch.grid[0]: unknown quantity "
                "\"programs\" (the MLA driver computes combine_items for "
                "mla.combine)"));
  // A partial kernel of an older compiler ran one program per work item,
  // and has no work_indptr.
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(text, "[\"programs\", 1, 1]",
                          "[\"work_items\", 1, 1]"),
                 kernels),
      "kernel 'partial': launch.grid [\"work_items\", 1, 1] is the launch "
      "rule of an older mla-compile (one program per work item); recompile "
      "the module"));
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(text,
                          R"({"name": "work_indptr", "kind": "ptr", "type": "i32"},)",
                          ""),
                 kernels),
      "kernel 'partial': mla.partial has no 'work_indptr' argument"));
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(text, "\"grid\": [\"combine_items\", 1, 1]",
                                    "\"dims\": 1"),
                           kernels),
                "kernel 'combine': mla.combine needs launch.grid"));

  // The combine kernel matches any heads and format unless it names them.
  std::string combine16 =
      replaced(text, "\"role\": \"mla.combine\",",
               "\"role\": \"mla.combine\", \"heads\": 16, \"kv_dtype\": "
               "\"bf16\",");
  EXPECT_TRUE(succeeded(selectFrom(combine16, kernels)));
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(combine16, "\"heads\": 16, \"kv_dtype\"",
                          "\"heads\": 32, \"kv_dtype\""),
                 kernels),
      "m.so.json: no mla.combine kernel for kv_dtype bf16 and 16 heads (the "
      "module has bf16/32)"));
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(combine16, "\"heads\": 16, \"kv_dtype\": \"bf16\"",
                          "\"heads\": 16, \"kv_dtype\": \"fp8\""),
                 kernels),
      "no mla.combine kernel for kv_dtype bf16 and 16 heads (the "
      "module has fp8/16)"));
  std::string twoCombines = replaced(text, R"("kernels": [)",
                                     R"("kernels": [
  {"symbol": "combine2", "args": [
     {"name": "part_out", "kind": "ptr", "type": "f32"},
     {"name": "part_lse", "kind": "ptr", "type": "f32"},
     {"name": "combine", "kind": "ptr", "type": "i32"},
     {"name": "out", "kind": "ptr", "type": "bf16"}],
   "workgroup_size": [64, 1, 1], "lds_bytes": 0,
   "launch": {"role": "mla.combine", "block_rows": 16,
              "grid": ["combine_items", 1, 1]}},)");
  EXPECT_TRUE(
      failsWith(selectFrom(twoCombines, kernels),
                "m.so.json: kernels 'combine2' and 'combine' both match "
                "mla.combine for kv_dtype bf16 and 16 heads"));

  // Partial kernels that differ in block_rows: the fewest rows that hold
  // the batch's largest q_len * heads, else the most.
  std::string threePartials = text;
  for (const char *rows : {"16", "32"})
    threePartials = replaced(
        threePartials, R"("kernels": [)",
        std::string(R"("kernels": [
  {"symbol": "partial)") + rows + R"(", "args": [)" + kPartialArgs + R"(],
   "workgroup_size": [1, 1, 1], "lds_bytes": 0,
   "launch": {"role": "mla.partial", "kv_dtype": "bf16", "heads": 16,
              "kv_tile": 64, "block_rows": )" + rows + R"(,
              "grid": ["programs", 1, 1]}},)");
  Manifest three;
  EXPECT_TRUE(succeeded(parseManifest(threePartials, "m.so.json", three)));
  for (auto [rows, symbol, blockRows] :
       {std::tuple<int64_t, const char *, int64_t>{16, "partial16", 16},
        {17, "partial32", 32},
        {32, "partial32", 32},
        {48, "partial", 64},
        {64, "partial", 64},
        {128, "partial", 64}}) {
    EXPECT_TRUE(
        succeeded(selectMlaKernels(three, KvDType::BF16, 16, rows, kernels)));
    EXPECT_EQ(kernels.partial->symbol, symbol) << rows << " rows";
    EXPECT_EQ(kernels.blockRows, blockRows) << rows << " rows";
  }
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(threePartials, "\"block_rows\": 32",
                          "\"block_rows\": 16"),
                 kernels),
      "m.so.json: kernels 'partial32' and 'partial16' both match "
      "mla.partial for kv_dtype bf16 and 16 heads with the same "
      "block_rows"));

  // Binding by name with kind and type checks, on the host backend.
  MlaProblem problem = makeBf16Problem(16, {1}, {100});
  LaunchPlan plan;
  EXPECT_TRUE(succeeded(planSplitKv(
      problem.qoIndptr, problem.kvIndptr,
      planOptionsFor(problem, kernels, PlanMode::Reproducible, 4), plan)));
  std::unique_ptr<Backend> backend = createHostBackend(pool);
  auto prepareWith = [&](const std::string &args) {
    Manifest local;
    Status parsed = parseManifest(manifestText(args), "m.so.json", local);
    if (!parsed.ok())
      return parsed;
    MlaKernels selected;
    if (Status s = selectMlaKernels(local, KvDType::BF16, 16, 16, selected))
      return s;
    MlaDriver driver(*backend, selected, problem, plan);
    return driver.prepare();
  };
  EXPECT_TRUE(succeeded(prepareWith(kPartialArgs)));
  std::string extra = std::string(kPartialArgs) + ", ";
  EXPECT_TRUE(failsWith(
      prepareWith(extra + R"({"name": "keys", "kind": "ptr", "type": "bf16"})"),
      "kernel 'partial': argument 'keys' is unknown to the MLA driver (it "
      "binds q, kv, kv_scale, scale_stride, qo_indptr, kv_indptr, work, "
      "work_indptr, combine, part_out, part_lse, out, sm_scale)"));
  EXPECT_TRUE(failsWith(
      prepareWith(replaced(
          kPartialArgs, R"("name": "kv", "kind": "ptr", "type": "bf16")",
          R"("name": "kv", "kind": "ptr", "type": "f8E4M3FN")")),
      "argument 'kv' is ptr f8E4M3FN, expected ptr bf16 for kv dtype "
      "bf16"));
  EXPECT_TRUE(failsWith(
      prepareWith(replaced(kPartialArgs, R"("kind": "scalar", "type": "f32")",
                           R"("kind": "ptr", "type": "f32")")),
      "argument 'sm_scale' is ptr f32, expected scalar f32"));
  EXPECT_TRUE(failsWith(
      prepareWith(extra +
                  R"({"name": "kv_scale", "kind": "ptr", "type": "f32"})"),
      "argument 'kv_scale' has no meaning for kv dtype bf16"));
  EXPECT_TRUE(failsWith(
      prepareWith(extra +
                  R"({"name": "q_splits", "kind": "ptr", "type": "i32"})"),
      "argument 'q_splits' is unknown to the MLA driver"));
  EXPECT_TRUE(failsWith(
      prepareWith(extra +
                  R"({"name": "combine", "kind": "ptr", "type": "i64"})"),
      "argument 'combine' is ptr i64, expected ptr i32 for kv dtype bf16"));

  // Each role needs the arguments it writes through.
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(text,
                          R"({"name": "work", "kind": "ptr", "type": "i32"},)",
                          ""),
                 kernels),
      "kernel 'partial': mla.partial has no 'work' argument"));
  EXPECT_TRUE(failsWith(
      selectFrom(
          replaced(text,
                   R"({"name": "part_lse", "kind": "ptr", "type": "f32"},)",
                   ""),
          kernels),
      "kernel 'partial': mla.partial has no 'part_lse' argument"));
  std::string noOut =
      replaced(text, R"("name": "out", "kind": "ptr", "type": "bf16"}],)",
               R"("name": "kv_indptr", "kind": "ptr", "type": "i32"}],)");
  EXPECT_TRUE(failsWith(selectFrom(noOut, kernels),
                        "kernel 'combine': mla.combine has no 'out' argument"));
  EXPECT_TRUE(failsWith(
      selectFrom(
          replaced(text,
                   R"({"name": "combine", "kind": "ptr", "type": "i32"},)", ""),
          kernels),
      "kernel 'combine': mla.combine has no 'combine' argument"));
}

//===----------------------------------------------------------------------===//
// Generic kernel mode: command-line arguments
//===----------------------------------------------------------------------===//

/// A manifest with one kernel taking every kind of argument.
static const char *const kGenericManifest =
    R"({"target": "host", "binary": "k.so", "kernels": [
  {"symbol": "k", "args": [
     {"name": "a", "kind": "ptr", "type": "bf16"},
     {"name": "h", "kind": "ptr", "type": "f16"},
     {"name": "q", "kind": "ptr", "type": "f8E4M3FNUZ"},
     {"name": "p", "kind": "ptr", "type": "f4E2M1FN"},
     {"name": "n", "kind": "scalar", "type": "i32"},
     {"name": "big", "kind": "scalar", "type": "i64"},
     {"name": "alpha", "kind": "scalar", "type": "f32"}],
   "workgroup_size": [1, 1, 1], "lds_bytes": 0}]})";

TEST(KernelArgs, Syntax) {
  ArgSpec spec;
  EXPECT_TRUE(succeeded(parseArgSpec("x=@in=1.npy", spec)));
  EXPECT_TRUE(spec.name == "x" && spec.value == "@in=1.npy");
  EXPECT_TRUE(
      failsWith(parseArgSpec("x", spec), "--arg: 'x' is not NAME=VALUE"));
  EXPECT_TRUE(failsWith(parseArgSpec("=1", spec),
                        "--arg: '=1' has no name before '='"));
  EXPECT_TRUE(failsWith(parseArgSpec("x=", spec),
                        "--arg: 'x=' has no VALUE after '='"));
  SaveSpec save;
  EXPECT_TRUE(succeeded(parseSaveSpec("y=out/y.npy", save)));
  EXPECT_TRUE(save.name == "y" && save.path == "out/y.npy");
  EXPECT_TRUE(
      failsWith(parseSaveSpec("y", save), "--save: 'y' is not NAME=FILE.npy"));

  std::array<int64_t, 3> grid;
  EXPECT_TRUE(succeeded(parseGrid("7", grid)));
  EXPECT_TRUE(grid == (std::array<int64_t, 3>{7, 1, 1}));
  EXPECT_TRUE(succeeded(parseGrid("2,3", grid)));
  EXPECT_TRUE(grid == (std::array<int64_t, 3>{2, 3, 1}));
  EXPECT_TRUE(succeeded(parseGrid("2147483647,65535,65535", grid)));
  EXPECT_TRUE(grid ==
              (std::array<int64_t, 3>{kMaxGridX, kMaxGridYZ, kMaxGridYZ}));
  EXPECT_TRUE(
      failsWith(parseGrid("2147483648", grid),
                "--grid: dimension x is 2147483648, more than 2147483647"));
  EXPECT_TRUE(failsWith(parseGrid("1,1,65536", grid), "dimension z is 65536"));
  EXPECT_TRUE(failsWith(parseGrid("1,0", grid),
                        "dimension y is 0, expected at least 1"));
  for (const char *bad : {"", "a", "+3", "-1", " 3", "3,", "1.5"})
    EXPECT_TRUE(failsWith(parseGrid(bad, grid), "is not an integer"));
  EXPECT_TRUE(
      failsWith(parseGrid("1,1,1,1", grid), "more than three dimensions"));
  EXPECT_TRUE(
      failsWith(parseGrid("99999999999999999999", grid), "is not an integer"));

  std::vector<int64_t> shape;
  EXPECT_TRUE(parseShape("37x200", shape) &&
              shape == (std::vector<int64_t>{37, 200}));
  EXPECT_TRUE(parseShape("0", shape) && shape == (std::vector<int64_t>{0}));
  for (const char *bad : {"", "x", "3x", "x3", "3X4", "-1", "3 x4", "2,3"})
    EXPECT_TRUE(!parseShape(bad, shape));
}

TEST(KernelArgs, Scalars) {
  Manifest manifest;
  EXPECT_TRUE(
      succeeded(parseManifest(kGenericManifest, "k.so.json", manifest)));
  const KernelInfo &kernel = manifest.kernels[0];
  const KernelArg &n = kernel.args[4], &big = kernel.args[5],
                  &alpha = kernel.args[6];
  ScalarValue value;
  EXPECT_TRUE(succeeded(parseScalar(kernel, n, "-2147483648", value)));
  EXPECT_TRUE(value.i32 == INT32_MIN);
  EXPECT_TRUE(succeeded(parseScalar(kernel, n, "2147483647", value)));
  EXPECT_TRUE(value.i32 == INT32_MAX);
  EXPECT_TRUE(
      failsWith(parseScalar(kernel, n, "2147483648", value),
                "--arg n: '2147483648' is out of range (kernel 'k' takes "
                "scalar i32 'n')"));
  EXPECT_TRUE(
      failsWith(parseScalar(kernel, n, "-2147483649", value), "out of range"));
  for (const char *bad : {"", " 1", "1.0", "0x10", "1e3", "12abc"})
    EXPECT_TRUE(
        failsWith(parseScalar(kernel, n, bad, value), "is not an integer"));
  EXPECT_TRUE(
      succeeded(parseScalar(kernel, big, "-9223372036854775808", value)));
  EXPECT_TRUE(value.i64 == INT64_MIN);
  EXPECT_TRUE(failsWith(parseScalar(kernel, big, "9223372036854775808", value),
                        "--arg big: '9223372036854775808' is out of range"));
  EXPECT_TRUE(succeeded(parseScalar(kernel, alpha, "0.125", value)));
  EXPECT_TRUE(value.f32 == 0.125f);
  EXPECT_TRUE(succeeded(parseScalar(kernel, alpha, "-inf", value)));
  EXPECT_TRUE(std::isinf(value.f32) && value.f32 < 0);
  EXPECT_TRUE(succeeded(parseScalar(kernel, alpha, "nan", value)));
  EXPECT_TRUE(std::isnan(value.f32));
  // Underflow to a subnormal or zero is a value, overflow is not.
  EXPECT_TRUE(succeeded(parseScalar(kernel, alpha, "1e-50", value)));
  EXPECT_TRUE(value.f32 == 0);
  EXPECT_TRUE(
      failsWith(parseScalar(kernel, alpha, "-1e39", value),
                "--arg alpha: '-1e39' is out of range (kernel 'k' takes "
                "scalar f32 'alpha')"));
  for (const char *bad : {"", " 1", "1f", "one"})
    EXPECT_TRUE(
        failsWith(parseScalar(kernel, alpha, bad, value), "is not a number"));
}

TEST(KernelArgs, Bind) {
  const std::string &scratch = scratchDirectory;
  Manifest manifest;
  EXPECT_TRUE(
      succeeded(parseManifest(kGenericManifest, "k.so.json", manifest)));
  const KernelInfo *kernel = nullptr;
  EXPECT_TRUE(succeeded(findKernel(manifest, "k", kernel)));
  EXPECT_TRUE(failsWith(findKernel(manifest, "kk", kernel),
                        "k.so.json: no kernel 'kk' (the module has k)"));
  EXPECT_TRUE(kernel == &manifest.kernels[0]);

  ElementLayout layout;
  EXPECT_TRUE(getElementLayout("f32", layout) && layout.poison == 0xFFFFFFFF);
  EXPECT_TRUE(getElementLayout("i64", layout) &&
              layout.dtype == NpyDType::Int64 &&
              layout.poison == 0x7FFFFFFFFFFFFFFF);
  EXPECT_TRUE(getElementLayout("i8", layout) &&
              layout.dtype == NpyDType::Int8 &&
              layout.alternative == NpyDType::UInt8 && layout.poison == 0x7F);
  EXPECT_TRUE(getElementLayout("f8E8M0FNU", layout) && layout.poison == 0xFF);
  EXPECT_TRUE(!getElementLayout("f4E2M1FN", layout));
  EXPECT_TRUE(!getElementLayout("f64", layout));

  std::string f16Path = scratch + "/h.npy", u16Path = scratch + "/u.npy";
  std::vector<uint16_t> halves = {0x3C00, 0x4000, 0xC000};
  EXPECT_TRUE(
      succeeded(writeNpy(f16Path, NpyDType::Float16, {3}, halves.data())));
  EXPECT_TRUE(
      succeeded(writeNpy(u16Path, NpyDType::UInt16, {3}, halves.data())));
  // The kernel without its f4 argument, which has no .npy form.
  KernelInfo usable = *kernel;
  usable.args.erase(usable.args.begin() + 3);
  std::vector<ArgSpec> specs = {{"alpha", "0.5"},     {"a", "@" + u16Path},
                                {"h", "@" + f16Path}, {"q", "empty:2x3"},
                                {"n", "-3"},          {"big", "4"}};
  std::vector<BoundArg> bound;
  EXPECT_TRUE(succeeded(bindArgs(usable, specs, bound)));
  EXPECT_TRUE(bound.size() == 6 && bound[0].arg == &usable.args[0]);
  EXPECT_TRUE(bound[0].buffer.dtype == NpyDType::UInt16 &&
              bound[0].buffer.elementsAs<uint16_t>() == halves);
  EXPECT_TRUE(bound[1].buffer.dtype == NpyDType::Float16);
  EXPECT_TRUE(bound[2].buffer.dtype == NpyDType::UInt8 &&
              bound[2].buffer.shape == (std::vector<int64_t>{2, 3}) &&
              bound[2].buffer.bytes == std::vector<uint8_t>(6, 0x80));
  EXPECT_TRUE(bound[3].scalar.i32 == -3 && bound[4].scalar.i64 == 4 &&
              bound[5].scalar.f32 == 0.5f);
  // f16 also takes uint16 bits.
  specs[2].value = "@" + u16Path;
  EXPECT_TRUE(succeeded(bindArgs(usable, specs, bound)));

  auto bindWith = [&](std::vector<ArgSpec> changed) {
    std::vector<BoundArg> result;
    return bindArgs(usable, changed, result);
  };
  std::vector<ArgSpec> missing(specs.begin(), specs.end() - 1);
  EXPECT_TRUE(failsWith(
      bindWith(missing),
      "--arg: argument 'big' (scalar i64) of kernel 'k' is not bound"));
  std::vector<ArgSpec> twice = specs;
  twice.push_back({"n", "4"});
  EXPECT_TRUE(
      failsWith(bindWith(twice),
                "--arg n: argument 'n' of kernel 'k' is bound more than once"));
  std::vector<ArgSpec> unknown = specs;
  unknown.insert(unknown.begin(), {"m", "4"});
  EXPECT_TRUE(failsWith(bindWith(unknown),
                        "--arg m: kernel 'k' has no argument 'm' "
                        "(its arguments: a, h, q, n, big, alpha)"));
  std::vector<ArgSpec> changed = specs;
  changed[1].value = "@" + f16Path;
  EXPECT_TRUE(
      failsWith(bindWith(changed),
                f16Path + ": dtype float16, expected uint16 (kernel 'k' takes "
                          "ptr bf16 'a')"));
  changed = specs;
  changed[3].value = "empty:2x";
  EXPECT_TRUE(
      failsWith(bindWith(changed), "--arg q: 'empty:2x' is not a shape"));
  changed[3].value = "2x3";
  EXPECT_TRUE(failsWith(bindWith(changed),
                        "--arg q: '2x3' is not @FILE.npy or empty:D0xD1x..."));
  changed[3].value = "empty:0";
  EXPECT_TRUE(succeeded(bindWith(changed)));
  changed[3].value = "empty:1099511627777";
  EXPECT_TRUE(failsWith(bindWith(changed), "is more than 2^40 bytes"));
  changed = specs;
  changed[4].value = "@" + u16Path;
  EXPECT_TRUE(failsWith(bindWith(changed),
                        "--arg n: '@" + u16Path + "' is not an integer"));
  std::vector<ArgSpec> withFp4 = specs;
  withFp4.push_back({"p", "empty:4"});
  EXPECT_TRUE(failsWith(bindArgs(*kernel, withFp4, bound),
                        "--arg p: no .npy dtype holds f4E2M1FN elements"));

  EXPECT_TRUE(succeeded(
      checkSaves(usable, {{"a", scratch + "/a.npy"}, {"q", "q.npy"}})));
  EXPECT_TRUE(
      failsWith(checkSaves(usable, {{"n", "n.npy"}}),
                "--save n: argument 'n' of kernel 'k' is scalar i32, not a "
                "buffer"));
  EXPECT_TRUE(failsWith(checkSaves(usable, {{"z", "z.npy"}}),
                        "--save z: kernel 'k' has no argument 'z'"));
  EXPECT_TRUE(failsWith(checkSaves(usable, {{"a", "1.npy"}, {"a", "2.npy"}}),
                        "--save a: given more than once"));
  EXPECT_TRUE(
      failsWith(checkSaves(usable, {{"a", scratch + "/none/a.npy"}}),
                "--save a: directory '" + scratch + "/none/' does not exist"));
}

TEST(Backend, BenchmarkLaunches) {
  llvm::ThreadPoolInterface &pool = testPool();
  std::unique_ptr<Backend> backend = createHostBackend(pool);
  int launches = 0;
  double median = -1;
  EXPECT_TRUE(succeeded(benchmarkLaunches(
      *backend, 2, 3,
      [&] {
        ++launches;
        return Status::success();
      },
      median)));
  EXPECT_TRUE(launches == 5 && median >= 0);
  EXPECT_TRUE(
      failsWith(benchmarkLaunches(
                    *backend, 0, 3,
                    [] { return Status::failure("launch", "failed"); }, median),
                "launch: failed"));

  // Every backend checks the grid it is given.
  Manifest manifest;
  ASSERT_TRUE(succeeded(
      parseManifest(manifestText(kPartialArgs), "m.so.json", manifest)));
  const KernelInfo &kernel = manifest.kernels[0];
  EXPECT_TRUE(succeeded(checkLaunchGrid(kernel, {kMaxGridX, 1, kMaxGridYZ})));
  EXPECT_TRUE(failsWith(checkLaunchGrid(kernel, {1, 0, 1}),
                        "partial: grid dimension y is 0, expected 1..65535"));
  EXPECT_TRUE(failsWith(checkLaunchGrid(kernel, {1, 1, 65536}),
                        "grid dimension z is 65536"));
  EXPECT_TRUE(failsWith(checkLaunchGrid(kernel, {kMaxGridX + 1, 1, 1}),
                        "grid dimension x is 2147483648, expected "
                        "1..2147483647"));
  std::vector<void *> args(kernel.args.size(), nullptr);
  EXPECT_TRUE(failsWith(backend->launch(kernel, {1, 1, 0}, args.data()),
                        "grid dimension z is 0"));
}

//===----------------------------------------------------------------------===//
// LaunchPlan
//===----------------------------------------------------------------------===//

static std::vector<int32_t> offsets(const std::vector<int32_t> &lengths) {
  std::vector<int32_t> result = {0};
  for (int32_t length : lengths)
    result.push_back(result.back() + length);
  return result;
}

/// Checks the plan's invariants against docs/ABI.md: for each row block of
/// a sequence with queries, n <= maxSplits ranges, tile-aligned,
/// consecutive and numbered 0..n-1, every key read exactly once; row
/// blocks aligned and covering the rows once; the sequence's split count
/// the most of its blocks' (all of them in reproducible mode, where every
/// block reads the same ranges), part rows at the sequence's base (a
/// prefix sum over sequences with more than one split); combine items
/// covering once the rows of the blocks with n > 1, and no others; nothing
/// for sequences without queries; the blocks of a range adjacent; programs
/// covering the items in order, none empty: reproducible, one item each,
/// longest ranges first; throughput, at most `parallelism`, over the items
/// in batch order, a sequence's blocks in turn.
static bool planIsValid(const LaunchPlan &plan, const std::vector<int32_t> &qo,
                        const std::vector<int32_t> &kv,
                        const PlanOptions &options) {
  int64_t batch = static_cast<int64_t>(qo.size()) - 1;
  bool reproducible = options.mode == PlanMode::Reproducible;
  bool valid = plan.numSplits.size() == static_cast<size_t>(batch) &&
               plan.partBase.size() == static_cast<size_t>(batch);
  if (!valid)
    return false;
  std::map<int32_t, std::vector<WorkItem>> bySeq;
  for (const WorkItem &item : plan.items)
    bySeq[item.seq].push_back(item);
  std::map<int32_t, std::vector<CombineItem>> combineBySeq;
  for (const CombineItem &item : plan.combineItems) {
    // Sequences are found by their output rows.
    int32_t seq = 0;
    while (seq < batch && qo[seq + 1] * options.heads <= item.outRow)
      ++seq;
    combineBySeq[seq].push_back(item);
  }
  int64_t partRows = 0;
  for (int32_t b = 0; b < batch; ++b) {
    int64_t rows = (qo[b + 1] - qo[b]) * options.heads;
    int64_t kvLen = kv[b + 1] - kv[b];
    int32_t n = plan.numSplits[b];
    std::vector<WorkItem> &items = bySeq[b];
    if (rows == 0) {
      valid &= n == 0 && items.empty() && combineBySeq[b].empty() &&
               plan.partBase[b] == -1;
      continue;
    }
    valid &= n >= 1 && n <= options.maxSplits;
    valid &= kvLen > 0 || n == 1;
    int64_t base = n > 1 ? partRows : -1;
    valid &= plan.partBase[b] == base;
    if (n > 1)
      partRows += n * rows;
    int64_t blocks = (rows + options.blockRows - 1) / options.blockRows;
    // Per row block: its split count, which keys it reads, its ranges.
    std::vector<int32_t> blockSplits(blocks, 0);
    std::vector<std::vector<int>> reads(blocks, std::vector<int>(kvLen, 0));
    std::vector<std::map<int32_t, std::pair<int32_t, int32_t>>> ranges(blocks);
    for (const WorkItem &item : items) {
      valid &= item.rowBegin >= 0 && item.rowBegin < rows &&
               item.rowBegin % options.blockRows == 0;
      if (!valid)
        return false;
      int64_t block = item.rowBegin / options.blockRows;
      int32_t &splits = blockSplits[block];
      if (splits == 0)
        splits = item.numSplits;
      valid &= item.numSplits == splits && splits <= n && item.split >= 0 &&
               item.split < splits && item.reserved == 0;
      valid &= item.kvBegin >= kv[b] && item.kvBegin <= item.kvEnd &&
               item.kvEnd <= kv[b + 1];
      valid &= (item.kvBegin - kv[b]) % options.kvTile == 0;
      valid &= item.partRow == (splits > 1 ? base + item.split * rows : -1);
      valid &= ranges[block].emplace(item.split, std::make_pair(item.kvBegin,
                                                                item.kvEnd))
                   .second;
      if (!valid)
        return false;
      for (int32_t key = item.kvBegin; key < item.kvEnd; ++key)
        ++reads[block][key - kv[b]];
    }
    int32_t most = 0;
    for (int64_t block = 0; block < blocks; ++block) {
      int32_t splits = blockSplits[block];
      most = std::max(most, splits);
      valid &= splits >= 1 && ranges[block].size() == size_t(splits);
      valid &= !reproducible || splits == n;
      for (int count : reads[block])
        valid &= count == 1;
      // Splits in key order, none empty unless the sequence is; in
      // reproducible mode the same for every block.
      for (int32_t s = 0; s < splits && valid; ++s) {
        auto range = ranges[block][s];
        valid &= range.first == (s == 0 ? kv[b] : ranges[block][s - 1].second) &&
                 (kvLen == 0 || range.second > range.first);
        valid &= !reproducible || range == ranges[0][s];
      }
    }
    valid &= most == n;
    if (!valid)
      return false;
    // Combine items: the rows of the blocks with several splits, once, in
    // combine blocks from the start of the rows that share their ranges
    // (the sequence's in reproducible mode, a row block's in throughput
    // mode), the last of them shorter.
    std::vector<int> merged(rows, 0);
    for (const CombineItem &item : combineBySeq[b]) {
      int64_t row = item.outRow - qo[b] * options.heads;
      valid &= row >= 0 && row < rows;
      if (!valid)
        return false;
      int64_t laneBegin =
          reproducible ? 0 : row / options.blockRows * options.blockRows;
      int64_t laneEnd =
          reproducible ? rows
                       : std::min<int64_t>(rows, laneBegin + options.blockRows);
      valid &= (row - laneBegin) % options.combineBlockRows == 0 &&
               item.rows == std::min<int64_t>(options.combineBlockRows,
                                              laneEnd - row);
      if (!valid)
        return false;
      for (int64_t r = row; r < row + item.rows; ++r) {
        ++merged[r];
        valid &= blockSplits[r / options.blockRows] == item.numSplits;
      }
      valid &= item.numSplits > 1 && item.partRow == base + row &&
               item.splitStride == rows && item.reserved[0] == 0 &&
               item.reserved[1] == 0 && item.reserved[2] == 0;
    }
    for (int64_t r = 0; r < rows; ++r)
      valid &= merged[r] == (blockSplits[r / options.blockRows] > 1 ? 1 : 0);
  }
  valid &= plan.partRows == partRows;
  // A range: one split of a sequence's blocks in reproducible mode, of one
  // block in throughput mode.
  auto rangeOf = [&](const WorkItem &item) {
    return std::make_tuple(item.seq, reproducible ? 0 : item.rowBegin,
                           item.split);
  };
  for (size_t i = 1; i < plan.items.size(); ++i) {
    const WorkItem &a = plan.items[i - 1], &b = plan.items[i];
    if (reproducible)
      valid &= a.kvEnd - a.kvBegin >= b.kvEnd - b.kvBegin;
    else
      valid &= rangeOf(a) <= rangeOf(b);
    // The blocks of one range are adjacent.
    bool sameRange = rangeOf(a) == rangeOf(b);
    for (size_t j = i + 1; j < plan.items.size() && !sameRange; ++j)
      valid &= rangeOf(plan.items[j]) != rangeOf(a);
  }
  const std::vector<int32_t> &runs = plan.workIndptr;
  valid &= !runs.empty() && runs.front() == 0 &&
           runs.back() == static_cast<int32_t>(plan.items.size());
  for (size_t p = 1; p < runs.size(); ++p)
    valid &= runs[p] > runs[p - 1] && (!reproducible || runs[p] == runs[p - 1] + 1);
  valid &= reproducible || plan.programs() <= options.parallelism;
  return valid;
}

static PlanOptions gpuLikeOptions(PlanMode mode, int64_t parallelism,
                                  int64_t maxSplits, int64_t heads = 16) {
  MlaProblem shape = makeBf16Problem(heads, {1}, {0});
  MlaKernels kernels;
  kernels.maxSplits = maxSplits;
  return planOptionsFor(shape, kernels, mode, parallelism);
}

static LaunchPlan plan(const std::vector<int32_t> &qLens,
                       const std::vector<int32_t> &kvLens,
                       const PlanOptions &options) {
  LaunchPlan result;
  EXPECT_TRUE(
      succeeded(planSplitKv(offsets(qLens), offsets(kvLens), options, result)));
  return result;
}

/// Sequence `seq`'s work items relative to its first KV row, in a fixed
/// order: what a reproducible plan must not change between batches.
static std::vector<std::array<int32_t, 6>>
itemsOf(const LaunchPlan &plan, const std::vector<int32_t> &kvLens,
        int32_t seq) {
  int32_t start = offsets(kvLens)[seq];
  std::vector<std::array<int32_t, 6>> result;
  for (const WorkItem &item : plan.items)
    if (item.seq == seq)
      result.push_back(
          {item.kvBegin - start, item.kvEnd - start, item.split, item.numSplits,
           item.rowBegin,
           item.partRow - static_cast<int32_t>(plan.partBase[seq])});
  std::sort(result.begin(), result.end());
  return result;
}

TEST(LaunchPlan, Plans) {
  // Invariants over ragged batches, edge lengths, both modes, several
  // devices and tilings.
  std::vector<int32_t> lengths = {0, 1, 63, 64, 65, 1000, 8192, 0, 4097, 130};
  std::vector<int32_t> qLens = {1, 2, 4, 3, 1, 0, 4, 2, 1, 1};
  for (PlanMode mode : {PlanMode::Reproducible, PlanMode::Throughput})
    for (int64_t parallelism : {1, 2, 16, 264})
      for (int64_t maxSplits : {1, 4, 16})
        for (int64_t heads : {16, 32}) {
          PlanOptions options =
              gpuLikeOptions(mode, parallelism, maxSplits, heads);
          std::vector<int32_t> qo = offsets(qLens), kv = offsets(lengths);
          LaunchPlan result;
          EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
          EXPECT_TRUE(planIsValid(result, qo, kv, options));
          EXPECT_TRUE(result.mode == mode && result.maxSplitsUsed <= maxSplits);
        }
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 64, 16, 32);
    options.kvTile = 32;
    options.blockRows = 48;
    options.combineBlockRows = 7;
    std::vector<int32_t> qo = offsets(qLens), kv = offsets(lengths);
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_TRUE(planIsValid(result, qo, kv, options) &&
                result.maxSplitsUsed > 1);
  }

  // The invariants catch plans that read a key twice or not at all, or
  // that put partials in the wrong rows.
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 64, 16, 32);
    std::vector<int32_t> qo = offsets({3, 4}), kv = offsets({1000, 70});
    LaunchPlan valid;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, valid)));
    EXPECT_TRUE(planIsValid(valid, qo, kv, options) &&
                valid.maxSplitsUsed > 1 && valid.items[0].numSplits > 1);
    LaunchPlan twice = valid;
    twice.items.push_back(twice.items.back());
    LaunchPlan shifted = valid;
    shifted.items[0].kvBegin += 1;
    LaunchPlan misplaced = valid;
    misplaced.items[0].partRow += 1;
    LaunchPlan uncombined = valid;
    uncombined.combineItems.pop_back();
    LaunchPlan unrun = valid;
    unrun.workIndptr.back() -= 1;
    // The same rows merged, but not in combine blocks.
    LaunchPlan regrouped = valid;
    CombineItem first = regrouped.combineItems.front();
    regrouped.combineItems.front().rows = 1;
    first.partRow += 1;
    first.outRow += 1;
    first.rows -= 1;
    regrouped.combineItems.insert(regrouped.combineItems.begin() + 1, first);
    for (const LaunchPlan *broken :
         {&twice, &shifted, &misplaced, &uncombined, &unrun, &regrouped})
      EXPECT_TRUE(!planIsValid(*broken, qo, kv, options));
  }

  // Reproducible: a sequence's ranges follow from its length alone.
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Reproducible, 1, 16);
    LaunchPlan alone = plan({2}, {5000}, options);
    // 79 tiles in ceil(79 / 16) = 5 ranges of 16, 16, 16, 16 and 15 tiles.
    EXPECT_TRUE(alone.numSplits == std::vector<int32_t>{5} &&
                alone.programs() == 5 && alone.combineItems.size() == 2);
    EXPECT_TRUE(
        itemsOf(alone, {5000}, 0) ==
        (std::vector<std::array<int32_t, 6>>{{0, 1024, 0, 5, 0, 0},
                                             {1024, 2048, 1, 5, 0, 32},
                                             {2048, 3072, 2, 5, 0, 64},
                                             {3072, 4096, 3, 5, 0, 96},
                                             {4096, 5000, 4, 5, 0, 128}}));
    std::vector<int32_t> kvLens = {300, 5000, 0, 20000, 5000, 64};
    std::vector<int32_t> batchQ = {4, 2, 1, 3, 2, 1};
    for (int64_t parallelism : {1, 2, 7, 264}) {
      options.parallelism = parallelism;
      LaunchPlan batch = plan(batchQ, kvLens, options);
      EXPECT_TRUE(itemsOf(batch, kvLens, 1) == itemsOf(alone, {5000}, 0));
      EXPECT_TRUE(itemsOf(batch, kvLens, 4) == itemsOf(alone, {5000}, 0));
      EXPECT_TRUE(batch.numSplits == (std::vector<int32_t>{1, 5, 1, 16, 5, 1}));
    }
    // The cap bounds long sequences; a smaller tile makes more, smaller
    // ranges of the same length in rows.
    options.maxSplits = 4;
    EXPECT_TRUE(plan({1}, {20000}, options).numSplits ==
                std::vector<int32_t>{4});
    options.maxSplits = 16;
    options.kvTile = 16;
    LaunchPlan fine = plan({1}, {5000}, options);
    EXPECT_TRUE(fine.numSplits == std::vector<int32_t>{5} &&
                fine.items.front().kvEnd - fine.items.front().kvBegin ==
                    63 * 16);
  }

  // The partial buffers of (batch 128, q_len 4, kv_len 8192, heads 16):
  // reproducible, 8 splits of 64 rows per sequence, half of the
  // 128 * 4 * 16 * 16 rows of a [total_q, max_splits, heads] layout, one
  // program per item; throughput, one unsplit sequence per program when
  // the device runs 128 at once, and on an H200's 132 SMs at two programs
  // each, every sequence in two halves (256 programs: a third range would
  // cost more than the 8 programs it could fill).
  {
    std::vector<int32_t> qLens128(128, 4), kvLens128(128, 8192);
    LaunchPlan reproducible = plan(
        qLens128, kvLens128, gpuLikeOptions(PlanMode::Reproducible, 1, 16));
    EXPECT_EQ(reproducible.partRows, 128 * 8 * 64);
    EXPECT_EQ(reproducible.partialBytes(), 134479872);
    EXPECT_EQ(reproducible.items.size(), 1024u);
    EXPECT_EQ(reproducible.programs(), 1024);
    EXPECT_EQ(reproducible.combineItems.size(), 128u * 4);
    LaunchPlan filled = plan(qLens128, kvLens128,
                             gpuLikeOptions(PlanMode::Throughput, 128, 16));
    EXPECT_EQ(filled.partRows, 0);
    EXPECT_EQ(filled.programs(), 128);
    EXPECT_TRUE(filled.combineItems.empty());
    PlanOptions h200Options = gpuLikeOptions(PlanMode::Throughput, 264, 16);
    LaunchPlan h200 = plan(qLens128, kvLens128, h200Options);
    EXPECT_TRUE(planIsValid(h200, offsets(qLens128), offsets(kvLens128),
                            h200Options));
    EXPECT_EQ(h200.programs(), 256);
    EXPECT_EQ(h200.maxSplitsUsed, 2);
    EXPECT_EQ(h200.partRows, 128 * 2 * 64);
    int64_t most = 0;
    for (int64_t p = 0; p < h200.programs(); ++p) {
      int64_t keys = 0;
      for (int32_t i = h200.workIndptr[p]; i < h200.workIndptr[p + 1]; ++i)
        keys += h200.items[i].kvEnd - h200.items[i].kvBegin;
      most = std::max(most, keys);
    }
    EXPECT_LE(most, 64 * 64);
  }

  // Throughput: few short sequences on a wide device are cut down to the
  // fewest keys a range may have, 1024 / 16 (max_splits) here.
  {
    LaunchPlan result = plan({1, 1, 1, 1}, {1024, 1024, 1024, 1024},
                             gpuLikeOptions(PlanMode::Throughput, 264, 16));
    EXPECT_EQ(result.programs(), 64);
    EXPECT_EQ(result.maxSplitsUsed, 16);
    EXPECT_EQ(result.combineItems.size(), 4u);
    for (const WorkItem &item : result.items)
      EXPECT_EQ(item.kvEnd - item.kvBegin, 64);
  }
  // Throughput: the row blocks of a sequence are cut on their own, so that
  // few sequences of several blocks fill the device. (batch 4, q_len 4,
  // kv_len 8192, heads 32) in 64-row blocks on 132 SMs: 16 ranges of 16
  // tiles for each of the 8 blocks, where cutting each sequence's two
  // blocks together would stop at 4 * 16 programs. Each block's rows are
  // merged over its own ranges.
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 132, 16, 32);
    options.kvTile = 32;
    std::vector<int32_t> qo = offsets({4, 4, 4, 4}),
                         kv = offsets({8192, 8192, 8192, 8192});
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_TRUE(planIsValid(result, qo, kv, options));
    EXPECT_EQ(result.programs(), 128);
    EXPECT_EQ(result.items.size(), 128u);
    EXPECT_EQ(result.maxSplitsUsed, 16);
    EXPECT_EQ(result.partRows, 4 * 16 * 128);
    EXPECT_EQ(result.combineItems.size(), 4u * 128 / 16);
    for (const WorkItem &item : result.items)
      EXPECT_EQ(item.kvEnd - item.kvBegin, 512);
  }
  // Ragged: the long sequence is split, the short ones are not, and no
  // program takes much more than its share (8.2) of the 131 tiles: at
  // most the 15 that two ranges of at least 8 (128 / max_splits) could
  // not share.
  {
    std::vector<int32_t> qo = offsets({1, 1, 1, 1}),
                         kv = offsets({8192, 64, 64, 64});
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 16, 16);
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_TRUE(planIsValid(result, qo, kv, options));
    for (int64_t p = 0; p < result.programs(); ++p) {
      int64_t keys = 0;
      for (int32_t i = result.workIndptr[p]; i < result.workIndptr[p + 1]; ++i)
        keys += result.items[i].kvEnd - result.items[i].kvBegin;
      EXPECT_LE(keys, 15 * 64);
    }
    EXPECT_GE(result.numSplits[0], 8);
    EXPECT_EQ(result.numSplits[1], 1);
    EXPECT_EQ(result.numSplits[3], 1);
  }
  // One host thread: one program runs every sequence, unsplit.
  {
    LaunchPlan result =
        plan({1, 1}, {4096, 100}, gpuLikeOptions(PlanMode::Throughput, 1, 16));
    EXPECT_EQ(result.programs(), 1);
    EXPECT_EQ(result.items.size(), 2u);
    EXPECT_EQ(result.maxSplitsUsed, 1);
    EXPECT_EQ(result.partRows, 0);
  }
  // No KV anywhere: one empty range per row block, so that the partial
  // kernel writes the zeros, and nothing to combine.
  for (PlanMode mode : {PlanMode::Reproducible, PlanMode::Throughput}) {
    LaunchPlan result = plan({2, 0, 4}, {0, 0, 0}, gpuLikeOptions(mode, 8, 4));
    EXPECT_TRUE(result.items.size() == 2 && result.combineItems.empty());
    EXPECT_TRUE(result.numSplits == (std::vector<int32_t>{1, 0, 1}));
    EXPECT_TRUE(result.partRows == 0 && result.partialBytes() == 0);
    bool empty = true;
    for (const WorkItem &item : result.items)
      empty &= item.kvBegin == 0 && item.kvEnd == 0 && item.partRow == -1;
    EXPECT_TRUE(empty);
  }
  // No sequence at all.
  {
    LaunchPlan result =
        plan({}, {}, gpuLikeOptions(PlanMode::Throughput, 8, 4));
    EXPECT_TRUE(result.items.empty() && result.numSplits.empty());
  }

  // Row indices must fit the kernels' int32 fields.
  {
    LaunchPlan result;
    EXPECT_TRUE(failsWith(
        planSplitKv({0, 1 << 27}, {0, 1},
                    gpuLikeOptions(PlanMode::Reproducible, 1, 16), result),
        "launch plan: more than 2^31 - 1 query rows"));
    EXPECT_TRUE(failsWith(
        planSplitKv({0, 1 << 24}, {0, 1 << 20},
                    gpuLikeOptions(PlanMode::Reproducible, 1, 16), result),
        "launch plan: the partial buffers would need more than 2^31 "
        "- 1 rows"));
    // The throughput plan halves its split cap until the part rows fit:
    // 16 splits of 2^27 rows would need 2^31, 8 fit.
    PlanOptions kvOnly = gpuLikeOptions(PlanMode::Throughput, 264, 16);
    kvOnly.blockRows = kvOnly.combineBlockRows = INT32_MAX;
    kvOnly.queryRowBytes = kvOnly.outRowBytes = kvOnly.partialRowBytes = 0;
    kvOnly.programLatencyBytes = 0;
    EXPECT_TRUE(
        succeeded(planSplitKv({0, 1 << 23}, {0, 1 << 20}, kvOnly, result)));
    EXPECT_EQ(result.maxSplitsUsed, 8);
    EXPECT_EQ(result.partRows, 8 * (1 << 27));
  }
  // Out-of-range options are clamped rather than overflowing.
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 4, 16);
    options.kvTile = INT64_MAX;
    options.blockRows = INT64_MAX;
    std::vector<int32_t> qo = offsets({1, 2}), kv = offsets({100, 3000});
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_TRUE(result.items.size() == 2 && result.maxSplitsUsed == 1);
  }
  // More work items than a grid dimension holds fail before the list is
  // built: 2^21 splits of 1024 one-row blocks would be 64 GiB of items.
  {
    PlanOptions options =
        gpuLikeOptions(PlanMode::Reproducible, 4, INT32_MAX, /*heads=*/128);
    options.kvTile = 1;
    options.blockRows = 1;
    std::vector<int32_t> qo = offsets({8}), kv = offsets({INT32_MAX});
    LaunchPlan result;
    EXPECT_TRUE(failsWith(planSplitKv(qo, kv, options, result),
                          "launch plan: more than 2^31 - 1 work items"));
  }

  PlanMode mode;
  EXPECT_TRUE(parsePlanMode("throughput", mode) &&
              mode == PlanMode::Throughput);
  EXPECT_TRUE(parsePlanMode("reproducible", mode) &&
              mode == PlanMode::Reproducible);
  EXPECT_TRUE(!parsePlanMode("fast", mode));
}

TEST(Parallel, ParallelFor) {
  for (unsigned threads : {1u, 2u, 5u}) {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(threads));
    EXPECT_TRUE(pool.getMaxConcurrency() == threads);
    // Several loops on one pool, each visiting every index once.
    for (int64_t count : {0, 1, 7, 1000}) {
      std::vector<std::atomic<int>> visits(count);
      parallelFor(pool, count, [&](int64_t i) { ++visits[i]; });
      bool once = true;
      for (const std::atomic<int> &v : visits)
        once &= v.load() == 1;
      EXPECT_TRUE(once);
    }
  }
  EXPECT_TRUE(llvm::StdThreadPool().getMaxConcurrency() >= 1);
}

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: mla-runtime-tests [GTEST_FLAGS] SCRATCH_DIR\n");
    return 2;
  }
  scratchDirectory = argv[1];
  return RUN_ALL_TESTS();
}
