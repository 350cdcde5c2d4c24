//===- DeferLoopSums.cpp - Carry row sums unreduced through loops ---------===//
//
// A loop that carries `l' = l * a + reduce_sum(x, d)` from a zero start
// (online softmax's row sum) reduces `x` every iteration. Reducing is linear,
// so the loop can carry `L' = L * broadcast(a, d) + x` instead and reduce
// once after it. On a GPU the per-iteration reduction is a butterfly of
// shuffles and an exchange through LDS; the carried tile costs one
// multiply-add per element. Only sums along the last dimension, which
// lanes split, are deferred (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mla::tile {
#define GEN_PASS_DEF_TILEDEFERLOOPSUMS
#include "mla/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mla::tile

using namespace mlir;
using namespace mla::tile;

namespace {
/// One carried sum: `yielded = addf(scaled, sum)` with `scaled` the carried
/// value itself or `mulf(carried, scale)`, and `sum` a reduction along the
/// last dimension (a row's).
struct CarriedSum {
  unsigned index;
  arith::AddFOp yielded;
  arith::MulFOp scaled; // null without a scale
  ReduceOp sum;
};
} // namespace

/// The one user of `value`, or null.
static Operation *soleUser(Value value) {
  return value.hasOneUse() ? *value.getUsers().begin() : nullptr;
}

/// The other operand of the binary `op`, given one of them.
static Value otherOperand(Operation *op, Value known) {
  return op->getOperand(0) == known ? op->getOperand(1) : op->getOperand(0);
}

/// Whether iter_arg `index` of `loop` is a deferrable sum, filling `match`.
static bool matchCarriedSum(scf::ForOp loop, unsigned index,
                            CarriedSum &match) {
  BlockArgument carried = loop.getRegionIterArg(index);
  auto type = dyn_cast<RankedTensorType>(carried.getType());
  if (!type || !isa<FloatType>(type.getElementType()) ||
      !matchPattern(loop.getInitArgs()[index], m_AnyZeroFloat()))
    return false;
  match = {index, nullptr, nullptr, nullptr};
  Value chain = carried;
  Operation *user = soleUser(carried);
  if (auto mul = dyn_cast_if_present<arith::MulFOp>(user)) {
    // One factor per element of the carried value (per row).
    if (otherOperand(mul, carried).getType() != type)
      return false;
    match.scaled = mul;
    chain = mul.getResult();
    user = soleUser(chain);
  }
  auto add = dyn_cast_if_present<arith::AddFOp>(user);
  if (!add)
    return false;
  auto sum = otherOperand(add, chain).getDefiningOp<ReduceOp>();
  if (!sum || sum.getKind() != ReduceKind::sum || !sum->hasOneUse() ||
      sum.getType() != type || sum->getParentOp() != loop ||
      int64_t(sum.getDim()) + 1 != sum.getInput().getType().getRank())
    return false;
  // The new sum goes to the next iteration and nowhere else.
  if (soleUser(add.getResult()) != loop.getBody()->getTerminator())
    return false;
  match.yielded = add;
  match.sum = sum;
  return true;
}

/// Carries `match`'s sum as the unreduced tile and reduces it after the
/// loop; returns the new loop. The old iter_arg is left yielding itself,
/// for the canonicalizer to drop.
static scf::ForOp deferSum(RewriterBase &rewriter, scf::ForOp loop,
                           CarriedSum match) {
  Value input = match.sum.getInput();
  auto tileType = cast<RankedTensorType>(input.getType());
  int64_t dim = match.sum.getDim();
  Location loc = match.sum.getLoc();
  rewriter.setInsertionPoint(loop);
  Value zero = arith::ConstantOp::create(
      rewriter, loc,
      SplatElementsAttr::get(
          tileType, rewriter.getFloatAttr(tileType.getElementType(), 0)));

  // Values of the old body that the new ops use are remapped with it.
  Value scale;
  if (match.scaled)
    scale = otherOperand(match.scaled, loop.getRegionIterArg(match.index));
  FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
      rewriter, zero, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location, ArrayRef<BlockArgument> args) {
        // Where the old sum was: `input` dies there rather than living
        // through the rest of the body.
        b.setInsertionPoint(match.yielded);
        Value partial = args.front();
        if (!scale)
          return SmallVector<Value>{
              arith::AddFOp::create(b, loc, partial, input)};
        Value wide = BroadcastOp::create(
            b, loc,
            getBroadcastType(cast<RankedTensorType>(scale.getType()),
                             tileType.getShape(), {dim}),
            scale, b.getDenseI64ArrayAttr({dim}));
        // One multiply-add per element where the target has one.
        auto contract = arith::FastMathFlags::contract;
        Value scaled = arith::MulFOp::create(b, loc, partial, wide, contract);
        return SmallVector<Value>{
            arith::AddFOp::create(b, loc, scaled, input, contract)};
      });
  auto result = cast<scf::ForOp>(grown->getOperation());

  rewriter.setInsertionPointAfter(result);
  Value total =
      ReduceOp::create(rewriter, loc, match.sum.getType(), ReduceKind::sum,
                       result.getResults().back(), dim);
  rewriter.replaceAllUsesWith(result.getResult(match.index), total);
  Operation *yield = result.getBody()->getTerminator();
  rewriter.modifyOpInPlace(yield, [&] {
    yield->setOperand(match.index, result.getRegionIterArg(match.index));
  });
  rewriter.eraseOp(match.yielded);
  rewriter.eraseOp(match.sum);
  if (match.scaled)
    rewriter.eraseOp(match.scaled);
  return result;
}

namespace {
struct TileDeferLoopSumsPass
    : mla::tile::impl::TileDeferLoopSumsBase<TileDeferLoopSumsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      unsigned carried = loop.getNumRegionIterArgs();
      for (unsigned index = 0; index < carried; ++index) {
        CarriedSum match;
        if (matchCarriedSum(loop, index, match))
          loop = deferSum(rewriter, loop, match);
      }
    }
  }
};
} // namespace
