//===- Build.cpp - Tile construction ops on the host ----------------------===//

#include "HostLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mla;

namespace {
struct RangeLowering : OpConversionPattern<tile::RangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType = op.getType().getElementType();
    Value start = adaptor.getStart();
    rewriter.replaceOpWithNewOp<tensor::GenerateOp>(
        op, op.getType(), ValueRange{},
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value i = ivs.front();
          if (!elementType.isIndex())
            i = arith::IndexCastOp::create(b, loc, elementType, i);
          if (start)
            i = arith::AddIOp::create(b, loc, start, i);
          tensor::YieldOp::create(b, loc, i);
        });
    return success();
  }
};

/// A tile op that one linalg op computes into a new tile of its result
/// type: `build` creates that op from the converted operands and the tile.
template <typename SourceOp,
          Operation *(*build)(OpBuilder &, SourceOp, typename SourceOp::Adaptor,
                              Value)>
struct IntoNewTileLowering : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value empty = host::emptyTile(rewriter, op.getLoc(), op.getType());
    rewriter.replaceOp(op, build(rewriter, op, adaptor, empty));
    return success();
  }
};

Operation *fill(OpBuilder &b, tile::SplatOp op, tile::SplatOp::Adaptor adaptor,
                Value empty) {
  return linalg::FillOp::create(b, op.getLoc(), adaptor.getValue(), empty);
}
Operation *broadcast(OpBuilder &b, tile::BroadcastOp op,
                     tile::BroadcastOp::Adaptor adaptor, Value empty) {
  return linalg::BroadcastOp::create(b, op.getLoc(), adaptor.getInput(), empty,
                                     op.getDims());
}
Operation *transpose(OpBuilder &b, tile::TransOp op,
                     tile::TransOp::Adaptor adaptor, Value empty) {
  return linalg::TransposeOp::create(b, op.getLoc(), adaptor.getInput(), empty,
                                     ArrayRef<int64_t>{1, 0});
}
using SplatLowering = IntoNewTileLowering<tile::SplatOp, fill>;
using BroadcastLowering = IntoNewTileLowering<tile::BroadcastOp, broadcast>;
using TransLowering = IntoNewTileLowering<tile::TransOp, transpose>;
} // namespace

void mla::populateTileBuildToHostPatterns(const HostTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<RangeLowering, SplatLowering, BroadcastLowering, TransLowering>(
      converter, patterns.getContext());
}
