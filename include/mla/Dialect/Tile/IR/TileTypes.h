//===- TileTypes.h - Tile dialect types and attributes ----------*- C++ -*-===//

#ifndef MLA_DIALECT_TILE_IR_TILETYPES_H
#define MLA_DIALECT_TILE_IR_TILETYPES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "mla/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mla/Dialect/Tile/IR/TileTypes.h.inc"

namespace mla::tile {

/// `tensor<M x f32>` for an accumulator `tensor<M x D x f32>`: the type of the
/// per-row softmax state (running max and sum).
mlir::Type getRowStateType(mlir::Type accType);

/// `tensor<S x M x f32>` for split partials `tensor<S x M x D x f32>`.
mlir::Type getSplitStateType(mlir::Type partialType);

/// Name of the kernel attribute that tells launchers how to size the grid.
constexpr llvm::StringLiteral kLaunchAttrName = "tile.launch";

} // namespace mla::tile

#endif // MLA_DIALECT_TILE_IR_TILETYPES_H
