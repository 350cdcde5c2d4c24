//===- Elementwise.cpp - arith and math on tiles --------------------------===//
//
// Operands and result of an elementwise op share one layout, so the op
// applies register by register: the same op on the per-lane vectors.
// `exp` becomes the chip's base-2 exponential of x * log2(e), `log` the
// target's natural logarithm; on f16 and bf16 tiles both compute in f32
// (exact extension, one rounding back), as the chips' instructions do.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;

static bool hasTileTypes(Operation *op) {
  auto isTile = [](Type type) { return tilegpu::getLayout(type) != nullptr; };
  return llvm::any_of(op->getOperandTypes(), isTile) ||
         llvm::any_of(op->getResultTypes(), isTile);
}

/// `fn` of the f32 registers `x`: f16 and bf16 registers are extended to
/// f32 first and the result rounded back; null for other element types.
static Value inF32(OpBuilder &b, Location loc, Value x,
                   function_ref<Value(Value)> fn) {
  Type element = getElementTypeOrSelf(x.getType());
  if (element.isF32())
    return fn(x);
  if (!element.isF16() && !element.isBF16())
    return {};
  Type wide = b.getF32Type();
  if (auto vec = dyn_cast<VectorType>(x.getType()))
    wide = VectorType::get(vec.getShape(), wide);
  Value result = fn(arith::ExtFOp::create(b, loc, wide, x));
  return arith::TruncFOp::create(b, loc, x.getType(), result);
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

/// `op` through the target's own instruction sequence for it (`lower`),
/// in f32: no device library is linked.
template <typename MathOp,
          Value (*lower)(const GpuTarget &, OpBuilder &, Location, Value)>
struct TargetMathLowering : GpuOpLowering<MathOp> {
  using GpuOpLowering<MathOp>::GpuOpLowering;
  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value result = inF32(rewriter, loc, adaptor.getOperand(), [&](Value x) {
      return lower(this->state.target, rewriter, loc, x);
    });
    if (!result)
      return rewriter.notifyMatchFailure(op, "f16, bf16 or f32 operands only");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// exp(x) = exp2(x * log2(e)), on the chip's exp2 instruction.
Value expOnTarget(const GpuTarget &target, OpBuilder &b, Location loc,
                  Value x) {
  FloatAttr scalar = b.getF32FloatAttr(1.4426950408889634);
  TypedAttr log2eAttr = scalar;
  if (auto vec = dyn_cast<VectorType>(x.getType()))
    log2eAttr = SplatElementsAttr::get(vec, scalar);
  Value log2e = arith::ConstantOp::create(b, loc, log2eAttr);
  return target.exp2(b, loc, arith::MulFOp::create(b, loc, x, log2e));
}
Value exp2OnTarget(const GpuTarget &target, OpBuilder &b, Location loc,
                   Value x) {
  return target.exp2(b, loc, x);
}
Value logOnTarget(const GpuTarget &target, OpBuilder &b, Location loc,
                  Value x) {
  return target.log(b, loc, x);
}
using ExpLowering = TargetMathLowering<math::ExpOp, expOnTarget>;
using Exp2Lowering = TargetMathLowering<math::Exp2Op, exp2OnTarget>;
using LogLowering = TargetMathLowering<math::LogOp, logOnTarget>;
} // namespace

void mla::gpu::populateElementwisePatterns(GpuTypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           LoweringState &state) {
  patterns.add<ElementwiseLowering>(converter, patterns.getContext());
  // Ahead of the generic pattern.
  patterns.add<ExpLowering, Exp2Lowering, LogLowering>(
      converter, patterns.getContext(), state, /*benefit=*/2);
}
