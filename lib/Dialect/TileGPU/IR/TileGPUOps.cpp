//===- TileGPUOps.cpp - Layout conversions and LDS ------------------------===//

#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mla::tilegpu;

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

namespace {
/// convert(convert(x)) -> convert(x): the middle layout is never needed.
struct FoldConvertChain : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "source is not a conversion");
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                 inner.getSrc());
    return success();
  }
};

/// A conversion of a splat constant is the constant in the new layout.
struct FoldConvertOfSplat : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    SplatElementsAttr splat;
    if (!matchPattern(op.getSrc(), m_Constant(&splat)))
      return rewriter.notifyMatchFailure(op, "source is not a splat");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, SplatElementsAttr::get(op.getType(),
                                   splat.getSplatValue<Attribute>()));
    return success();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<FoldConvertChain, FoldConvertOfSplat>(context);
}

#define GET_OP_CLASSES
#include "mla/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
