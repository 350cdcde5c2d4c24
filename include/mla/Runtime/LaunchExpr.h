//===- LaunchExpr.h - The manifest's integer expressions --------*- C++ -*-===//
//
// Manifests describe what a launch depends on as integer expressions of
// the kernel's scalar arguments and the grid (docs/ABI.md, "Extents"): the
// extent of each pointer argument, the grid rule and the requirements of
// `launch`. Launchers evaluate them before launching.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_LAUNCHEXPR_H
#define MLA_RUNTIME_LAUNCHEXPR_H

#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mla::runtime {

/// Whether `expr` is a well-formed expression; if not, `what` says what is
/// wrong.
bool validateLaunchExpr(const llvm::json::Value &expr, std::string &what);

/// Whether validated `expr` reads the grid ({"programs": D}), which a grid
/// rule or a requirement must not.
bool readsGrid(const llvm::json::Value &expr);

/// What an expression reads: the integer scalar arguments by name (nullopt
/// for a name that is not one) and the grid.
struct LaunchExprInputs {
  std::function<std::optional<int64_t>(llvm::StringRef)> scalar;
  std::array<int64_t, 3> grid = {1, 1, 1};
};

/// Evaluates validated expression `expr` in 64-bit signed integers; false
/// with `what` set on overflow, a division by zero, an unknown argument or
/// a view reaching before its pointer.
bool evaluateLaunchExpr(const llvm::json::Value &expr,
                        const LaunchExprInputs &inputs, int64_t &result,
                        std::string &what);

/// Validated `expr` as a program writes it: `cdiv(rows, 16)`, `cols <= 256`.
std::string printLaunchExpr(const llvm::json::Value &expr);

/// The names of the scalar arguments validated `expr` reads, in order of
/// first use.
std::vector<std::string> argumentsOf(const llvm::json::Value &expr);

} // namespace mla::runtime

#endif // MLA_RUNTIME_LAUNCHEXPR_H
