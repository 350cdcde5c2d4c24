//===- ConvertLayout.cpp - Moving tiles between layouts -------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

namespace {
struct ConvertLayoutLowering : GpuOpLowering<ConvertLayoutOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType(), type = op.getType();
    LaneMap from = getLaneMap(srcType), to = getLaneMap(type);
    if (inRegisters(from, to)) {
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(
          op, adaptor.getSrc(), adaptor.getSrc(),
          to.registerPermutationTo(from));
      return success();
    }
    rewriter.replaceOp(
        op, exchangeThroughLds(rewriter, op.getLoc(), state, state.idsFor(op),
                               adaptor.getSrc(), from, to,
                               type.getElementType(), registerType(type)));
    return success();
  }
};
} // namespace

void mla::gpu::populateConvertLayoutPatterns(GpuTypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             LoweringState &state) {
  patterns.add<ConvertLayoutLowering>(converter, patterns.getContext(), state);
}
