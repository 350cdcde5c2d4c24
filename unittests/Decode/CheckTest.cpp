//===- CheckTest.cpp - The output check against the reference -------------===//

#include "TestSupport.h"

#include "mla/Decode/Check.h"
#include "mla/Runtime/Formats.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <vector>

using namespace mla::decode;
using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

TEST(Check, CompareWithReference) {
  std::vector<double> reference = {1.0, -2.0, 0.5, 0.0};
  std::vector<uint16_t> out;
  for (double value : reference)
    out.push_back(floatToBf16(static_cast<float>(value)));
  CheckResult exact = compareWithReference(out.data(), reference.data(), 4);
  EXPECT_TRUE(exact.passed());
  EXPECT_EQ(exact.relativeFrobenius, 0);
  EXPECT_EQ(exact.maxAbsError, 0);
  EXPECT_EQ(exact.summary(),
            "check: rel_fro=0.0e+00 max_abs=0.0e+00 outside_tol=0/4 nan=0 "
            "PASS");

  out[1] = floatToBf16(-2.1f);
  CheckResult off = compareWithReference(out.data(), reference.data(), 4);
  EXPECT_FALSE(off.passed());
  EXPECT_EQ(off.outsideTolerance, 1);
  EXPECT_EQ(off.nanCount, 0);
  EXPECT_TRUE(near(off.maxAbsError, 0.1, 1e-2));

  out[1] = 0xFFFF;
  CheckResult nan = compareWithReference(out.data(), reference.data(), 4);
  EXPECT_FALSE(nan.passed());
  EXPECT_EQ(nan.nanCount, 1);
  EXPECT_EQ(nan.outsideTolerance, 1);
  EXPECT_TRUE(std::isnan(nan.maxAbsError));
}

} // namespace
