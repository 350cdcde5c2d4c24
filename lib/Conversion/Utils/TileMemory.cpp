//===- TileMemory.cpp - Tile elements and views in memory -----------------===//

#include "mla/Conversion/Utils/TileMemory.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mla;

//===----------------------------------------------------------------------===//
// ElementStorage
//===----------------------------------------------------------------------===//

Type ElementStorage::storedType(Type element) const {
  MLIRContext *ctx = element.getContext();
  if (element.isIndex())
    return IntegerType::get(ctx, 64);
  if (boolAsByte && element.isInteger(1))
    return IntegerType::get(ctx, 8);
  auto floatType = dyn_cast<FloatType>(element);
  if (!floatType || floatType.getWidth() >= minFloatBits)
    return element;
  unsigned width = floatType.getWidth();
  return IntegerType::get(ctx, wholeBytes ? llvm::alignTo(width, 8) : width);
}

int64_t ElementStorage::storedBytes(Type element) const {
  return std::max<int64_t>(1, storedType(element).getIntOrFloatBitWidth() / 8);
}

/// `value` as `type`, where one of the two types is an element type and
/// the other its stored form.
static Value convertStored(OpBuilder &b, Location loc, Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  if (from.isInteger(1))
    return arith::ExtUIOp::create(b, loc, type, value);
  if (type.isInteger(1))
    return arith::TruncIOp::create(b, loc, type, value);
  if (from.isIndex() || type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, value);
  return arith::BitcastOp::create(b, loc, type, value);
}

Value ElementStorage::toStored(OpBuilder &b, Location loc, Value value) const {
  return convertStored(b, loc, value, storedType(value.getType()));
}

Value ElementStorage::fromStored(OpBuilder &b, Location loc, Value stored,
                                 Type element) const {
  return convertStored(b, loc, stored, element);
}

Value ElementStorage::elementAddress(OpBuilder &b, Location loc, Value base,
                                     Type element, Value index) const {
  Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return LLVM::GEPOp::create(b, loc, base.getType(), storedType(element), base,
                             ValueRange{offset});
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

LoweredView::LoweredView(ValueRange values) {
  unsigned rank = (values.size() - 1) / 2;
  base = values.front();
  sizes.assign(values.begin() + 1, values.begin() + 1 + rank);
  strides.assign(values.begin() + 1 + rank, values.end());
}

Value mla::viewElementOffset(OpBuilder &b, Location loc,
                             const LoweredView &view, ValueRange position) {
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [pos, stride] : llvm::zip(position, view.strides))
    linear = arith::AddIOp::create(b, loc, linear,
                                   arith::MulIOp::create(b, loc, pos, stride));
  return linear;
}

namespace {
/// Patterns that know how their target stores elements.
template <typename SourceOp>
struct StoragePattern : OpConversionPattern<SourceOp> {
  StoragePattern(const TypeConverter &converter, MLIRContext *ctx,
                 ElementStorage storage)
      : OpConversionPattern<SourceOp>(converter, ctx), storage(storage) {}
  ElementStorage storage;
};

struct ViewLowering : StoragePattern<tile::ViewOp> {
  using StoragePattern::StoragePattern;
  LogicalResult
  matchAndRewrite(tile::ViewOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = adaptor.getBase().front();
    if (!adaptor.getOffset().empty())
      base = storage.elementAddress(rewriter, loc, base,
                                    op.getType().getElementType(),
                                    adaptor.getOffset().front());
    SmallVector<Value> values = {base};
    for (unsigned d = 0, e = op.getType().getRank(); d < e; ++d)
      values.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, op.getMixedSize(d)));
    for (unsigned d = 0, e = op.getType().getRank(); d < e; ++d)
      values.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, op.getMixedStride(d)));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// A per-program scalar (indptr entries, work items): one plain load, the
/// same address in every lane.
struct LoadScalarLowering : StoragePattern<tile::LoadScalarOp> {
  using StoragePattern::StoragePattern;
  LogicalResult
  matchAndRewrite(tile::LoadScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type stored = storage.storedType(op.getType());
    Value address = storage.elementAddress(rewriter, loc, adaptor.getPtr(),
                                           op.getType(), adaptor.getIndex());
    unsigned alignment =
        storage.alignedLoads ? storage.storedBytes(op.getType()) : 0;
    Value value =
        LLVM::LoadOp::create(rewriter, loc, stored, address, alignment);
    rewriter.replaceOp(op,
                       storage.fromStored(rewriter, loc, value, op.getType()));
    return success();
  }
};
} // namespace

void mla::populateTileMemoryPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     ElementStorage storage) {
  patterns.add<ViewLowering, LoadScalarLowering>(
      converter, patterns.getContext(), storage);
}
