//===- TestSupport.h - Helpers of the runtime's unit tests ------*- C++ -*-===//
//
// Assertions on a Status, the scratch directory and thread pool of the test
// process, and the small MLA problem and manifest that several units' tests
// start from.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_UNITTESTS_RUNTIME_TESTSUPPORT_H
#define MLA_UNITTESTS_RUNTIME_TESTSUPPORT_H

#include "mla/Decode/Problem.h"
#include "mla/Runtime/Status.h"

#include "llvm/Support/ThreadPool.h"
#include "gtest/gtest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mla::runtime::test {

/// Success of `status`, or its message.
testing::AssertionResult succeeded(const Status &status);

/// Failure of `status` with a message containing `text`.
testing::AssertionResult failsWith(const Status &status,
                                   const std::string &text);

/// `a` within `tolerance` of `b`, relative to |b| where |b| > 1.
testing::AssertionResult near(double a, double b, double tolerance = 1e-12);

/// A directory of this process for the files tests write, created on first
/// use and removed at exit. lit runs the test binary without arguments and
/// in several processes at once, so each makes its own.
const std::string &scratchDirectory();

/// The pool of the tests that run on host threads.
llvm::ThreadPoolInterface &testPool();

/// A bf16 problem with one sequence per entry of `qLens`/`kvLens`, all
/// values zero; tests fill in what they need.
decode::MlaProblem makeBf16Problem(int64_t heads,
                                   const std::vector<int32_t> &qLens,
                                   const std::vector<int32_t> &kvLens);

/// The indptr of sequences of `lengths`: 0, then the running sums.
std::vector<int32_t> offsets(const std::vector<int32_t> &lengths);

/// A manifest with MLA kernels for bf16 and the given partial arguments.
std::string manifestText(const std::string &partialArgs, int64_t heads = 16);

/// The manifest entry of manifestText's combine kernel, named `symbol`.
std::string combineKernelText(const std::string &symbol);

/// The arguments of the partial kernel the MLA driver binds.
extern const char *const kPartialArgs;

/// `text` with the first `from` replaced by `to`.
std::string replaced(std::string text, const std::string &from,
                     const std::string &to);

/// An edit of a manifest: `from` replaced by `to`, and the error a check of
/// the result gives.
struct ManifestEdit {
  const char *from;
  const char *to;
  const char *error;
};

} // namespace mla::runtime::test

#endif // MLA_UNITTESTS_RUNTIME_TESTSUPPORT_H
