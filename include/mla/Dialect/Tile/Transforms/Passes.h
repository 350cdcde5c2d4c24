//===- Passes.h - Tile dialect transformation passes ------------*- C++ -*-===//

#ifndef MLA_DIALECT_TILE_TRANSFORMS_PASSES_H
#define MLA_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mla/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace mla::tile {

#define GEN_PASS_DECL
#include "mla/Dialect/Tile/Transforms/Passes.h.inc"

/// The instance set of one kernel given on a command line,
/// `KERNEL:PARAM=V1,V2[:PARAM=...]`: values as written, per parameter.
struct InstanceOverride {
  std::string kernel;
  llvm::SmallVector<std::pair<std::string, llvm::SmallVector<std::string>>>
      params;
};

/// Parses `spec`, overrides separated by ';', into `overrides` (a kernel
/// given several times has the union of its sets). On failure,
/// `error` says what is wrong in one line.
mlir::LogicalResult
parseInstanceOverrides(llvm::StringRef spec,
                       llvm::SmallVectorImpl<InstanceOverride> &overrides,
                       std::string &error);

/// Patterns of `tile-decompose`, for targets that lower some high-level ops
/// directly and decompose the rest.
void populateDecomposeQKSoftmaxAccPatterns(mlir::RewritePatternSet &patterns);
void populateDecomposeSplitReducePatterns(mlir::RewritePatternSet &patterns);
/// With `keepScaledFp4`, products of two block-scaled fp4 operands stay.
void populateDecomposeDotScaledPatterns(mlir::RewritePatternSet &patterns,
                                        bool keepScaledFp4 = false);

#define GEN_PASS_REGISTRATION
#include "mla/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace mla::tile

#endif // MLA_DIALECT_TILE_TRANSFORMS_PASSES_H
