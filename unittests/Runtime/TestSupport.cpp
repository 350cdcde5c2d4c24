//===- TestSupport.cpp - Helpers shared by the runtime's unit tests -------===//

#include "TestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace mla::runtime::test {

testing::AssertionResult succeeded(const Status &status) {
  if (status.ok())
    return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << "unexpected error: " << status.message();
}

testing::AssertionResult failsWith(const Status &status,
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

testing::AssertionResult near(double a, double b, double tolerance) {
  if (std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b)))
    return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << testing::PrintToString(a) << " is not within "
         << testing::PrintToString(tolerance) << " of "
         << testing::PrintToString(b);
}

namespace {
/// The scratch directory, removed with what the tests left in it when the
/// process exits.
struct ScratchDirectory {
  ScratchDirectory() {
    llvm::SmallString<128> created;
    if (std::error_code error = llvm::sys::fs::createUniqueDirectory(
            "mla-runtime-tests", created)) {
      llvm::errs() << "cannot create a scratch directory: " << error.message()
                   << "\n";
      std::abort();
    }
    path = created.str().str();
  }
  ~ScratchDirectory() { (void)llvm::sys::fs::remove_directories(path); }

  std::string path;
};
} // namespace

const std::string &scratchDirectory() {
  static ScratchDirectory directory;
  return directory.path;
}

llvm::ThreadPoolInterface &testPool() {
  static llvm::StdThreadPool pool(llvm::hardware_concurrency(3));
  return pool;
}

decode::MlaProblem makeBf16Problem(int64_t heads,
                                   const std::vector<int32_t> &qLens,
                                   const std::vector<int32_t> &kvLens) {
  decode::MlaProblem problem;
  problem.kvDType = decode::KvDType::BF16;
  problem.heads = heads;
  problem.smScale = 1.0f;
  problem.qoIndptr = offsets(qLens);
  problem.kvIndptr = offsets(kvLens);
  problem.q.assign(problem.totalQ() * heads * decode::kQkDim, 0);
  problem.kv.assign(problem.totalKv() * 2 * decode::kQkDim, 0);
  return problem;
}

std::vector<int32_t> offsets(const std::vector<int32_t> &lengths) {
  std::vector<int32_t> result = {0};
  for (int32_t length : lengths)
    result.push_back(result.back() + length);
  return result;
}

std::string manifestText(const std::string &partialArgs, int64_t heads) {
  return R"({"target": "host", "binary": "m.so", "kernels": [
  {"symbol": "partial", "args": [)" +
         partialArgs + R"(],
   "workgroup_size": [1, 1, 1], "lds_bytes": 0, "registers": null,
   "spills": null,
   "launch": {"role": "mla.partial", "kv_dtype": "bf16", "heads": )" +
         std::to_string(heads) + R"(,
              "kv_tile": 64, "block_rows": 64, "max_splits": 8,
              "grid": ["programs", 1, 1]}},
  )" + combineKernelText("combine") +
         "]}";
}

std::string combineKernelText(const std::string &symbol) {
  return R"({"symbol": ")" + symbol + R"(", "args": [
     {"name": "part_out", "kind": "ptr", "type": "f32"},
     {"name": "part_lse", "kind": "ptr", "type": "f32"},
     {"name": "combine", "kind": "ptr", "type": "i32"},
     {"name": "out", "kind": "ptr", "type": "bf16"}],
   "workgroup_size": [64, 1, 1], "lds_bytes": 0,
   "launch": {"role": "mla.combine", "block_rows": 16,
              "grid": ["combine_items", 1, 1]}})";
}

const char *const kPartialArgs =
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

std::string replaced(std::string text, const std::string &from,
                     const std::string &to) {
  size_t at = text.find(from);
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

} // namespace mla::runtime::test
