//===- TileFolds.cpp - Folds and canonicalization patterns ----------------===//

#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mla::tile;

/// The splat value of a constant tile, if it is one.
static Attribute getSplatValue(Attribute attr) {
  auto dense = dyn_cast_if_present<SplatElementsAttr>(attr);
  return dense ? dense.getSplatValue<Attribute>() : Attribute();
}

//===----------------------------------------------------------------------===//
// SplatOp, BroadcastOp, TransOp
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  if (!isa_and_present<IntegerAttr, FloatAttr>(adaptor.getValue()))
    return {};
  return SplatElementsAttr::get(getType(), adaptor.getValue());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getDims().empty())
    return getInput();
  if (Attribute splat = getSplatValue(adaptor.getInput()))
    return SplatElementsAttr::get(getType(), splat);
  // broadcast(broadcast(x, d1), d2) -> broadcast(x, d1 composed with d2),
  // in place. Result dims not added by this op are, in order, the inner
  // result's dims; map the inner op's new dims through them.
  auto inner = getInput().getDefiningOp<BroadcastOp>();
  if (!inner)
    return {};
  SmallVector<int64_t> kept;
  for (int64_t d = 0, e = getType().getRank(); d < e; ++d)
    if (!llvm::is_contained(getDims(), d))
      kept.push_back(d);
  SmallVector<int64_t> dims(getDims());
  for (int64_t d : inner.getDims())
    dims.push_back(kept[d]);
  llvm::sort(dims);
  getInputMutable().assign(inner.getInput());
  setDims(dims);
  return getResult();
}

namespace {
/// broadcast(splat x) -> splat x.
struct BroadcastOfSplat : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getInput().getDefiningOp<SplatOp>();
    if (!splat)
      return rewriter.notifyMatchFailure(op, "input is not a splat");
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getValue());
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<BroadcastOfSplat>(context);
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<TransOp>())
    return inner.getInput();
  if (Attribute splat = getSplatValue(adaptor.getInput()))
    return SplatElementsAttr::get(getType(), splat);
  return {};
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

OpFoldResult ReduceOp::fold(FoldAdaptor adaptor) {
  Attribute splat = getSplatValue(adaptor.getInput());
  if (!splat)
    return {};
  if (getKind() != ReduceKind::sum)
    return SplatElementsAttr::get(getType(), splat);
  int64_t count = getInput().getType().getDimSize(getDim());
  if (auto f = dyn_cast<FloatAttr>(splat)) {
    // Only exact sums fold: summing in a different order must not change
    // the value the program would compute.
    llvm::APFloat sum = f.getValue();
    llvm::APFloat n(sum.getSemantics(), count);
    if (sum.multiply(n, llvm::APFloat::rmNearestTiesToEven) !=
        llvm::APFloat::opOK)
      return {};
    return SplatElementsAttr::get(getType(), FloatAttr::get(f.getType(), sum));
  }
  if (auto i = dyn_cast<IntegerAttr>(splat))
    return SplatElementsAttr::get(
        getType(), IntegerAttr::get(i.getType(), i.getValue() * count));
  return {};
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

namespace {
/// Turns non-negative constant size and stride operands into static
/// entries; a static size also becomes static in the view type, which tells
/// later lowerings the bounds check is known at compile time.
struct FoldConstantViewOperands : OpRewritePattern<ViewOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ViewOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<OpFoldResult> sizes =
        getMixedValues(op.getStaticSizes(), op.getSizes(), rewriter);
    SmallVector<OpFoldResult> strides =
        getMixedValues(op.getStaticStrides(), op.getStrides(), rewriter);
    // A negative constant stays an operand: a static one is invalid.
    bool changedSizes =
        succeeded(foldDynamicIndexList(sizes, /*onlyNonNegative=*/true));
    bool changedStrides =
        succeeded(foldDynamicIndexList(strides, /*onlyNonNegative=*/true));
    // A new result type is only safe where every user accepts any view.
    if (changedSizes && !llvm::all_of(op->getUsers(), [](Operation *user) {
          return isa<LoadOp, StoreOp>(user);
        })) {
      sizes = getMixedValues(op.getStaticSizes(), op.getSizes(), rewriter);
      changedSizes = false;
    }
    if (!changedSizes && !changedStrides)
      return rewriter.notifyMatchFailure(op, "no constant size or stride");

    SmallVector<int64_t> staticSizes, staticStrides;
    SmallVector<Value> dynSizes, dynStrides;
    dispatchIndexOpFoldResults(sizes, dynSizes, staticSizes);
    dispatchIndexOpFoldResults(strides, dynStrides, staticStrides);
    auto type = ViewType::get(op.getContext(), staticSizes,
                              op.getType().getElementType());
    rewriter.replaceOpWithNewOp<ViewOp>(
        op, type, op.getBase(), op.getOffset(), dynSizes,
        rewriter.getDenseI64ArrayAttr(staticSizes), dynStrides,
        rewriter.getDenseI64ArrayAttr(staticStrides));
    return success();
  }
};
} // namespace

void ViewOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<FoldConstantViewOperands>(context);
}

//===----------------------------------------------------------------------===//
// LoadOp, StoreOp
//===----------------------------------------------------------------------===//

/// Whether `mask` is a constant tile with every element equal to `value`.
static bool isConstantMask(Value mask, bool value) {
  if (!mask)
    return false;
  SplatElementsAttr attr;
  if (!matchPattern(mask, m_Constant(&attr)))
    return false;
  return attr.getSplatValue<bool>() == value;
}

/// Drops an all-true mask; an all-false one is left to `rewriteAllFalse`.
template <typename OpTy>
static LogicalResult
simplifyConstantMask(OpTy op, PatternRewriter &rewriter,
                     function_ref<void()> rewriteAllFalse) {
  if (isConstantMask(op.getMask(), true)) {
    rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().clear(); });
    return success();
  }
  if (!isConstantMask(op.getMask(), false))
    return rewriter.notifyMatchFailure(op, "mask is not constant");
  rewriteAllFalse();
  return success();
}

namespace {
/// An all-true mask is no mask; an all-false one loads only padding.
struct SimplifyLoadMask : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    return simplifyConstantMask(op, rewriter, [&] {
      if (Value pad = op.getPad()) {
        rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), pad);
        return;
      }
      Type elementType = op.getType().getElementType();
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, SplatElementsAttr::get(op.getType(),
                                     rewriter.getZeroAttr(elementType)));
    });
  }
};

/// An all-true mask is no mask; an all-false one stores nothing.
struct SimplifyStoreMask : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    return simplifyConstantMask(op, rewriter, [&] { rewriter.eraseOp(op); });
  }
};
} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<SimplifyLoadMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<SimplifyStoreMask>(context);
}
