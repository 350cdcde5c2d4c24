//===- LaunchExprTest.cpp - The manifest's integer expressions ------------===//
//
// Every operation of docs/ABI.md's "Extents" table, its rounding and
// unsigned semantics, and the errors: overflow, division by zero, unknown
// arguments, views reaching before their pointer, malformed expressions.
//
//===----------------------------------------------------------------------===//

#include "mla/Runtime/LaunchExpr.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <string>

using namespace mla::runtime;

namespace {

/// Parses `text` as an expression, validates it and evaluates it with
/// arguments rows = 37, cols = 200, neg = -7 and grid (3, 2, 1); the value,
/// or "error: WHY".
std::string evaluate(const char *text) {
  llvm::Expected<llvm::json::Value> expr = llvm::json::parse(text);
  if (!expr) {
    llvm::consumeError(expr.takeError());
    return "not JSON";
  }
  std::string what;
  if (!validateLaunchExpr(*expr, what))
    return "invalid: " + what;
  LaunchExprInputs inputs;
  inputs.grid = {3, 2, 1};
  inputs.scalar = [](llvm::StringRef name) -> std::optional<int64_t> {
    if (name == "rows")
      return 37;
    if (name == "cols")
      return 200;
    if (name == "neg")
      return -7;
    return std::nullopt;
  };
  int64_t result = 0;
  if (!evaluateLaunchExpr(*expr, inputs, result, what))
    return "error: " + what;
  return std::to_string(result);
}

TEST(LaunchExpr, Leaves) {
  EXPECT_EQ(evaluate("42"), "42");
  EXPECT_EQ(evaluate(R"({"arg": "rows"})"), "37");
  EXPECT_EQ(evaluate(R"({"programs": 1})"), "2");
  EXPECT_EQ(evaluate(R"({"arg": "x"})"),
            "error: 'x' is not an integer argument");
}

TEST(LaunchExpr, Arithmetic) {
  EXPECT_EQ(evaluate(R"(["add", {"arg": "rows"}, 3])"), "40");
  EXPECT_EQ(evaluate(R"(["sub", 3, {"arg": "rows"}])"), "-34");
  EXPECT_EQ(evaluate(R"(["mul", {"arg": "rows"}, {"arg": "cols"}])"), "7400");
  EXPECT_EQ(evaluate(R"(["max", 3, 9, 4])"), "9");
  EXPECT_EQ(evaluate(R"(["min", {"arg": "neg"}, 1])"), "-7");
  EXPECT_EQ(evaluate(R"(["select", ["lt", 1, 2], 10, 20])"), "10");
  EXPECT_EQ(evaluate(R"(["select", ["ge", 1, 2], 10, 20])"), "20");
  EXPECT_EQ(evaluate(R"(["eq", 3, 3])"), "1");
  EXPECT_EQ(evaluate(R"(["ne", 3, 3])"), "0");
}

TEST(LaunchExpr, Division) {
  // Toward zero, down, up; the remainder has the dividend's sign.
  EXPECT_EQ(evaluate(R"(["div", {"arg": "neg"}, 2])"), "-3");
  EXPECT_EQ(evaluate(R"(["floordiv", {"arg": "neg"}, 2])"), "-4");
  EXPECT_EQ(evaluate(R"(["ceildiv", {"arg": "neg"}, 2])"), "-3");
  EXPECT_EQ(evaluate(R"(["ceildiv", {"arg": "rows"}, 16])"), "3");
  EXPECT_EQ(evaluate(R"(["floordiv", {"arg": "rows"}, 16])"), "2");
  EXPECT_EQ(evaluate(R"(["rem", {"arg": "neg"}, 2])"), "-1");
  EXPECT_EQ(evaluate(R"(["div", 1, 0])"), "error: \"div\" divides by zero");
  EXPECT_EQ(evaluate(R"(["rem", -9223372036854775808, -1])"), "0");
  EXPECT_EQ(evaluate(R"(["div", -9223372036854775808, -1])"),
            "error: \"div\" overflows 64 bits");
}

TEST(LaunchExpr, Unsigned) {
  // -7 read as an unsigned 64-bit number is huge; zext keeps low bits.
  EXPECT_EQ(evaluate(R"(["ult", {"arg": "neg"}, 1])"), "0");
  EXPECT_EQ(evaluate(R"(["umax", {"arg": "neg"}, 1])"), "-7");
  EXPECT_EQ(evaluate(R"(["umin", {"arg": "neg"}, 1])"), "1");
  EXPECT_EQ(evaluate(R"(["zext", 32, {"arg": "neg"}])"), "4294967289");
  EXPECT_EQ(evaluate(R"(["udiv", ["zext", 32, {"arg": "neg"}], 2])"),
            "2147483644");
  EXPECT_EQ(evaluate(R"(["uceildiv", 7, 2])"), "4");
  EXPECT_EQ(evaluate(R"(["urem", 7, 2])"), "1");
  EXPECT_EQ(evaluate(R"(["udiv", {"arg": "neg"}, 1])"),
            "error: \"udiv\" overflows 64 bits");
}

TEST(LaunchExpr, Overflow) {
  EXPECT_EQ(evaluate(R"(["mul", 4611686018427387904, 2])"),
            "error: \"mul\" overflows 64 bits");
  EXPECT_EQ(evaluate(R"(["add", 9223372036854775807, 1])"),
            "error: \"add\" overflows 64 bits");
  EXPECT_EQ(evaluate(R"(["view", 0, [4611686018427387904], [4]])"),
            "error: \"view\" overflows 64 bits");
}

TEST(LaunchExpr, Views) {
  // Rows x cols, row-major: the last element is rows * cols - 1.
  EXPECT_EQ(evaluate(R"(["view", 0, [{"arg": "rows"}, {"arg": "cols"}],
                                    [{"arg": "cols"}, 1]])"),
            "7400");
  EXPECT_EQ(evaluate(R"(["view", 5, [2, 3], [10, 1]])"), "18");
  EXPECT_EQ(evaluate(R"(["view", 5, [0, 3], [10, 1]])"), "0");
  EXPECT_EQ(evaluate(R"(["view", 5, [{"arg": "neg"}], [1]])"),
            "error: a view has size -7");
  // Negative strides walk back from the offset.
  EXPECT_EQ(evaluate(R"(["view", 9, [10], [-1]])"), "10");
  EXPECT_EQ(evaluate(R"(["view", 8, [10], [-1]])"),
            "error: a view reaches element -1, before the pointer");
}

TEST(LaunchExpr, Malformed) {
  EXPECT_EQ(evaluate(R"("rows")"),
            "invalid: expected an integer, an object or [OP, operands...]");
  EXPECT_EQ(evaluate(R"(["pow", 2, 3])"), "invalid: unknown operation \"pow\"");
  EXPECT_EQ(evaluate(R"(["add", 1])"),
            "invalid: \"add\" takes 2 operands, not 1");
  EXPECT_EQ(evaluate(R"(["max", 1])"),
            "invalid: \"max\" takes at least 2 operands, not 1");
  EXPECT_EQ(evaluate(R"(["select", 1, 2])"),
            "invalid: \"select\" takes 3 operands, not 2");
  EXPECT_EQ(evaluate(R"(["zext", 64, 1])"),
            "invalid: \"zext\" takes a bit count in [1, 63] and an operand");
  EXPECT_EQ(evaluate(R"(["view", 0, [1, 2], [1]])"),
            "invalid: \"view\" takes an offset and two arrays of one length");
  EXPECT_EQ(evaluate(R"({"programs": 3})"),
            "invalid: an object is {\"arg\": NAME} or {\"programs\": 0|1|2}");
  EXPECT_EQ(evaluate(R"(["add", 1, ["sub", 2, "x"]])"),
            "invalid: expected an integer, an object or [OP, operands...]");
}

/// `text` printed as a program writes it.
std::string print(const char *text) {
  llvm::Expected<llvm::json::Value> expr = llvm::json::parse(text);
  if (!expr) {
    llvm::consumeError(expr.takeError());
    return "not JSON";
  }
  return printLaunchExpr(*expr);
}

TEST(LaunchExpr, Printing) {
  EXPECT_EQ(print(R"(["ceildiv", {"arg": "rows"}, 16])"), "cdiv(rows, 16)");
  EXPECT_EQ(print(R"(["le", {"arg": "cols"}, 256])"), "cols <= 256");
  EXPECT_EQ(print(R"(["mul", ["add", 1, 2], 3])"), "(1 + 2) * 3");
  EXPECT_EQ(print(R"(["add", 1, ["mul", 2, 3]])"), "1 + 2 * 3");
  EXPECT_EQ(print(R"(["sub", 1, ["sub", 2, 3]])"), "1 - (2 - 3)");
  EXPECT_EQ(print(R"(["sub", ["sub", 1, 2], 3])"), "1 - 2 - 3");
  EXPECT_EQ(print(R"(["floordiv", {"arg": "n"}, ["mul", 2, 4]])"),
            "n // (2 * 4)");
  EXPECT_EQ(print(R"(["max", 1, 2, {"programs": 1}])"),
            "max(1, 2, programs(y))");
  EXPECT_EQ(print(R"(["view", 0, [{"arg": "n"}], [1]])"), "view(0, [n], [1])");
}

TEST(LaunchExpr, ReadsGridAndArguments) {
  llvm::json::Value rule = *llvm::json::parse(
      R"(["ceildiv", ["add", {"arg": "rows"}, {"arg": "pad"}], {"arg": "rows"}])");
  EXPECT_FALSE(readsGrid(rule));
  EXPECT_EQ(argumentsOf(rule), (std::vector<std::string>{"rows", "pad"}));
  EXPECT_TRUE(readsGrid(*llvm::json::parse(R"(["add", {"programs": 0}, 1])")));
}

} // namespace
