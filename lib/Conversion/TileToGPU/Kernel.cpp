//===- Kernel.cpp - Program ids, scalars and the kernel's end -------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;

namespace {
struct ReturnLowering : OpConversionPattern<tile::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<mlir::gpu::ReturnOp>(op);
    return success();
  }
};

struct ProgramIdLowering : OpConversionPattern<tile::ProgramIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ProgramIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dim = static_cast<mlir::gpu::Dimension>(op.getAxis());
    rewriter.replaceOpWithNewOp<mlir::gpu::BlockIdOp>(op, dim);
    return success();
  }
};

struct NumProgramsLowering : OpConversionPattern<tile::NumProgramsOp> {
  NumProgramsLowering(GpuTypeConverter &converter, MLIRContext *ctx,
                      LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}
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
  LoweringState &state;
};

/// A per-program scalar (indptr entries, work items): one plain load, the
/// same address in every lane.
struct LoadScalarLowering : OpConversionPattern<tile::LoadScalarOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LoadScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = memoryType(op.getType());
    Value index = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI64Type(), adaptor.getIndex());
    Value address =
        LLVM::GEPOp::create(rewriter, loc, adaptor.getPtr().getType(), element,
                            adaptor.getPtr(), ValueRange{index});
    Value value = LLVM::LoadOp::create(rewriter, loc, element, address,
                                       memoryBytes(op.getType()));
    rewriter.replaceOp(op, fromMemory(rewriter, loc, value, op.getType()));
    return success();
  }
};
} // namespace

void mla::gpu::populateKernelPatterns(GpuTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ReturnLowering, ProgramIdLowering, LoadScalarLowering>(converter,
                                                                      ctx);
  patterns.add<NumProgramsLowering>(converter, ctx, state);
}
