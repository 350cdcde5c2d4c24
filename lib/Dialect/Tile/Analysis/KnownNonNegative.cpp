//===- KnownNonNegative.cpp - Whether an index is known to be >= 0 --------===//

#include "mla/Dialect/Tile/Analysis/KnownNonNegative.h"

#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

/// Definitions followed from one value; deeper chains count as unknown.
static constexpr int kMaxDepth = 12;

static bool knownNonNegative(Value value, int depth) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c >= 0;
  if (depth >= kMaxDepth)
    return false;
  auto of = [&](Value v) { return knownNonNegative(v, depth + 1); };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // scf.for's step is positive, so its induction variable never goes
    // below the lower bound.
    auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
    return loop && arg == loop.getInductionVar() && of(loop.getLowerBound());
  }
  Operation *def = value.getDefiningOp();
  if (isa<mla::tile::ProgramIdOp, mla::tile::NumProgramsOp,
          arith::IndexCastUIOp, arith::ExtUIOp>(def))
    return true;
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
    return of(def->getOperand(0));
  if (isa<arith::MaxSIOp>(def))
    return of(def->getOperand(0)) || of(def->getOperand(1));
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return of(select.getTrueValue()) && of(select.getFalseValue());
  if (isa<arith::RemSIOp, arith::ShRSIOp>(def))
    return of(def->getOperand(0));
  if (!value.getType().isIndex())
    return false;
  if (isa<arith::AddIOp, arith::MulIOp, arith::MinSIOp, arith::DivSIOp,
          arith::CeilDivSIOp, arith::FloorDivSIOp>(def))
    return of(def->getOperand(0)) && of(def->getOperand(1));
  return false;
}

bool mla::isKnownNonNegative(Value value) { return knownNonNegative(value, 0); }
