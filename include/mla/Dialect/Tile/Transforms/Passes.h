//===- Passes.h - Tile dialect transformation passes ------------*- C++ -*-===//

#ifndef MLA_DIALECT_TILE_TRANSFORMS_PASSES_H
#define MLA_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mla/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace mla::tile {

#define GEN_PASS_DECL
#include "mla/Dialect/Tile/Transforms/Passes.h.inc"

/// Patterns of `tile-decompose`, for targets that lower some high-level ops
/// directly and decompose the rest.
void populateDecomposeQKSoftmaxAccPatterns(mlir::RewritePatternSet &patterns);
void populateDecomposeSplitReducePatterns(mlir::RewritePatternSet &patterns);
void populateDecomposeDotScaledPatterns(mlir::RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "mla/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace mla::tile

#endif // MLA_DIALECT_TILE_TRANSFORMS_PASSES_H
