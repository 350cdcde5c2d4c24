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
#include <utility>

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

/// Expressions and what evaluate() makes of them, by the operations of
/// docs/ABI.md's "Extents" table.
const std::pair<const char *, const char *> kEvaluations[] = {
    // Leaves.
    {"42", "42"},
    {R"({"arg": "rows"})", "37"},
    {R"({"programs": 1})", "2"},
    {R"({"arg": "x"})", "error: 'x' is not an integer argument"},
    // Arithmetic.
    {R"(["add", {"arg": "rows"}, 3])", "40"},
    {R"(["sub", 3, {"arg": "rows"}])", "-34"},
    {R"(["mul", {"arg": "rows"}, {"arg": "cols"}])", "7400"},
    {R"(["max", 3, 9, 4])", "9"},
    {R"(["min", {"arg": "neg"}, 1])", "-7"},
    {R"(["select", ["lt", 1, 2], 10, 20])", "10"},
    {R"(["select", ["ge", 1, 2], 10, 20])", "20"},
    {R"(["eq", 3, 3])", "1"},
    {R"(["ne", 3, 3])", "0"},
    // Division: toward zero, down, up; the remainder has the dividend's sign.
    {R"(["div", {"arg": "neg"}, 2])", "-3"},
    {R"(["floordiv", {"arg": "neg"}, 2])", "-4"},
    {R"(["ceildiv", {"arg": "neg"}, 2])", "-3"},
    {R"(["ceildiv", {"arg": "rows"}, 16])", "3"},
    {R"(["floordiv", {"arg": "rows"}, 16])", "2"},
    {R"(["rem", {"arg": "neg"}, 2])", "-1"},
    {R"(["div", 1, 0])", "error: \"div\" divides by zero"},
    {R"(["rem", -9223372036854775808, -1])", "0"},
    {R"(["div", -9223372036854775808, -1])",
     "error: \"div\" overflows 64 bits"},
    // Unsigned: -7 read as an unsigned 64-bit number is huge; zext keeps low
    // bits.
    {R"(["ult", {"arg": "neg"}, 1])", "0"},
    {R"(["umax", {"arg": "neg"}, 1])", "-7"},
    {R"(["umin", {"arg": "neg"}, 1])", "1"},
    {R"(["zext", 32, {"arg": "neg"}])", "4294967289"},
    {R"(["udiv", ["zext", 32, {"arg": "neg"}], 2])", "2147483644"},
    {R"(["uceildiv", 7, 2])", "4"},
    {R"(["urem", 7, 2])", "1"},
    {R"(["udiv", {"arg": "neg"}, 1])", "error: \"udiv\" overflows 64 bits"},
    // Overflow.
    {R"(["mul", 4611686018427387904, 2])", "error: \"mul\" overflows 64 bits"},
    {R"(["add", 9223372036854775807, 1])", "error: \"add\" overflows 64 bits"},
    {R"(["view", 0, [4611686018427387904], [4]])",
     "error: \"view\" overflows 64 bits"},
    // Views: rows x cols, row-major: the last element is rows * cols - 1.
    {R"(["view", 0, [{"arg": "rows"}, {"arg": "cols"}],
                                    [{"arg": "cols"}, 1]])",
     "7400"},
    {R"(["view", 5, [2, 3], [10, 1]])", "18"},
    {R"(["view", 5, [0, 3], [10, 1]])", "0"},
    {R"(["view", 5, [{"arg": "neg"}], [1]])", "error: a view has size -7"},
    // Negative strides walk back from the offset.
    {R"(["view", 9, [10], [-1]])", "10"},
    {R"(["view", 8, [10], [-1]])",
     "error: a view reaches element -1, before the pointer"},
    // Malformed.
    {R"("rows")",
     "invalid: expected an integer, an object or [OP, operands...]"},
    {R"(["pow", 2, 3])", "invalid: unknown operation \"pow\""},
    {R"(["add", 1])", "invalid: \"add\" takes 2 operands, not 1"},
    {R"(["max", 1])", "invalid: \"max\" takes at least 2 operands, not 1"},
    {R"(["select", 1, 2])", "invalid: \"select\" takes 3 operands, not 2"},
    {R"(["zext", 64, 1])",
     "invalid: \"zext\" takes a bit count in [1, 63] and an operand"},
    {R"(["view", 0, [1, 2], [1]])",
     "invalid: \"view\" takes an offset and two arrays of one length"},
    {R"({"programs": 3})",
     "invalid: an object is {\"arg\": NAME} or {\"programs\": 0|1|2}"},
    {R"(["add", 1, ["sub", 2, "x"]])",
     "invalid: expected an integer, an object or [OP, operands...]"},
};

TEST(LaunchExpr, Evaluate) {
  for (const auto &[text, expected] : kEvaluations)
    EXPECT_EQ(evaluate(text), expected) << text;
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
