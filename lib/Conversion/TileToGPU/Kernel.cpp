//===- Kernel.cpp - Program ids, scalars and the kernel's end -------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;

namespace {
struct ReturnLowering : GpuOpLowering<tile::ReturnOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<mlir::gpu::ReturnOp>(op);
    return success();
  }
};

struct ProgramIdLowering : GpuOpLowering<tile::ProgramIdOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::ProgramIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dim = static_cast<mlir::gpu::Dimension>(op.getAxis());
    rewriter.replaceOpWithNewOp<mlir::gpu::BlockIdOp>(op, dim);
    return success();
  }
};

struct NumProgramsLowering : GpuOpLowering<tile::NumProgramsOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::NumProgramsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<mlir::gpu::GPUFuncOp>();
    std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
    int64_t threads = block ? (*block)[0] : 1;
    rewriter.replaceOp(op, state.target.numPrograms(
                               rewriter, op.getLoc(),
                               static_cast<unsigned>(op.getAxis()), threads));
    return success();
  }
};
} // namespace

void mla::gpu::populateKernelPatterns(GpuTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  patterns.add<ReturnLowering, ProgramIdLowering, NumProgramsLowering>(
      converter, patterns.getContext(), state);
}
