//===- TileBuilder.h - Helpers for building tile arithmetic -----*- C++ -*-===//
//
// Shorthands used by the decomposition patterns: constant tiles,
// broadcasts, reductions and the -inf guards that keep online softmax
// finite. Every tile type is derived from an operand's type, so the
// operands' encodings carry over to what the patterns build.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_DIALECT_TILE_TRANSFORMS_TILEBUILDER_H
#define MLA_LIB_DIALECT_TILE_TRANSFORMS_TILEBUILDER_H

#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mla::tile {

class TileBuilder : public mlir::ImplicitLocOpBuilder {
public:
  using ImplicitLocOpBuilder::ImplicitLocOpBuilder;

  static mlir::RankedTensorType typeOf(mlir::Value tile) {
    return mlir::cast<mlir::RankedTensorType>(tile.getType());
  }

  /// `like` with f32 elements.
  mlir::RankedTensorType f32Like(mlir::RankedTensorType like) {
    return like.clone(getF32Type());
  }

  /// A constant f32 tile of `like`'s shape and encoding, every element
  /// `value`.
  mlir::Value f32Splat(double value, mlir::RankedTensorType like) {
    mlir::RankedTensorType type = f32Like(like);
    return create<mlir::arith::ConstantOp>(mlir::SplatElementsAttr::get(
        type, getFloatAttr(type.getElementType(), value)));
  }

  mlir::Value negInfSplat(mlir::RankedTensorType like) {
    return f32Splat(-std::numeric_limits<double>::infinity(), like);
  }

  /// Broadcasts `value` to `shape`; `dims` are the result dims it lacks.
  mlir::Value broadcast(mlir::Value value, llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<int64_t> dims) {
    return create<BroadcastOp>(getBroadcastType(typeOf(value), shape, dims),
                               value, dims);
  }

  /// Reduces `value` along `dim`.
  mlir::Value reduce(ReduceKind kind, mlir::Value value, int64_t dim) {
    return create<ReduceOp>(getReducedType(typeOf(value), dim), kind, value,
                            dim);
  }

  /// The transpose of the 2-D tile `value`.
  mlir::Value transpose(mlir::Value value) {
    return create<TransOp>(getTransposedType(typeOf(value)), value);
  }

  /// `value == -inf`, elementwise.
  mlir::Value isNegInf(mlir::Value value) {
    return create<mlir::arith::CmpFOp>(mlir::arith::CmpFPredicate::OEQ, value,
                                       negInfSplat(typeOf(value)));
  }

  /// `value`, with -inf replaced by 0: the reference point of a softmax
  /// row that has seen no key yet, so that `exp(x - ref)` stays defined.
  mlir::Value negInfToZero(mlir::Value value) {
    return create<mlir::arith::SelectOp>(isNegInf(value),
                                         f32Splat(0, typeOf(value)), value);
  }

  /// `value` where `cond` is false, 0 where it is true.
  mlir::Value zeroWhere(mlir::Value cond, mlir::Value value) {
    return create<mlir::arith::SelectOp>(cond, f32Splat(0, typeOf(value)),
                                         value);
  }

  /// Converts a float tile to f32 (no-op for f32).
  mlir::Value toF32(mlir::Value value) {
    mlir::RankedTensorType type = typeOf(value);
    if (type.getElementType().isF32())
      return value;
    return create<mlir::arith::ExtFOp>(f32Like(type), value);
  }
};

} // namespace mla::tile

#endif // MLA_LIB_DIALECT_TILE_TRANSFORMS_TILEBUILDER_H
