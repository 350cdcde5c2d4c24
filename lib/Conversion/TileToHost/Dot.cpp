//===- Dot.cpp - Tile matrix products on the host -------------------------===//

#include "HostLowering.h"
#include "mla/Conversion/Utils/FloatDecode.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mla;

/// linalg.matmul widens its operands with arith.extf, which has no host
/// lowering for fp8: decode those operands to f32 first.
static Value widenNarrowOperand(OpBuilder &b, Location loc, Value operand) {
  Type element = cast<RankedTensorType>(operand.getType()).getElementType();
  if (!isDecodableNarrowFloat(element))
    return operand;
  return host::decodeNarrowTile(b, loc, operand, /*scale=*/Value(),
                                b.getF32Type());
}

namespace {
struct DotLowering : OpConversionPattern<tile::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = widenNarrowOperand(rewriter, loc, adaptor.getLhs());
    Value rhs = widenNarrowOperand(rewriter, loc, adaptor.getRhs());
    rewriter.replaceOpWithNewOp<linalg::MatmulOp>(op, TypeRange{op.getType()},
                                                  ValueRange{lhs, rhs},
                                                  ValueRange{adaptor.getAcc()});
    return success();
  }
};
} // namespace

void mla::populateTileDotToHostPatterns(const HostTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, patterns.getContext());
}
