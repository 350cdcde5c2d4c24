//===- LaunchExpr.h - Grid rules and requirements of a kernel ---*- C++ -*-===//
//
// `tile.launch` states a kernel's grid and the conditions its scalar
// arguments must meet as short integer expressions, e.g. grid =
// ["cdiv(rows, BLOCK_M)", 1, 1] and requires = ["cols <= 256"]
// (docs/DSL.md, "Launch rules"). They are compiled into the manifest's
// expression language (docs/ABI.md, "Extents"), which launchers evaluate.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DIALECT_TILE_IR_LAUNCHEXPR_H
#define MLA_DIALECT_TILE_IR_LAUNCHEXPR_H

#include "mla/Dialect/Tile/IR/TileOps.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mla::tile {

/// Grid sizes are integer expressions; requirements are comparisons.
enum class LaunchExprKind { Size, Condition };

/// A requirement may read a pointer argument as its address, only to say
/// it is aligned: `P % C == 0`, C a power of two up to this. mla-run
/// allocates every buffer at a multiple of it (docs/ABI.md).
constexpr int64_t kMaxRequiredAlignment = 64;

/// The manifest expression for `text`, an expression of `kernel`'s integer
/// scalar arguments and integer parameters, or nullopt with `error` saying
/// what is wrong. A parameter becomes its value where the kernel is an
/// instance (it has `tile.params`), and `{"param": NAME}` where it is still
/// parameterized, which only the verifier sees.
std::optional<llvm::json::Value> compileLaunchExpr(KernelOp kernel,
                                                   llvm::StringRef text,
                                                   LaunchExprKind kind,
                                                   std::string &error);

/// One `tile.launch` grid entry of `kernel` in manifest form: an integer,
/// an expression, or the name of a problem quantity that an application
/// launcher computes (a bare name that is no argument or parameter, which
/// only kernels with a `role` may use); nullopt with `error` set.
std::optional<llvm::json::Value>
compileGridEntry(KernelOp kernel, mlir::Attribute entry, std::string &error);

/// Where compiled requirement `condition` of `kernel` is `P % C == 0` with
/// P a pointer argument and C a constant: P's name and C.
std::optional<std::pair<std::string, int64_t>>
matchAlignmentRequirement(KernelOp kernel, const llvm::json::Value &condition);

/// Whether compiled expression `expr` reads a pointer argument of `kernel`.
bool readsPointer(KernelOp kernel, const llvm::json::Value &expr);

} // namespace mla::tile

#endif // MLA_DIALECT_TILE_IR_LAUNCHEXPR_H
