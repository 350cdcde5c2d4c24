//===- TileBuilder.h - Helpers for building tile arithmetic -----*- C++ -*-===//
//
// Shorthands used by the decomposition patterns: f32 constant tiles,
// broadcasts, reductions and the -inf guards that keep online softmax
// finite.
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

  static mlir::RankedTensorType f32Tile(mlir::MLIRContext *ctx,
                                        llvm::ArrayRef<int64_t> shape) {
    return mlir::RankedTensorType::get(shape, mlir::Float32Type::get(ctx));
  }

  /// A constant f32 tile with every element `value`.
  mlir::Value f32Splat(double value, llvm::ArrayRef<int64_t> shape) {
    auto type = f32Tile(getContext(), shape);
    return create<mlir::arith::ConstantOp>(mlir::SplatElementsAttr::get(
        type, getFloatAttr(type.getElementType(), value)));
  }

  mlir::Value negInfSplat(llvm::ArrayRef<int64_t> shape) {
    return f32Splat(-std::numeric_limits<double>::infinity(), shape);
  }

  /// Broadcasts `value` to `shape`; `dims` are the result dims it lacks.
  mlir::Value broadcast(mlir::Value value, llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<int64_t> dims) {
    auto type = mlir::RankedTensorType::get(
        shape, mlir::getElementTypeOrSelf(value.getType()));
    return create<BroadcastOp>(type, value, dims);
  }

  /// Reduces `value` along `dim`.
  mlir::Value reduce(ReduceKind kind, mlir::Value value, int64_t dim) {
    auto type = mlir::cast<mlir::RankedTensorType>(value.getType());
    llvm::SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + dim);
    return create<ReduceOp>(
        mlir::RankedTensorType::get(shape, type.getElementType()), kind, value,
        dim);
  }

  /// `value == -inf`, elementwise.
  mlir::Value isNegInf(mlir::Value value) {
    auto shape = mlir::cast<mlir::RankedTensorType>(value.getType()).getShape();
    return create<mlir::arith::CmpFOp>(mlir::arith::CmpFPredicate::OEQ, value,
                                       negInfSplat(shape));
  }

  /// `value`, with -inf replaced by 0: the reference point of a softmax
  /// row that has seen no key yet, so that `exp(x - ref)` stays defined.
  mlir::Value negInfToZero(mlir::Value value) {
    auto shape = mlir::cast<mlir::RankedTensorType>(value.getType()).getShape();
    return create<mlir::arith::SelectOp>(isNegInf(value), f32Splat(0, shape),
                                         value);
  }

  /// `value` where `cond` is false, 0 where it is true.
  mlir::Value zeroWhere(mlir::Value cond, mlir::Value value) {
    auto shape = mlir::cast<mlir::RankedTensorType>(value.getType()).getShape();
    return create<mlir::arith::SelectOp>(cond, f32Splat(0, shape), value);
  }

  /// Converts a float tile to f32 (no-op for f32).
  mlir::Value toF32(mlir::Value value) {
    auto type = mlir::cast<mlir::RankedTensorType>(value.getType());
    if (type.getElementType().isF32())
      return value;
    return create<mlir::arith::ExtFOp>(f32Tile(getContext(), type.getShape()),
                                       value);
  }
};

} // namespace mla::tile

#endif // MLA_LIB_DIALECT_TILE_TRANSFORMS_TILEBUILDER_H
