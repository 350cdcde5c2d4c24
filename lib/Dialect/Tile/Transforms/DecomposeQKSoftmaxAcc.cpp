//===- DecomposeQKSoftmaxAcc.cpp - Online softmax step to primitives -----===//

#include "TileBuilder.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mla::tile;

namespace {
struct DecomposeQKSoftmaxAcc : OpRewritePattern<QKSoftmaxAccOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QKSoftmaxAccOp op,
                                PatternRewriter &rewriter) const override {
    TileBuilder b(op.getLoc(), rewriter);
    RankedTensorType qType = op.getQ().getType();
    RankedTensorType kType = op.getK().getType();
    RankedTensorType vType = op.getV().getType();
    RankedTensorType accType = op.getAcc().getType();
    int64_t m = qType.getDimSize(0), n = kType.getDimSize(0);

    // s = scale * q k^T, both operands in one element type. The scores are
    // the product's result: shaped [M, N] like q.
    Value q = op.getQ(), k = op.getK();
    if (qType.getElementType() != kType.getElementType()) {
      q = b.toF32(q);
      k = b.toF32(k);
    }
    RankedTensorType scoreType = getTileLike(qType, {m, n}, b.getF32Type());
    Value kt = b.transpose(k);
    Value s = b.create<DotOp>(scoreType, q, kt, b.f32Splat(0, scoreType));
    s = b.create<arith::MulFOp>(
        s, b.create<SplatOp>(scoreType, op.getScale()).getResult());
    if (Value mask = op.getMask()) {
      if (TileBuilder::typeOf(mask).getRank() == 1)
        mask = b.broadcast(mask, scoreType.getShape(), /*dims=*/{0});
      s = b.create<arith::SelectOp>(mask, s, b.negInfSplat(scoreType));
    }

    // m' = max(m, rowmax s); rows still at -inf use 0 as reference.
    Value newM = b.create<arith::MaximumFOp>(
        op.getM(), b.reduce(ReduceKind::max, s, /*dim=*/1));
    Value ref = b.negInfToZero(newM);
    Value alpha =
        b.create<math::ExpOp>(b.create<arith::SubFOp>(op.getM(), ref));
    Value p = b.create<math::ExpOp>(b.create<arith::SubFOp>(
        s, b.broadcast(ref, scoreType.getShape(), {1})));

    // l' = l * alpha + rowsum p
    Value newL =
        b.create<arith::AddFOp>(b.create<arith::MulFOp>(op.getL(), alpha),
                                b.reduce(ReduceKind::sum, p, /*dim=*/1));

    // acc' = acc * alpha + p v, with p rounded to v's element type.
    Value pv = p;
    if (!vType.getElementType().isF32())
      pv =
          b.create<arith::TruncFOp>(scoreType.clone(vType.getElementType()), p);
    Value scaledAcc = b.create<arith::MulFOp>(
        op.getAcc(), b.broadcast(alpha, accType.getShape(), {1}));
    Value newAcc = b.create<DotOp>(accType, pv, op.getV(), scaledAcc);

    rewriter.replaceOp(op, {newM, newL, newAcc});
    return success();
  }
};
} // namespace

void mla::tile::populateDecomposeQKSoftmaxAccPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeQKSoftmaxAcc>(patterns.getContext());
}
