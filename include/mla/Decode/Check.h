//===- Check.h - Compare kernel output with the reference -------*- C++ -*-===//

#ifndef MLA_DECODE_CHECK_H
#define MLA_DECODE_CHECK_H

#include <cstdint>
#include <string>

namespace mla::decode {

/// The problem's tolerances: |x - ref| <= atol + rtol * |ref| elementwise,
/// and a relative Frobenius error below kMaxRelativeFrobenius.
constexpr double kRelativeTolerance = 1e-2;
constexpr double kAbsoluteTolerance = 1e-2;
constexpr double kMaxRelativeFrobenius = 1e-2;

/// How a bf16 output compares with the float64 reference.
struct CheckResult {
  /// ||out - ref|| / ||ref|| (Frobenius); ||out - ref|| when ref is all
  /// zeros.
  double relativeFrobenius = 0;
  double maxAbsError = 0;
  /// Elements outside the elementwise tolerance, NaNs included.
  int64_t outsideTolerance = 0;
  int64_t nanCount = 0;
  int64_t count = 0;

  bool passed() const {
    return relativeFrobenius < kMaxRelativeFrobenius && outsideTolerance == 0 &&
           nanCount == 0;
  }
  /// "check: rel_fro=1.2e-03 max_abs=3.1e-03 outside_tol=0/16384 nan=0 PASS"
  std::string summary() const;
};

/// Compares `count` bf16 values (bits) with the reference.
CheckResult compareWithReference(const uint16_t *out, const double *reference,
                                 int64_t count);

} // namespace mla::decode

#endif // MLA_DECODE_CHECK_H
