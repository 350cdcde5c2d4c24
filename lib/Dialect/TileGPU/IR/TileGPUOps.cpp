//===- TileGPUOps.cpp - Layout conversions and LDS ------------------------===//

#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mla::tilegpu;

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

/// convert(convert(x)) -> convert(x): the middle layout is never needed.
static LogicalResult foldConvertChain(ConvertLayoutOp op,
                                      PatternRewriter &rewriter) {
  auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>();
  if (!inner)
    return rewriter.notifyMatchFailure(op, "source is not a conversion");
  rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                               inner.getSrc());
  return success();
}

/// A conversion of a splat constant is the constant in the new layout.
static LogicalResult foldConvertOfSplat(ConvertLayoutOp op,
                                        PatternRewriter &rewriter) {
  SplatElementsAttr splat;
  if (!matchPattern(op.getSrc(), m_Constant(&splat)))
    return rewriter.notifyMatchFailure(op, "source is not a splat");
  rewriter.replaceOpWithNewOp<arith::ConstantOp>(
      op,
      SplatElementsAttr::get(op.getType(), splat.getSplatValue<Attribute>()));
  return success();
}

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add(foldConvertChain);
  results.add(foldConvertOfSplat);
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  RankedTensorType src = getSrc().getType();
  MemDescType type = getType();
  if (src.getShape() != type.getShape() ||
      src.getElementType() != type.getElementType())
    return emitOpError() << "buffer " << type << " must hold the tile " << src;
  if (type.getLayout().getOrder().size() != static_cast<size_t>(type.getRank()))
    return emitOpError("shared layout order must list every dimension");
  return success();
}

LogicalResult MemDescSliceOp::verify() {
  MemDescType src = getSrc().getType(), type = getType();
  if (src.getElementType() != type.getElementType() ||
      src.getLayout() != type.getLayout() || src.getRank() != type.getRank())
    return emitOpError("a window keeps the element type, layout and rank");
  ArrayRef<int64_t> offsets = getOffsets();
  if (static_cast<int64_t>(offsets.size()) != src.getRank())
    return emitOpError() << "needs " << src.getRank() << " offsets";
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (offsets[d] < 0 || offsets[d] + type.getShape()[d] > src.getShape()[d])
      return emitOpError() << "window leaves the buffer along dimension " << d;
  return success();
}

LogicalResult LocalLoadOp::verify() {
  MemDescType src = getSrc().getType();
  RankedTensorType type = getType();
  if (src.getShape() != type.getShape() ||
      src.getElementType() != type.getElementType())
    return emitOpError() << "result " << type << " must have the shape and "
                         << "element type of " << src;
  return success();
}

LogicalResult LocalStoreOp::verify() {
  RankedTensorType src = getSrc().getType();
  MemDescType dst = getDst().getType();
  if (src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return emitOpError() << "buffer " << dst << " must hold the tile " << src;
  return success();
}

//===----------------------------------------------------------------------===//
// Asynchronous copies into LDS
//===----------------------------------------------------------------------===//

LogicalResult LocalBufferOp::verify() {
  MemDescType type = getType();
  if (type.getRank() < 2)
    return emitOpError("needs a leading dimension counting the buffers");
  if (type.getLayout().getOrder().size() != static_cast<size_t>(type.getRank()))
    return emitOpError("shared layout order must list every dimension");
  if (type.getLayout().getOrder().back() != 0)
    return emitOpError("buffers must be the slowest dimension of the layout");
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), type = getType();
  SharedAttr from = src.getLayout(), to = type.getLayout();
  if (src.getRank() == 0 || src.getElementType() != type.getElementType() ||
      src.getShape().drop_front() != type.getShape())
    return emitOpError() << "result " << type << " must be one buffer of "
                         << src;
  SmallVector<unsigned> order;
  for (unsigned d : from.getOrder())
    if (d != 0)
      order.push_back(d - 1);
  if (from.getVec() != to.getVec() || from.getPerPhase() != to.getPerPhase() ||
      from.getMaxPhase() != to.getMaxPhase() ||
      from.getAtom() != to.getAtom() || to.getOrder() != ArrayRef(order))
    return emitOpError("result layout must be the buffers' layout without "
                       "their leading dimension");
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  mla::tile::ViewType view = getView().getType();
  MemDescType dst = getDst().getType();
  if (getIndices().size() != static_cast<size_t>(view.getRank()))
    return emitOpError() << "needs " << view.getRank() << " indices";
  if (dst.getRank() != view.getRank() ||
      dst.getElementType() != view.getElementType())
    return emitOpError() << "buffer " << dst << " must hold a tile of " << view;
  return success();
}

LogicalResult WarpgroupDotOp::verify() {
  MemDescType a = getA().getType(), b = getB().getType();
  auto acc = cast<RankedTensorType>(getAcc().getType());
  auto mma = dyn_cast_if_present<MmaAttr>(acc.getEncoding());
  if (!mma || mma.getKind() != MmaKind::wgmma)
    return emitOpError("accumulates in a wgmma layout");
  if (a.getRank() != 2 || b.getRank() != 2 || acc.getRank() != 2 ||
      a.getElementType() != b.getElementType())
    return emitOpError("multiplies two rank-2 buffers of one element type");
  int64_t k = a.getShape()[1];
  int64_t bk = b.getShape()[getRhsTransposed() ? 1 : 0];
  int64_t bn = b.getShape()[getRhsTransposed() ? 0 : 1];
  if (bk != k || a.getShape()[0] != acc.getShape()[0] ||
      bn != acc.getShape()[1])
    return emitOpError() << "shapes do not make a product: " << a << " * " << b
                         << (getRhsTransposed() ? " (transposed)" : "")
                         << " -> " << acc;
  return success();
}

#define GET_OP_CLASSES
#include "mla/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
