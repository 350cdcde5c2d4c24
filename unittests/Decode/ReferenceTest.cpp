//===- ReferenceTest.cpp - The float64 reference of MLA decode ------------===//

#include "TestSupport.h"

#include "mla/Decode/Problem.h"
#include "mla/Decode/Reference.h"
#include "mla/Runtime/Formats.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <vector>

using namespace mla::decode;
using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

void setKv(MlaProblem &problem, int64_t row, int64_t dim, float value) {
  uint16_t bits = floatToBf16(value);
  problem.kv[(row * kQkDim + dim) * 2] = static_cast<uint8_t>(bits & 0xFF);
  problem.kv[(row * kQkDim + dim) * 2 + 1] = static_cast<uint8_t>(bits >> 8);
}

void setQ(MlaProblem &problem, int64_t row, int64_t head, int64_t dim,
          float value) {
  problem.q[(row * problem.heads + head) * kQkDim + dim] = floatToBf16(value);
}

double outAt(const MlaProblem &problem, const std::vector<double> &out,
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
    EXPECT_EQ(out.size(), static_cast<size_t>(16 * kVDim));
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
    EXPECT_EQ(outAt(problem, out, 0, 0, 0), 0.0);
    EXPECT_EQ(outAt(problem, out, 1, 0, 0), 0.0);
    EXPECT_TRUE(near(outAt(problem, out, 2, 0, 0), 4.0));
    EXPECT_TRUE(near(outAt(problem, out, 3, 0, 0), 6.0));
  }
  // kv_len 0 next to a non-empty sequence.
  {
    MlaProblem problem = makeBf16Problem(16, {1, 1}, {0, 1});
    setKv(problem, 0, 0, 3.0f);
    std::vector<double> out = computeReference(problem, pool);
    EXPECT_EQ(outAt(problem, out, 0, 0, 0), 0.0);
    EXPECT_EQ(outAt(problem, out, 0, 15, 511), 0.0);
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
    EXPECT_EQ(row[0], 1.0);
    EXPECT_EQ(row[1], 6.0);
    EXPECT_EQ(row[2], 0.0);
    EXPECT_EQ(row[32], -6.0);
    std::vector<double> out = computeReference(problem, pool);
    EXPECT_TRUE(near(outAt(problem, out, 0, 0, 1), 6.0));
    EXPECT_TRUE(near(outAt(problem, out, 0, 0, 32), -6.0));

    problem.mxScale[17] = kE8M0NaN; // a rope block: every score is NaN
    out = computeReference(problem, pool);
    EXPECT_TRUE(std::isnan(outAt(problem, out, 0, 0, 0)));
    EXPECT_TRUE(std::isnan(outAt(problem, out, 0, 15, 511)));
  }
}

} // namespace
