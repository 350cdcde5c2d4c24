//===- LaunchRulesTest.cpp - Grid rules and requirements of a launch ------===//

#include "TestSupport.h"

#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/LaunchRules.h"
#include "mla/Runtime/Manifest.h"

#include "gtest/gtest.h"

using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

llvm::json::Value parse(const char *text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  EXPECT_TRUE(static_cast<bool>(value));
  return value ? std::move(*value) : llvm::json::Value(nullptr);
}

/// row_softmax's launch: grid [cdiv(rows, 16), 1, 1], cols <= 256.
struct Softmax {
  KernelInfo kernel;
  std::vector<BoundArg> args;

  Softmax(const Softmax &) = delete; // args point into kernel
  Softmax(int32_t rows, int32_t cols) {
    kernel.symbol = "row_softmax";
    kernel.args = {{"rows", ArgKind::Scalar, "i32", {}, {}, ""},
                   {"cols", ArgKind::Scalar, "i32", {}, {}, ""}};
    kernel.hasGrid = true;
    kernel.grid[0].rule = parse(R"(["ceildiv", {"arg": "rows"}, 16])");
    kernel.requirements.push_back(parse(R"(["le", {"arg": "cols"}, 256])"));
    args.resize(2);
    args[0].arg = &kernel.args[0];
    args[0].scalar.i32 = rows;
    args[1].arg = &kernel.args[1];
    args[1].scalar.i32 = cols;
  }
};

TEST(LaunchRules, GridFromTheRule) {
  Softmax softmax(37, 200);
  std::array<int64_t, 3> grid;
  ASSERT_TRUE(succeeded(
      launchGrid(softmax.kernel, softmax.args, std::nullopt, "--grid", grid)));
  EXPECT_EQ(grid, (std::array<int64_t, 3>{3, 1, 1}));
  // A larger grid stands; a smaller one is refused with the rule's values.
  ASSERT_TRUE(
      succeeded(launchGrid(softmax.kernel, softmax.args,
                           std::array<int64_t, 3>{5, 2, 1}, "--grid", grid)));
  EXPECT_EQ(grid, (std::array<int64_t, 3>{5, 2, 1}));
  EXPECT_TRUE(
      failsWith(launchGrid(softmax.kernel, softmax.args,
                           std::array<int64_t, 3>{2, 1, 1}, "--grid", grid),
                "--grid: dimension x is 2, kernel 'row_softmax' needs at least "
                "cdiv(rows, 16) = 3 with rows = 37"));
  // Unless the grid is free.
  softmax.kernel.freeGrid = true;
  EXPECT_TRUE(
      succeeded(launchGrid(softmax.kernel, softmax.args,
                           std::array<int64_t, 3>{1, 1, 1}, "--grid", grid)));
}

TEST(LaunchRules, EmptyAndNegativeRules) {
  Softmax empty(0, 200), negative(-20, 200);
  std::array<int64_t, 3> grid;
  ASSERT_TRUE(succeeded(
      launchGrid(empty.kernel, empty.args, std::nullopt, "--grid", grid)));
  EXPECT_EQ(grid[0], 0);
  EXPECT_TRUE(failsWith(
      launchGrid(negative.kernel, negative.args, std::nullopt, "--grid", grid),
      "kernel 'row_softmax': its grid x = cdiv(rows, 16) is -1 with rows = "
      "-20"));
}

TEST(LaunchRules, QuantitiesAndNoRule) {
  Softmax softmax(37, 200);
  softmax.kernel.grid[0].quantity = "programs";
  std::array<int64_t, 3> grid;
  EXPECT_TRUE(failsWith(
      launchGrid(softmax.kernel, softmax.args, std::nullopt, "--grid", grid),
      "--grid: required: kernel 'row_softmax' has grid x = 'programs', a "
      "quantity its application's driver computes"));
  EXPECT_TRUE(
      succeeded(launchGrid(softmax.kernel, softmax.args,
                           std::array<int64_t, 3>{7, 1, 1}, "--grid", grid)));
  EXPECT_EQ(grid[0], 7);
  softmax.kernel.hasGrid = false;
  EXPECT_TRUE(failsWith(
      launchGrid(softmax.kernel, softmax.args, std::nullopt, "grid=", grid),
      "grid=: required: kernel 'row_softmax' states no grid rule"));
}

TEST(LaunchRules, Requirements) {
  Softmax fits(37, 256), wide(37, 300);
  EXPECT_TRUE(succeeded(checkRequirements(fits.kernel, fits.args)));
  EXPECT_TRUE(failsWith(checkRequirements(wide.kernel, wide.args),
                        "kernel 'row_softmax': requires cols <= 256, got "
                        "cols = 300"));
  // A requirement that cannot be evaluated says why.
  wide.kernel.requirements = {parse(R"(["le", ["div", 1, 0], 2])")};
  EXPECT_TRUE(failsWith(checkRequirements(wide.kernel, wide.args),
                        "kernel 'row_softmax': cannot check its requirement "
                        "div(1, 0) <= 2: \"div\" divides by zero"));
}

} // namespace
