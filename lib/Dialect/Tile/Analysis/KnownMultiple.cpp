//===- KnownMultiple.cpp - What an index is known to be a multiple of -----===//

#include "mla/Dialect/Tile/Analysis/KnownMultiple.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

static constexpr int64_t kMost = int64_t(1) << 30;
/// Definitions followed from one value; deeper chains count as unknown.
static constexpr int kMaxDepth = 12;

/// The largest power of two that divides `c` (at most kMost; 0 is a
/// multiple of everything).
static int64_t powerOfTwoIn(int64_t c) {
  if (c == 0)
    return kMost;
  uint64_t magnitude = c < 0 ? -static_cast<uint64_t>(c) : c;
  return std::min<int64_t>(kMost, magnitude & -magnitude);
}

/// What an assumption `value % C == 0` (or of its integer extension) says,
/// as tile-assume-requirements writes it for a requirement.
static int64_t assumedMultiple(Value value) {
  int64_t known = 1;
  SmallVector<Value> forms = {value};
  for (Operation *user : value.getUsers())
    if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp>(user))
      forms.push_back(user->getResult(0));
  for (Value form : forms)
    for (Operation *user : form.getUsers()) {
      if (!isa<arith::RemSIOp, arith::RemUIOp>(user) ||
          user->getOperand(0) != form)
        continue;
      std::optional<int64_t> divisor = getConstantIntValue(user->getOperand(1));
      if (!divisor || *divisor <= 0)
        continue;
      for (Operation *compare : user->getResult(0).getUsers()) {
        auto cmp = dyn_cast<arith::CmpIOp>(compare);
        if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq ||
            !matchPattern(cmp.getLhs() == user->getResult(0) ? cmp.getRhs()
                                                             : cmp.getLhs(),
                          m_Zero()))
          continue;
        if (llvm::any_of(cmp->getUsers(), llvm::IsaPred<LLVM::AssumeOp>))
          known = std::max(known, powerOfTwoIn(*divisor));
      }
    }
  return known;
}

static int64_t knownMultiple(Value value, int depth) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return powerOfTwoIn(*c);
  int64_t known = 1;
  if (depth < kMaxDepth) {
    auto of = [&](Value v) { return knownMultiple(v, depth + 1); };
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp,
                        arith::ExtSIOp, arith::ExtUIOp>(def))
      known = of(def->getOperand(0));
    else if (isa_and_nonnull<arith::MulIOp>(def))
      known = std::min(kMost, of(def->getOperand(0)) * of(def->getOperand(1)));
    else if (isa_and_nonnull<arith::ShLIOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(def->getOperand(1));
      if (shift && *shift >= 0 && *shift < 31)
        known = std::min(kMost, of(def->getOperand(0)) << *shift);
    } else if (isa_and_nonnull<arith::DivUIOp, arith::DivSIOp, arith::ShRUIOp,
                               arith::ShRSIOp>(def)) {
      // A multiple of 2^a divided by 2^b <= 2^a is exact: a multiple of
      // 2^(a - b) (K / 2 bytes of packed fp4 rows when K % 32 == 0).
      std::optional<int64_t> c = getConstantIntValue(def->getOperand(1));
      int64_t divisor = 0;
      if (c && isa<arith::DivUIOp, arith::DivSIOp>(def) && *c > 0 &&
          llvm::isPowerOf2_64(*c))
        divisor = *c;
      else if (c && isa<arith::ShRUIOp, arith::ShRSIOp>(def) && *c >= 0 &&
               *c < 31)
        divisor = int64_t(1) << *c;
      int64_t dividend = of(def->getOperand(0));
      if (divisor && dividend >= divisor)
        known = dividend == kMost ? kMost : dividend / divisor;
    } else if (isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MinSIOp,
                               arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
                   def))
      known = std::min(of(def->getOperand(0)), of(def->getOperand(1)));
    else if (auto select = dyn_cast_or_null<arith::SelectOp>(def))
      known = std::min(of(select.getTrueValue()), of(select.getFalseValue()));
    else if (auto arg = dyn_cast<BlockArgument>(value))
      if (auto loop =
              dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp()))
        if (arg == loop.getInductionVar())
          known = std::min(of(loop.getLowerBound()), of(loop.getStep()));
  }
  return std::max(known, assumedMultiple(value));
}

int64_t mla::getKnownMultiple(Value value) { return knownMultiple(value, 0); }

int64_t mla::getKnownMultiple(OpFoldResult value) {
  if (auto attr = dyn_cast<Attribute>(value)) {
    if (auto integer = dyn_cast<IntegerAttr>(attr))
      return powerOfTwoIn(integer.getInt());
    return 1;
  }
  return getKnownMultiple(cast<Value>(value));
}
