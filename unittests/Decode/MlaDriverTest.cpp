//===- MlaDriverTest.cpp - MLA kernel selection and argument binding ------===//

#include "TestSupport.h"

#include "mla/Decode/LaunchPlan.h"
#include "mla/Decode/MlaDriver.h"
#include "mla/Decode/Problem.h"
#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>

using namespace mla::decode;
using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

/// The error of selecting bf16 kernels for `heads` heads (one query row
/// each) from manifest `text`, or success. The kernels' pointers dangle
/// once it returns; their launch keys are copies.
Status selectFrom(const std::string &text, MlaKernels &kernels,
                  int64_t heads = 16) {
  Manifest manifest;
  if (Status s = parseManifest(text, "m.so.json", manifest))
    return s;
  return selectMlaKernels(manifest, KvDType::BF16, heads, heads, kernels);
}

TEST(MlaDriver, KernelSelection) {
  llvm::ThreadPoolInterface &pool = testPool();
  Manifest manifest;
  EXPECT_TRUE(succeeded(
      parseManifest(manifestText(kPartialArgs), "m.so.json", manifest)));
  MlaKernels kernels;
  EXPECT_TRUE(
      succeeded(selectMlaKernels(manifest, KvDType::BF16, 16, 16, kernels)));
  EXPECT_EQ(kernels.partial, &manifest.kernels[0]);
  EXPECT_EQ(kernels.combine, &manifest.kernels[1]);
  EXPECT_EQ(kernels.maxSplits, 8);
  EXPECT_EQ(kernels.kvTile, 64);
  EXPECT_EQ(kernels.blockRows, 64);
  EXPECT_EQ(kernels.combineBlockRows, 16);
  EXPECT_TRUE(
      failsWith(selectMlaKernels(manifest, KvDType::BF16, 32, 32, kernels),
                "m.so.json: no mla.partial kernel for kv_dtype bf16 and 32 "
                "heads (the module has bf16/16)"));
  EXPECT_TRUE(
      failsWith(selectMlaKernels(manifest, KvDType::FP8, 16, 16, kernels),
                "no mla.partial kernel for kv_dtype fp8"));

  // The launch keys the plan follows.
  std::string text = manifestText(kPartialArgs);
  EXPECT_TRUE(succeeded(selectFrom(
      replaced(text, "\"kv_tile\": 64", "\"kv_tile\": 32"), kernels)));
  EXPECT_EQ(kernels.kvTile, 32);
  EXPECT_EQ(planOptionsFor(makeBf16Problem(16, {1}, {1}), kernels,
                           PlanMode::Reproducible, 4)
                .kvTile,
            32);
  EXPECT_TRUE(succeeded(
      selectFrom(replaced(text, ", \"max_splits\": 8", ""), kernels)));
  EXPECT_EQ(kernels.maxSplits, kDefaultMaxSplits);

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
  std::string twoCombines =
      replaced(text, R"("kernels": [)",
               R"("kernels": [)" + combineKernelText("combine2") + ",");
  EXPECT_TRUE(
      failsWith(selectFrom(twoCombines, kernels),
                "m.so.json: kernels 'combine2' and 'combine' both match "
                "mla.combine for kv_dtype bf16 and 16 heads"));

  // A partial kernel with a `heads` argument and no launch.heads serves
  // every head count; the argument must be an i32 scalar.
  std::string anyHeads = replaced(
      manifestText(std::string(kPartialArgs) +
                   R"(, {"name": "heads", "kind": "scalar", "type": "i32"})"),
      "\"heads\": 16,", "");
  for (int64_t heads : {16, 48, 128})
    EXPECT_TRUE(succeeded(selectFrom(anyHeads, kernels, heads))) << heads;
  EXPECT_TRUE(failsWith(
      selectFrom(replaced(anyHeads, R"("kind": "scalar", "type": "i32")",
                          R"("kind": "scalar", "type": "i64")"),
                 kernels),
      "kernel 'partial': argument 'heads' is scalar i64, expected scalar "
      "i32"));

  // Partial kernels that differ in block_rows: the fewest rows that hold
  // the batch's largest q_len * heads, else the most.
  std::string threePartials = text;
  for (const char *rows : {"16", "32"})
    threePartials = replaced(threePartials, R"("kernels": [)",
                             std::string(R"("kernels": [
  {"symbol": "partial)") + rows + R"(", "args": [)" +
                                 kPartialArgs + R"(],
   "workgroup_size": [1, 1, 1], "lds_bytes": 0,
   "launch": {"role": "mla.partial", "kv_dtype": "bf16", "heads": 16,
              "kv_tile": 64, "block_rows": )" +
                                 rows + R"(,
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
  EXPECT_TRUE(
      failsWith(selectFrom(replaced(threePartials, "\"block_rows\": 32",
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
      "work_indptr, combine, part_out, part_lse, out, sm_scale, heads)"));
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
}

// Edits of manifestText(kPartialArgs) and the error of selecting bf16/16
// kernels from the result.
const ManifestEdit kSelectionErrors[] = {
    {"\"kv_tile\": 64, ", "",
     "kernel 'partial': mla.partial needs launch.kv_tile"},
    {"\"block_rows\": 64, ", "",
     "kernel 'partial': mla.partial needs launch.block_rows"},
    {"\"block_rows\": 16,", "",
     "kernel 'combine': mla.combine needs launch.block_rows"},
    {"\"heads\": 16,", "",
     "kernel 'partial': mla.partial needs a 'heads' argument or "
     "launch.heads"},
    {"\"kv_tile\": 64", "\"kv_tile\": 0",
     "m.so.json: kernel 'partial': launch.kv_tile: expected an integer "
     ">= 1"},
    {"\"kv_tile\": 64", "\"kv_tile\": 9223372036854775807",
     "kernel 'partial': launch.kv_tile: 9223372036854775807 is more "
     "than 65536"},
    {"\"max_splits\": 8", "\"max_splits\": 4611686018427387904",
     "launch.max_splits: 4611686018427387904 is more than 1024"},
    {"\"block_rows\": 16", "\"block_rows\": 1e9",
     "kernel 'combine': launch.block_rows: expected an integer >= 1"},
    // Each role has its grid quantity; others may be defined by other
    // drivers, and the MLA driver rejects them on its own kernels.
    {"[\"programs\", 1, 1]", "[\"programs\", \"max_q_len\", 1]",
     "kernel 'partial': launch.grid[1]: unknown quantity "
     "\"max_q_len\" (the MLA driver computes programs for "
     "mla.partial)"},
    {"[\"combine_items\", 1, 1]", "[\"programs\", 1, 1]",
     "kernel 'combine': launch.grid[0]: unknown quantity "
     "\"programs\" (the MLA driver computes combine_items for "
     "mla.combine)"},
    // A partial kernel of an older compiler ran one program per work item,
    // and has no work_indptr.
    {"[\"programs\", 1, 1]", "[\"work_items\", 1, 1]",
     "kernel 'partial': launch.grid [\"work_items\", 1, 1] is the launch "
     "rule of an older mla-compile (one program per work item); recompile "
     "the module"},
    {R"({"name": "work_indptr", "kind": "ptr", "type": "i32"},)", "",
     "kernel 'partial': mla.partial has no 'work_indptr' argument"},
    {"\"grid\": [\"combine_items\", 1, 1]", "\"dims\": 1",
     "kernel 'combine': mla.combine needs launch.grid"},
    // Each role needs the arguments it writes through.
    {R"({"name": "work", "kind": "ptr", "type": "i32"},)", "",
     "kernel 'partial': mla.partial has no 'work' argument"},
    {R"({"name": "part_lse", "kind": "ptr", "type": "f32"},)", "",
     "kernel 'partial': mla.partial has no 'part_lse' argument"},
    {R"({"name": "combine", "kind": "ptr", "type": "i32"},)", "",
     "kernel 'combine': mla.combine has no 'combine' argument"},
    {R"("name": "out", "kind": "ptr", "type": "bf16"}],)",
     R"("name": "kv_indptr", "kind": "ptr", "type": "i32"}],)",
     "kernel 'combine': mla.combine has no 'out' argument"},
};

TEST(MlaDriver, KernelSelectionErrors) {
  std::string text = manifestText(kPartialArgs);
  for (const ManifestEdit &edit : kSelectionErrors) {
    // An edit that matches nothing would test the unedited manifest.
    ASSERT_NE(text.find(edit.from), std::string::npos) << edit.from;
    MlaKernels kernels;
    EXPECT_TRUE(failsWith(
        selectFrom(replaced(text, edit.from, edit.to), kernels), edit.error))
        << "replacing " << edit.from << " with " << edit.to;
  }
}

} // namespace
