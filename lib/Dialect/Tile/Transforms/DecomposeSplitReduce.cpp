//===- DecomposeSplitReduce.cpp - Split-KV combine to primitives ---------===//

#include "TileBuilder.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mla::tile;

/// out = sum_i w_i x_i / sum_i w_i d_i with w_i = exp(r_i - max_j r_j),
/// where (x, r, d) is (o, lse, 1) or (acc, m, l). Empty splits (r_i = -inf)
/// are selected away rather than multiplied by zero, so NaN or garbage in an
/// unwritten partial cannot leak into the result.
static LogicalResult decomposeSplitReduce(SplitReduceOp op,
                                          PatternRewriter &rewriter) {
  TileBuilder b(op.getLoc(), rewriter);
  ArrayRef<int64_t> partialShape = op.getPartial().getType().getShape();
  ArrayRef<int64_t> stateShape = partialShape.drop_back(); // [S, M]
  ArrayRef<int64_t> outShape = op.getType().getShape();    // [M, D]
  Value ref = op.getLse() ? op.getLse() : op.getMax();

  Value globalMax = b.negInfToZero(b.reduce(ReduceKind::max, ref, 0));
  Value empty = b.isNegInf(ref);
  Value weight =
      b.zeroWhere(empty, b.create<math::ExpOp>(b.create<arith::SubFOp>(
                             ref, b.broadcast(globalMax, stateShape, {0}))));

  Value weighted = b.create<arith::MulFOp>(
      op.getPartial(), b.broadcast(weight, partialShape, {2}));
  weighted = b.zeroWhere(b.broadcast(empty, partialShape, {2}), weighted);
  Value numerator = b.reduce(ReduceKind::sum, weighted, 0);

  Value denomTerms = weight;
  if (op.getSum())
    denomTerms =
        b.zeroWhere(empty, b.create<arith::MulFOp>(weight, op.getSum()));
  Value denominator = b.reduce(ReduceKind::sum, denomTerms, 0);

  Value quotient = b.create<arith::DivFOp>(
      numerator, b.broadcast(denominator, outShape, {1}));
  Value noMass =
      b.create<arith::CmpFOp>(arith::CmpFPredicate::OEQ, denominator,
                              b.f32Splat(0, TileBuilder::typeOf(denominator)));
  rewriter.replaceOp(op,
                     b.zeroWhere(b.broadcast(noMass, outShape, {1}), quotient));
  return success();
}

void mla::tile::populateDecomposeSplitReducePatterns(
    RewritePatternSet &patterns) {
  patterns.add(decomposeSplitReduce);
}
