//===- DecomposeDotScaled.cpp - MX-scaled product to dequant + dot -------===//

#include "TileBuilder.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mla::tile;

/// Dequantizes a K-last operand `[rows, K or K/2]` to f32 `[rows, K]`.
static Value dequantKLast(TileBuilder &b, Value operand, Value scale,
                          int64_t k) {
  RankedTensorType type = TileBuilder::typeOf(operand);
  RankedTensorType f32Type =
      getTileLike(type, {type.getDimSize(0), k}, b.getF32Type());
  if (scale)
    return b.create<DequantMxOp>(f32Type, operand, scale);
  if (isa<FloatType>(type.getElementType()) &&
      cast<FloatType>(type.getElementType()).getWidth() == 8)
    return b.create<DequantFp8Op>(
        f32Type, operand,
        b.create<arith::ConstantOp>(b.getF32FloatAttr(1.0)).getResult());
  return b.toF32(operand);
}

static LogicalResult decomposeDotScaled(DotScaledOp op,
                                        PatternRewriter &rewriter) {
  TileBuilder b(op.getLoc(), rewriter);
  RankedTensorType accType = op.getAcc().getType();
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  int64_t k =
      lhsType.getDimSize(1) * (lhsType.getElementType().isInteger(8) ? 2 : 1);
  Value lhs = dequantKLast(b, op.getLhs(), op.getLhsScale(), k);
  // The rhs is blocked along K = dim 0 while its scales are [N, K/32]:
  // dequantize it K-last, then turn it back.
  Value rhs = b.transpose(
      dequantKLast(b, b.transpose(op.getRhs()), op.getRhsScale(), k));
  rewriter.replaceOpWithNewOp<DotOp>(op, accType, lhs, rhs, op.getAcc());
  return success();
}

void mla::tile::populateDecomposeDotScaledPatterns(
    RewritePatternSet &patterns) {
  patterns.add(decomposeDotScaled);
}
