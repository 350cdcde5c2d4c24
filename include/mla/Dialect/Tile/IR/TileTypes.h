//===- TileTypes.h - Tile dialect types and attributes ----------*- C++ -*-===//

#ifndef MLA_DIALECT_TILE_IR_TILETYPES_H
#define MLA_DIALECT_TILE_IR_TILETYPES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "mla/Dialect/Tile/IR/TileEnums.h.inc"
#include "mla/Dialect/Tile/IR/TileInterfaces.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mla/Dialect/Tile/IR/TileTypes.h.inc"

namespace mla::tile {

//===----------------------------------------------------------------------===//
// Deriving tile types from operand types
//
// Shapes follow the op; the encoding follows TileEncodingAttrInterface where
// the operand's encoding implements it and has an opinion, and is otherwise
// kept unchanged, so a layout attached to a tile survives every rewrite.
//===----------------------------------------------------------------------===//

/// `type` without dimension `dim`.
mlir::RankedTensorType getReducedType(mlir::RankedTensorType type, int64_t dim);

/// The transpose of the 2-D tile type `type`.
mlir::RankedTensorType getTransposedType(mlir::RankedTensorType type);

/// `input` broadcast to `shape`, where `newDims` are the result dimensions
/// the input lacks.
mlir::RankedTensorType getBroadcastType(mlir::RankedTensorType input,
                                        llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<int64_t> newDims);

/// A tile of `shape` and `elementType` with `like`'s encoding: for results
/// that are not a reduce, broadcast or transpose of one operand (products,
/// dequantized tiles).
mlir::RankedTensorType getTileLike(mlir::RankedTensorType like,
                                   llvm::ArrayRef<int64_t> shape,
                                   mlir::Type elementType);

/// `tensor<M x f32>` for an accumulator `tensor<M x D x f32>`: the type of the
/// per-row softmax state (running max and sum).
mlir::Type getRowStateType(mlir::Type accType);

/// `tensor<S x M x f32>` for split partials `tensor<S x M x D x f32>`.
mlir::Type getSplitStateType(mlir::Type partialType);

/// Name of the kernel attribute that tells launchers how to size the grid.
constexpr llvm::StringLiteral kLaunchAttrName = "tile.launch";

} // namespace mla::tile

#endif // MLA_DIALECT_TILE_IR_TILETYPES_H
