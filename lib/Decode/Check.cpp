//===- Check.cpp - Compare kernel output with the reference ---------------===//

#include "mla/Decode/Check.h"
#include "mla/Runtime/Formats.h"
#include "mla/Runtime/Status.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mla::runtime;

namespace mla::decode {

std::string CheckResult::summary() const {
  // fabs: printf spells a NaN with the sign bit set "-nan". printf's %.1e
  // rather than formatv's {0:e1}, which spells infinity "INF".
  return llvm::formatv("check: rel_fro={0} max_abs={1} outside_tol={2}/{3} "
                       "nan={4} {5}",
                       llvm::format("%.1e", std::fabs(relativeFrobenius)),
                       llvm::format("%.1e", std::fabs(maxAbsError)),
                       outsideTolerance, count, nanCount,
                       passed() ? "PASS" : "FAIL")
      .str();
}

CheckResult compareWithReference(const uint16_t *out, const double *reference,
                                 int64_t count) {
  CheckResult result;
  result.count = count;
  double errorSquares = 0, referenceSquares = 0;
  for (int64_t i = 0; i < count; ++i) {
    double value = bf16ToFloat(out[i]);
    double expected = reference[i];
    double error = std::fabs(value - expected);
    if (std::isnan(value))
      ++result.nanCount;
    // Written so that a NaN on either side counts as outside.
    if (!(error <=
          kAbsoluteTolerance + kRelativeTolerance * std::fabs(expected)))
      ++result.outsideTolerance;
    // A NaN error sticks: the maximum of a set holding NaN is NaN.
    if (std::isnan(error) || error > result.maxAbsError)
      result.maxAbsError = error;
    errorSquares += error * error;
    referenceSquares += expected * expected;
  }
  result.relativeFrobenius = referenceSquares > 0
                                 ? std::sqrt(errorSquares / referenceSquares)
                                 : std::sqrt(errorSquares);
  return result;
}

} // namespace mla::decode
