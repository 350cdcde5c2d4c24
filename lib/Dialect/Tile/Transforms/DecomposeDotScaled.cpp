//===- DecomposeDotScaled.cpp - MX-scaled product to dequant + dot -------===//

#include "TileBuilder.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mla::tile;

/// Whether every value of `operand` (with `scale`, if any) is a bf16: a
/// bf16 tile; fp4 values scaled by any E8M0 (one significant bit past the
/// leading one, 2^-128 at the least, inside bf16's subnormals); fp8
/// without a block scale. fp8 values under a block scale can fall below
/// bf16's smallest subnormal (an e4m3 2^-9 times 2^-127).
static bool exactInBF16(Value operand, Value scale) {
  Type element = TileBuilder::typeOf(operand).getElementType();
  if (element.isBF16() || element.isInteger(8))
    return true;
  auto fp = dyn_cast<FloatType>(element);
  return fp && fp.getWidth() == 8 && !scale;
}

/// Dequantizes a K-last operand `[rows, K or K/2]` to `element` `[rows, K]`.
static Value dequantKLast(TileBuilder &b, Value operand, Value scale, int64_t k,
                          Type element) {
  RankedTensorType type = TileBuilder::typeOf(operand);
  RankedTensorType wide = getTileLike(type, {type.getDimSize(0), k}, element);
  if (scale)
    return b.create<DequantMxOp>(wide, operand, scale);
  if (isa<FloatType>(type.getElementType()) &&
      cast<FloatType>(type.getElementType()).getWidth() == 8)
    return b.create<DequantFp8Op>(
        wide, operand,
        b.create<arith::ConstantOp>(b.getF32FloatAttr(1.0)).getResult());
  if (type.getElementType() == element)
    return operand;
  return b.create<arith::ExtFOp>(wide, operand);
}

/// The product of the dequantized operands, in bf16 where both are exact
/// in it (the matrix cores' rate; the f32 products and sums are the same),
/// else in f32.
static LogicalResult decomposeDotScaled(DotScaledOp op,
                                        PatternRewriter &rewriter) {
  TileBuilder b(op.getLoc(), rewriter);
  RankedTensorType accType = op.getAcc().getType();
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  int64_t k =
      lhsType.getDimSize(1) * (lhsType.getElementType().isInteger(8) ? 2 : 1);
  Type element = exactInBF16(op.getLhs(), op.getLhsScale()) &&
                         exactInBF16(op.getRhs(), op.getRhsScale())
                     ? Type(b.getBF16Type())
                     : Type(b.getF32Type());
  Value lhs = dequantKLast(b, op.getLhs(), op.getLhsScale(), k, element);
  // The rhs is blocked along K = dim 0 while its scales are [N, K/32]:
  // dequantize it K-last, then turn it back.
  Value rhs = b.transpose(
      dequantKLast(b, b.transpose(op.getRhs()), op.getRhsScale(), k, element));
  rewriter.replaceOpWithNewOp<DotOp>(op, accType, lhs, rhs, op.getAcc());
  return success();
}

/// Whether `operand` is packed fp4 under E8M0 block scales.
static bool isScaledFp4(Value operand, Value scale) {
  return scale && TileBuilder::typeOf(operand).getElementType().isInteger(8);
}

namespace {
struct DecomposeDotScaled : OpRewritePattern<DotScaledOp> {
  DecomposeDotScaled(MLIRContext *ctx, bool keepScaledFp4)
      : OpRewritePattern(ctx), keepScaledFp4(keepScaledFp4) {}
  LogicalResult matchAndRewrite(DotScaledOp op,
                                PatternRewriter &rewriter) const override {
    // The scaled instruction takes K in steps of 128 (16x16x128); other
    // contraction lengths decompose.
    int64_t packedK = TileBuilder::typeOf(op.getLhs()).getDimSize(1);
    if (keepScaledFp4 && isScaledFp4(op.getLhs(), op.getLhsScale()) &&
        isScaledFp4(op.getRhs(), op.getRhsScale()) &&
        !ShapedType::isDynamic(packedK) && (2 * packedK) % 128 == 0)
      return failure();
    return decomposeDotScaled(op, rewriter);
  }
  bool keepScaledFp4;
};
} // namespace

void mla::tile::populateDecomposeDotScaledPatterns(RewritePatternSet &patterns,
                                                   bool keepScaledFp4) {
  patterns.add<DecomposeDotScaled>(patterns.getContext(), keepScaledFp4);
}
