//===- Dequant.cpp - MX and fp8 dequantization on the host ----------------===//
//
// The host has no narrow-float instructions: elements and E8M0 scales are
// decoded exactly to f32 with integer arithmetic, scaled in f32 and rounded
// once to the result type.
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"
#include "mla/Conversion/Utils/FloatDecode.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mla;

namespace {
struct DequantMxLowering : OpConversionPattern<tile::DequantMxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::DequantMxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Type inElement = op.getPacked().getType().getElementType();
    bool packedFp4 = inElement.isInteger(8);
    if (!packedFp4 && !isDecodableNarrowFloat(inElement))
      return rewriter.notifyMatchFailure(op, "unsupported element format");
    Value packed = adaptor.getPacked(), scales = adaptor.getScales();
    auto fp4 = Float4E2M1FNType::get(rewriter.getContext());

    rewriter.replaceOpWithNewOp<tensor::GenerateOp>(
        op, type, ValueRange{},
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          SmallVector<Value> at(ivs);
          Value col = ivs.back();
          Value value;
          if (packedFp4) {
            // Element 2c is the low nibble of byte c, 2c + 1 the high one.
            Value two = arith::ConstantIndexOp::create(b, loc, 2);
            at.back() = arith::DivUIOp::create(b, loc, col, two);
            Value byte = tensor::ExtractOp::create(b, loc, packed, at);
            Value odd = arith::IndexCastOp::create(
                b, loc, b.getI8Type(),
                arith::RemUIOp::create(b, loc, col, two));
            Value shift = arith::MulIOp::create(
                b, loc, odd,
                arith::ConstantIntOp::create(b, loc, b.getI8Type(), 4));
            Value nibble = arith::ShRUIOp::create(b, loc, byte, shift);
            value = decodeNarrowFloat(b, loc, nibble, fp4);
          } else {
            Value element = tensor::ExtractOp::create(b, loc, packed, at);
            value = decodeNarrowFloat(b, loc, bitsOf(b, loc, element),
                                      cast<FloatType>(inElement));
          }
          at.back() = arith::DivUIOp::create(
              b, loc, col, arith::ConstantIndexOp::create(b, loc, 32));
          Value scale = decodeE8M0(
              b, loc,
              bitsOf(b, loc, tensor::ExtractOp::create(b, loc, scales, at)));
          Value scaled = arith::MulFOp::create(b, loc, value, scale);
          tensor::YieldOp::create(
              b, loc, fromF32(b, loc, scaled, type.getElementType()));
        });
    return success();
  }
};

struct DequantFp8Lowering : OpConversionPattern<tile::DequantFp8Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::DequantFp8Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isDecodableNarrowFloat(op.getInput().getType().getElementType()))
      return rewriter.notifyMatchFailure(op, "unsupported element format");
    rewriter.replaceOp(
        op, host::decodeNarrowTile(rewriter, op.getLoc(), adaptor.getInput(),
                                   adaptor.getScale(),
                                   op.getType().getElementType()));
    return success();
  }
};
} // namespace

void mla::populateTileDequantToHostPatterns(const HostTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<DequantMxLowering, DequantFp8Lowering>(converter,
                                                      patterns.getContext());
}
