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
    auto generate = tensor::GenerateOp::create(
        rewriter, op.getLoc(), op.getType(), ValueRange{},
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value i = ivs.front();
          if (!elementType.isIndex())
            i = arith::IndexCastOp::create(b, loc, elementType, i);
          if (start)
            i = arith::AddIOp::create(b, loc, start, i);
          tensor::YieldOp::create(b, loc, i);
        });
    rewriter.replaceOp(op, generate.getResult());
    return success();
  }
};

struct SplatLowering : OpConversionPattern<tile::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value empty = host::emptyTile(rewriter, op.getLoc(), op.getType());
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, adaptor.getValue(), empty);
    return success();
  }
};

struct BroadcastLowering : OpConversionPattern<tile::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value empty = host::emptyTile(rewriter, op.getLoc(), op.getType());
    auto broadcast = linalg::BroadcastOp::create(
        rewriter, op.getLoc(), adaptor.getInput(), empty, op.getDims());
    rewriter.replaceOp(op, broadcast.getResults());
    return success();
  }
};

struct TransLowering : OpConversionPattern<tile::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value empty = host::emptyTile(rewriter, op.getLoc(), op.getType());
    auto transpose =
        linalg::TransposeOp::create(rewriter, op.getLoc(), adaptor.getInput(),
                                    empty, ArrayRef<int64_t>{1, 0});
    rewriter.replaceOp(op, transpose.getResults());
    return success();
  }
};
} // namespace

void mla::populateTileBuildToHostPatterns(const HostTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<RangeLowering, SplatLowering, BroadcastLowering, TransLowering>(
      converter, patterns.getContext());
}
