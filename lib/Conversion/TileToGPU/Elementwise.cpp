//===- Elementwise.cpp - arith and math on tiles --------------------------===//
//
// Operands and result of an elementwise op share one layout, so the op
// applies register by register: the same op on the per-lane vectors.
// `exp` becomes the chip's base-2 exponential of x * log2(e), `log` the
// target's natural logarithm.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;

static bool hasTileTypes(Operation *op) {
  auto isTile = [](Type type) {
    return tilegpu::getLayout(type) != nullptr;
  };
  return llvm::any_of(op->getOperandTypes(), isTile) ||
         llvm::any_of(op->getResultTypes(), isTile);
}

namespace {
/// Any elementwise arith/math op on tiles -> the same op on registers.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(GpuTypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        !op->hasTrait<OpTrait::Elementwise>() || !hasTileTypes(op) ||
        op->getNumRegions() != 0)
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(typeConverter->convertTypes(op->getResultTypes(), resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// exp(x) = exp2(x * log2(e)), on the chip's exp2 instruction.
struct ExpLowering : OpConversionPattern<math::ExpOp> {
  ExpLowering(GpuTypeConverter &converter, MLIRContext *ctx,
              LoweringState &state)
      : OpConversionPattern(converter, ctx, /*benefit=*/2), state(state) {}
  LogicalResult
  matchAndRewrite(math::ExpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = adaptor.getOperand().getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "only f32 exp uses exp2");
    Location loc = op.getLoc();
    FloatAttr scalar = rewriter.getF32FloatAttr(1.4426950408889634);
    TypedAttr log2eAttr = scalar;
    if (auto vec = dyn_cast<VectorType>(type))
      log2eAttr = SplatElementsAttr::get(vec, scalar);
    Value log2e = arith::ConstantOp::create(rewriter, loc, log2eAttr);
    Value scaled = arith::MulFOp::create(rewriter, loc, adaptor.getOperand(),
                                         log2e);
    rewriter.replaceOp(op, state.target.exp2(rewriter, loc, scaled));
    return success();
  }
  LoweringState &state;
};

/// ln(x) as the target computes it: no device library is linked.
struct LogLowering : OpConversionPattern<math::LogOp> {
  LogLowering(GpuTypeConverter &converter, MLIRContext *ctx,
              LoweringState &state)
      : OpConversionPattern(converter, ctx, /*benefit=*/2), state(state) {}
  LogicalResult
  matchAndRewrite(math::LogOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(adaptor.getOperand().getType()).isF32())
      return rewriter.notifyMatchFailure(op, "only f32 log is native");
    rewriter.replaceOp(
        op, state.target.log(rewriter, op.getLoc(), adaptor.getOperand()));
    return success();
  }
  LoweringState &state;
};

struct Exp2Lowering : OpConversionPattern<math::Exp2Op> {
  Exp2Lowering(GpuTypeConverter &converter, MLIRContext *ctx,
               LoweringState &state)
      : OpConversionPattern(converter, ctx, /*benefit=*/2), state(state) {}
  LogicalResult
  matchAndRewrite(math::Exp2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(adaptor.getOperand().getType()).isF32())
      return rewriter.notifyMatchFailure(op, "only f32 exp2 is native");
    rewriter.replaceOp(
        op, state.target.exp2(rewriter, op.getLoc(), adaptor.getOperand()));
    return success();
  }
  LoweringState &state;
};
} // namespace

void mla::gpu::populateElementwisePatterns(GpuTypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           LoweringState &state) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseLowering>(converter, ctx);
  patterns.add<ExpLowering, Exp2Lowering, LogLowering>(converter, ctx, state);
}
