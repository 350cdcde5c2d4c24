//===- DecomposeQKSoftmaxAcc.cpp - Online softmax step to primitives -----===//

#include "TileBuilder.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;
using namespace mla::tile;

/// The value tile: `v`, or without it the first Dv columns of `k`.
static Value getValues(TileBuilder &b, QKSoftmaxAccOp op) {
  if (Value v = op.getV())
    return v;
  RankedTensorType kType = op.getK().getType();
  int64_t n = kType.getDimSize(0), dv = op.getAcc().getType().getDimSize(1);
  if (dv == kType.getDimSize(1))
    return op.getK();
  SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(n), b.getIndexAttr(dv)};
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  return b.create<tensor::ExtractSliceOp>(
      getTileLike(kType, {n, dv}, kType.getElementType()), op.getK(), offsets,
      sizes, strides);
}

static LogicalResult decomposeQKSoftmaxAcc(QKSoftmaxAccOp op,
                                           PatternRewriter &rewriter) {
  TileBuilder b(op.getLoc(), rewriter);
  RankedTensorType qType = op.getQ().getType();
  RankedTensorType kType = op.getK().getType();
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

  // m' = max(m, rowmax s); rows still at -inf use 0 as reference. The
  // row max may skip NaN scores: exp(NaN - m) makes the row NaN anyway.
  Value newM = b.create<arith::MaximumFOp>(
      op.getM(), b.reduce(ReduceKind::maxnum, s, /*dim=*/1));
  Value ref = b.negInfToZero(newM);
  // exp(x - ref) as exp2(x * log2(e) + ref * -log2(e)), which a target
  // computes with one multiply-add per element: the shift is one product
  // per row.
  RankedTensorType rowType = TileBuilder::typeOf(ref);
  Value shift = b.create<arith::MulFOp>(ref, b.f32Splat(-M_LOG2E, rowType));
  auto exp2Shifted = [&](Value x, Value by) {
    auto contract = arith::FastMathFlags::contract;
    Value log2e = b.f32Splat(M_LOG2E, TileBuilder::typeOf(x));
    Value scaled = b.create<arith::MulFOp>(x, log2e, contract);
    return b.create<math::Exp2Op>(
        b.create<arith::AddFOp>(scaled, by, contract));
  };
  Value alpha = exp2Shifted(op.getM(), shift);
  Value p = exp2Shifted(s, b.broadcast(shift, scoreType.getShape(), {1}));

  // l' = l * alpha + rowsum p
  Value newL =
      b.create<arith::AddFOp>(b.create<arith::MulFOp>(op.getL(), alpha),
                              b.reduce(ReduceKind::sum, p, /*dim=*/1));

  // acc' = acc * alpha + p v, with p rounded to v's element type.
  Value v = getValues(b, op);
  Type vElem = TileBuilder::typeOf(v).getElementType();
  Value pv = p;
  if (!vElem.isF32())
    pv = b.create<arith::TruncFOp>(scoreType.clone(vElem), p);
  Value scaledAcc = b.create<arith::MulFOp>(
      op.getAcc(), b.broadcast(alpha, accType.getShape(), {1}));
  Value newAcc = b.create<DotOp>(accType, pv, v, scaledAcc);

  rewriter.replaceOp(op, {newM, newL, newAcc});
  return success();
}

void mla::tile::populateDecomposeQKSoftmaxAccPatterns(
    RewritePatternSet &patterns) {
  patterns.add(decomposeQKSoftmaxAcc);
}
