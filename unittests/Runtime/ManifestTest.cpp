//===- ManifestTest.cpp - Reading a module's manifest ---------------------===//

#include "TestSupport.h"

#include "mla/Runtime/Manifest.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>
#include <utility>

using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

TEST(Manifest, Parse) {
  Manifest manifest;
  EXPECT_TRUE(succeeded(
      parseManifest(manifestText(kPartialArgs), "m.so.json", manifest)));
  EXPECT_EQ(manifest.target, "host");
  EXPECT_EQ(manifest.binary, "m.so");
  ASSERT_EQ(manifest.kernels.size(), 2u);
  const KernelInfo &partial = manifest.kernels[0];
  EXPECT_EQ(partial.symbol, "partial");
  ASSERT_EQ(partial.args.size(), 10u);
  EXPECT_EQ(partial.args[9].kind, ArgKind::Scalar);
  EXPECT_EQ(partial.args[9].type, "f32");
  EXPECT_EQ(partial.role, "mla.partial");
  EXPECT_TRUE(partial.hasGrid);
  EXPECT_EQ(partial.grid[0].quantity, "programs");
  EXPECT_EQ(partial.grid[2].quantity, "");
  EXPECT_TRUE(partial.grid[2].rule == llvm::json::Value(1));
  EXPECT_EQ(partial.registers, std::nullopt);
  EXPECT_EQ(manifest.kernels[1].workgroupSize[0], 64);
  EXPECT_EQ(manifestPathFor("dir/out.so"), "dir/out.so.json");

  EXPECT_TRUE(
      failsWith(parseManifest("{\"target\": \"host\"}", "m.json", manifest),
                "m.json: binary: missing"));
  // Partial kernel arguments, and what is wrong with them.
  const std::pair<const char *, const char *> badArgs[] = {
      {R"({"name": "q", "kind": "pointer", "type": "bf16"})",
       "kernels[0].args[0].kind: expected \"ptr\" or \"scalar\""},
      {R"({"name": "q", "kind": "scalar", "type": "bf16"})",
       "scalar type \"bf16\" is not one of i32, i64, f32"},
      {R"({"name": "q", "kind": "ptr", "type": "f64"})",
       "unknown element type \"f64\""},
  };
  for (const auto &[args, error] : badArgs)
    EXPECT_TRUE(
        failsWith(parseManifest(manifestText(args), "m.json", manifest), error))
        << args;
  std::string text = manifestText(kPartialArgs);
  std::string emptyName = text;
  emptyName.replace(emptyName.find("\"programs\""), 10, "\"\"");
  EXPECT_TRUE(failsWith(parseManifest(emptyName, "m.json", manifest),
                        "kernels[0].launch.grid[0]: empty quantity name"));
  std::string duplicate = text;
  duplicate.replace(duplicate.find("\"combine\""), 9, "\"partial\"");
  EXPECT_TRUE(failsWith(parseManifest(duplicate, "m.json", manifest),
                        "duplicate symbol 'partial'"));
  EXPECT_EQ(partial.dynamicLdsBytes, 0);
  std::string dynamic = text;
  dynamic.replace(dynamic.find("\"lds_bytes\": 0"), 14,
                  "\"lds_bytes\": 4096, \"dynamic_lds_bytes\": 1024");
  EXPECT_TRUE(succeeded(parseManifest(dynamic, "m.json", manifest)));
  EXPECT_EQ(manifest.kernels[0].ldsBytes, 4096);
  EXPECT_EQ(manifest.kernels[0].dynamicLdsBytes, 1024);
  dynamic.replace(dynamic.find("4096"), 4, "1000");
  EXPECT_TRUE(failsWith(parseManifest(dynamic, "m.json", manifest),
                        "kernels[0].dynamic_lds_bytes: more than lds_bytes"));
  EXPECT_TRUE(failsWith(loadManifest("/nonexistent/m.so", manifest),
                        "/nonexistent/m.so.json: "));
}

/// The launch rules of a kernel with scalars rows (i32) and alpha (f32):
/// `launch` as given.
std::string rulesManifest(const std::string &launch) {
  return R"({"target": "host", "binary": "k.so", "kernels": [
  {"symbol": "k", "args": [{"name": "x", "kind": "ptr", "type": "f32"},
                           {"name": "rows", "kind": "scalar", "type": "i32"},
                           {"name": "alpha", "kind": "scalar", "type": "f32"}],
   "workgroup_size": [1, 1, 1], "lds_bytes": 0, "launch": )" +
         launch + "}]}";
}

TEST(Manifest, LaunchRules) {
  Manifest manifest;
  ASSERT_TRUE(succeeded(parseManifest(
      rulesManifest(R"({"grid": [["ceildiv", {"arg": "rows"}, 16], 2, 1],
                        "free_grid": true,
                        "requires": [["le", {"arg": "rows"}, 4096]]})"),
      "m.json", manifest)));
  const KernelInfo &kernel = manifest.kernels[0];
  EXPECT_TRUE(kernel.hasGrid);
  EXPECT_TRUE(kernel.freeGrid);
  EXPECT_EQ(kernel.grid[0].quantity, "");
  EXPECT_TRUE(kernel.grid[1].rule == llvm::json::Value(2));
  ASSERT_EQ(kernel.requirements.size(), 1u);

  // A rule decides the grid, so it may not read it; it reads integer
  // scalar arguments only; a fixed size is at least 1; free_grid frees a
  // grid there is.
  EXPECT_TRUE(failsWith(
      parseManifest(rulesManifest(R"({"grid": [{"programs": 0}, 1, 1]})"),
                    "m.json", manifest),
      "m.json: kernels[0].launch.grid[0]: reads the grid, which it decides"));
  EXPECT_TRUE(failsWith(
      parseManifest(
          rulesManifest(R"({"requires": [["le", {"arg": "alpha"}, 1]]})"),
          "m.json", manifest),
      "kernels[0].launch.requires[0]: 'alpha' is not an integer scalar "
      "argument"));
  EXPECT_TRUE(failsWith(
      parseManifest(
          rulesManifest(R"({"grid": [["add", {"arg": "x"}, 1], 1, 1]})"),
          "m.json", manifest),
      "kernels[0].launch.grid[0]: 'x' is not an integer scalar argument"));
  EXPECT_TRUE(
      failsWith(parseManifest(rulesManifest(R"({"grid": [0, 1, 1]})"), "m.json",
                              manifest),
                "kernels[0].launch.grid[0]: a fixed size is at least 1"));
  EXPECT_TRUE(failsWith(
      parseManifest(rulesManifest(R"({"grid": [["pow", 2, 3], 1, 1]})"),
                    "m.json", manifest),
      "kernels[0].launch.grid[0]: unknown operation \"pow\""));
  EXPECT_TRUE(failsWith(parseManifest(rulesManifest(R"({"free_grid": true})"),
                                      "m.json", manifest),
                        "kernels[0].launch.free_grid: needs a grid"));
  EXPECT_TRUE(failsWith(
      parseManifest(rulesManifest(R"({"requires": 3})"), "m.json", manifest),
      "kernels[0].launch.requires: expected an array"));
}

} // namespace
