//===- Reduce.cpp - Tile reductions on the host ---------------------------===//

#include "HostLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mla;

/// The arith reduction `kind` is on elements of `type`: the max/min kinds
/// are the signed ones on integers.
static arith::AtomicRMWKind arithKind(tile::ReduceKind kind, Type type) {
  bool isFloat = isa<FloatType>(type);
  using K = arith::AtomicRMWKind;
  switch (kind) {
  case tile::ReduceKind::sum:
    return isFloat ? K::addf : K::addi;
  case tile::ReduceKind::max:
    return isFloat ? K::maximumf : K::maxs;
  case tile::ReduceKind::min:
    return isFloat ? K::minimumf : K::mins;
  case tile::ReduceKind::maxnum:
    return isFloat ? K::maxnumf : K::maxs;
  case tile::ReduceKind::minnum:
    return isFloat ? K::minnumf : K::mins;
  }
  llvm_unreachable("unknown reduce kind");
}

namespace {
struct ReduceLowering : OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type elementType = type.getElementType();
    arith::AtomicRMWKind kind = arithKind(op.getKind(), elementType);
    Value init = arith::getIdentityValue(kind, elementType, rewriter, loc);
    Value filled = linalg::FillOp::create(rewriter, loc, init,
                                          host::emptyTile(rewriter, loc, type))
                       .getResult(0);
    rewriter.replaceOpWithNewOp<linalg::ReduceOp>(
        op, ValueRange{adaptor.getInput()}, ValueRange{filled},
        ArrayRef<int64_t>{static_cast<int64_t>(op.getDim())},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(
              b, loc, arith::getReductionOp(kind, b, loc, args[0], args[1]));
        });
    return success();
  }
};
} // namespace

void mla::populateTileReduceToHostPatterns(const HostTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, patterns.getContext());
}
