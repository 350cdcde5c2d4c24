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
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType(), type = op.getType();
    LaneMap from = getLaneMap(srcType), to = getLaneMap(type);
    // Same lanes and warps: renumber registers.
    if (from.sameLanesAndWarps(to)) {
      SmallVector<int64_t> picks = to.registerPermutationTo(from);
      if (!llvm::is_contained(picks, -1)) {
        rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getSrc(),
                                                       adaptor.getSrc(), picks);
        return success();
      }
    }
    rewriter.replaceOp(
        op, exchangeThroughLds(rewriter, loc, state, state.idsFor(op),
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
