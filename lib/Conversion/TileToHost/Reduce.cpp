//===- Reduce.cpp - Tile reductions on the host ---------------------------===//

#include "HostLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mla;

/// The identity of `kind` for `type`, as a typed attribute.
static TypedAttr identity(tile::ReduceKind kind, Type type) {
  bool isFloat = isa<FloatType>(type);
  arith::AtomicRMWKind arithKind = arith::AtomicRMWKind::addf;
  switch (kind) {
  case tile::ReduceKind::sum:
    arithKind =
        isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
    break;
  case tile::ReduceKind::max:
    arithKind =
        isFloat ? arith::AtomicRMWKind::maximumf : arith::AtomicRMWKind::maxs;
    break;
  case tile::ReduceKind::min:
    arithKind =
        isFloat ? arith::AtomicRMWKind::minimumf : arith::AtomicRMWKind::mins;
    break;
  case tile::ReduceKind::maxnum:
    arithKind =
        isFloat ? arith::AtomicRMWKind::maxnumf : arith::AtomicRMWKind::maxs;
    break;
  case tile::ReduceKind::minnum:
    arithKind =
        isFloat ? arith::AtomicRMWKind::minnumf : arith::AtomicRMWKind::mins;
    break;
  }
  OpBuilder b(type.getContext());
  return arith::getIdentityValueAttr(arithKind, type, b,
                                     UnknownLoc::get(type.getContext()));
}

/// Combines two elements with `kind`.
static Value combine(OpBuilder &b, Location loc, tile::ReduceKind kind,
                     Value lhs, Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  switch (kind) {
  case tile::ReduceKind::sum:
    return isFloat ? arith::AddFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::AddIOp::create(b, loc, lhs, rhs).getResult();
  case tile::ReduceKind::max:
    return isFloat ? arith::MaximumFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MaxSIOp::create(b, loc, lhs, rhs).getResult();
  case tile::ReduceKind::min:
    return isFloat ? arith::MinimumFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
  case tile::ReduceKind::maxnum:
    return isFloat ? arith::MaxNumFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MaxSIOp::create(b, loc, lhs, rhs).getResult();
  case tile::ReduceKind::minnum:
    return isFloat ? arith::MinNumFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
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
    tile::ReduceKind kind = op.getKind();
    Value init =
        arith::ConstantOp::create(rewriter, loc, identity(kind, elementType));
    Value filled = linalg::FillOp::create(rewriter, loc, init,
                                          host::emptyTile(rewriter, loc, type))
                       .getResult(0);
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{adaptor.getInput()}, ValueRange{filled},
        ArrayRef<int64_t>{static_cast<int64_t>(op.getDim())},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc,
                                  combine(b, loc, kind, args[0], args[1]));
        });
    rewriter.replaceOp(op, reduce.getResults());
    return success();
  }
};
} // namespace

void mla::populateTileReduceToHostPatterns(const HostTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, patterns.getContext());
}
