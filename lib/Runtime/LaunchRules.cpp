//===- LaunchRules.cpp - A kernel's grid rule and requirements ------------===//

#include "mla/Runtime/LaunchRules.h"
#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/Support/FormatVariadic.h"

namespace mla::runtime {

LaunchExprInputs launchInputs(const std::vector<BoundArg> &args,
                              const std::array<int64_t, 3> &grid) {
  LaunchExprInputs inputs;
  inputs.grid = grid;
  inputs.scalar = [&args](llvm::StringRef name) -> std::optional<int64_t> {
    for (const BoundArg &bound : args) {
      const KernelArg &arg = *bound.arg;
      if (arg.name != name)
        continue;
      // A requirement reads a pointer only as `P % C == 0` with C at most
      // kMaxPointerAlignment (the manifest's validation), and this runtime
      // allocates every buffer at a multiple of that: it reads as 0.
      if (arg.kind == ArgKind::Pointer)
        return 0;
      if (arg.type == "i32")
        return bound.scalar.i32;
      if (arg.type == "i64")
        return bound.scalar.i64;
    }
    return std::nullopt;
  };
  return inputs;
}

/// "rows = 37, cols = 300": the arguments `expr` reads and their values.
static std::string valuesRead(const llvm::json::Value &expr,
                              const LaunchExprInputs &inputs) {
  std::string text;
  for (const std::string &name : argumentsOf(expr)) {
    std::optional<int64_t> value = inputs.scalar(name);
    text += (text.empty() ? "" : ", ") + name + " = " +
            (value ? std::to_string(*value) : std::string("?"));
  }
  return text;
}

Status checkRequirements(const KernelInfo &kernel,
                         const std::vector<BoundArg> &args) {
  LaunchExprInputs inputs = launchInputs(args);
  for (const llvm::json::Value &condition : kernel.requirements) {
    std::string subject = "kernel '" + kernel.symbol + "'", what;
    int64_t holds;
    if (!evaluateLaunchExpr(condition, inputs, holds, what))
      return Status::failure(subject, "cannot check its requirement " +
                                          printLaunchExpr(condition) + ": " +
                                          what);
    if (!holds)
      return Status::failure(subject, "requires " + printLaunchExpr(condition) +
                                          ", got " +
                                          valuesRead(condition, inputs));
  }
  return Status::success();
}

Status launchGrid(const KernelInfo &kernel, const std::vector<BoundArg> &args,
                  const std::optional<std::array<int64_t, 3>> &given,
                  const std::string &flag, std::array<int64_t, 3> &grid) {
  if (!kernel.hasGrid) {
    if (!given)
      return Status::failure(flag, "required: kernel '" + kernel.symbol +
                                       "' states no grid rule");
    grid = *given;
    return Status::success();
  }
  LaunchExprInputs inputs = launchInputs(args);
  for (size_t d = 0; d < 3; ++d) {
    const GridExtent &extent = kernel.grid[d];
    if (!extent.quantity.empty()) {
      if (!given)
        return Status::failure(
            flag,
            llvm::formatv("required: kernel '{0}' has grid {1} = '{2}', a "
                          "quantity its application's driver computes",
                          kernel.symbol, "xyz"[d], extent.quantity));
      continue;
    }
    std::string rule = printLaunchExpr(extent.rule), what;
    int64_t needed;
    if (!evaluateLaunchExpr(extent.rule, inputs, needed, what))
      return Status::failure("kernel '" + kernel.symbol + "'",
                             llvm::formatv("cannot compute grid {0} = {1}: {2}",
                                           "xyz"[d], rule, what));
    std::string values = valuesRead(extent.rule, inputs);
    if (!values.empty())
      values = " with " + values;
    if (needed < 0)
      return Status::failure("kernel '" + kernel.symbol + "'",
                             llvm::formatv("its grid {0} = {1} is {2}{3}",
                                           "xyz"[d], rule, needed, values));
    if (!given) {
      grid[d] = needed;
      continue;
    }
    if ((*given)[d] < needed && !kernel.freeGrid)
      return Status::failure(
          flag, llvm::formatv("dimension {0} is {1}, kernel '{2}' needs at "
                              "least {3} = {4}{5}",
                              "xyz"[d], (*given)[d], kernel.symbol, rule,
                              needed, values));
  }
  if (given)
    grid = *given;
  return Status::success();
}

} // namespace mla::runtime
