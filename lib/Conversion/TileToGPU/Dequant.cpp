//===- Dequant.cpp - fp8 and MX dequantization in registers ---------------===//
//
// The narrow formats are decoded exactly with integer arithmetic (shared
// with the host target), so the problem's OCP fp8 means the same on every
// chip, including gfx942 whose fp8 instructions read FNUZ.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Conversion/Utils/FloatDecode.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

/// The storage bits of a narrow-float element.
static Value bitsOf(OpBuilder &b, Location loc, Value element) {
  unsigned width = element.getType().getIntOrFloatBitWidth();
  return arith::BitcastOp::create(b, loc, b.getIntegerType(width), element);
}

static Value fromF32(OpBuilder &b, Location loc, Value value, Type type) {
  if (type.isF32())
    return value;
  return arith::TruncFOp::create(b, loc, type, value);
}

namespace {
struct DequantFp8Lowering : OpConversionPattern<tile::DequantFp8Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::DequantFp8Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (!getLayout(type))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    auto format = cast<FloatType>(op.getInput().getType().getElementType());
    if (!isDecodableNarrowFloat(format))
      return op.emitOpError("unsupported element format");
    Location loc = op.getLoc();
    VectorType vecType = registerType(type);
    SmallVector<Value> elements;
    for (int64_t r = 0; r < vecType.getNumElements(); ++r) {
      Value element = getRegister(rewriter, loc, adaptor.getInput(), r);
      Value value =
          decodeNarrowFloat(rewriter, loc, bitsOf(rewriter, loc, element),
                            format);
      value = arith::MulFOp::create(rewriter, loc, value, adaptor.getScale());
      elements.push_back(fromF32(rewriter, loc, value, type.getElementType()));
    }
    rewriter.replaceOp(op, makeRegisters(rewriter, loc, vecType, elements));
    return success();
  }
};
} // namespace

void mla::gpu::populateDequantPatterns(GpuTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       LoweringState &state) {
  patterns.add<DequantFp8Lowering>(converter, patterns.getContext());
}
