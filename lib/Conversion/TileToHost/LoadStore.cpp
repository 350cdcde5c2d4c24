//===- LoadStore.cpp - Global memory ops on the host ----------------------===//
//
// A view is carried as (address of element 0, sizes..., strides...). Loads
// build their tile element by element with a guarded `llvm.load`; stores
// run a loop nest of guarded `llvm.store`s. Bounds are checked with unsigned
// compares, so negative positions are out of bounds too.
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mla;

namespace {
/// What loads and stores share: the view, the tile's origin in it and the
/// optional mask, as converted values.
struct HostAccess {
  LoweredView view;
  SmallVector<Value> origin;
  Value mask;

  template <typename Adaptor>
  explicit HostAccess(Adaptor adaptor) : view(adaptor.getView()) {
    for (ValueRange index : adaptor.getIndices())
      origin.push_back(index.front());
    if (!adaptor.getMask().empty())
      mask = adaptor.getMask().front();
  }
};

/// The absolute view position of one tile element, and whether it is
/// inside the view and enabled by the mask.
struct GuardedPosition {
  SmallVector<Value> position;
  Value enabled;
};
} // namespace

/// Address of element `position` of a view of `elementType`.
static Value elementAddress(OpBuilder &b, Location loc, const LoweredView &view,
                            ValueRange position, Type elementType) {
  return host::kHostStorage.elementAddress(
      b, loc, view.base, elementType,
      viewElementOffset(b, loc, view, position));
}

/// The guarded position of tile element `ivs`; the mask covers the tile's
/// leading dimensions.
static GuardedPosition guardedPosition(OpBuilder &b, Location loc,
                                       const HostAccess &access,
                                       ValueRange ivs) {
  SmallVector<Value> position;
  Value enabled;
  for (auto [o, iv, size] : llvm::zip(access.origin, ivs, access.view.sizes)) {
    Value pos = arith::AddIOp::create(b, loc, o, iv);
    position.push_back(pos);
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos, size);
    enabled = enabled ? arith::AndIOp::create(b, loc, enabled, inside) : inside;
  }
  if (Value mask = access.mask) {
    unsigned maskRank = cast<RankedTensorType>(mask.getType()).getRank();
    Value bit =
        tensor::ExtractOp::create(b, loc, mask, ivs.take_front(maskRank));
    enabled = arith::AndIOp::create(b, loc, enabled, bit);
  }
  return {std::move(position), enabled};
}

namespace {
struct LoadLowering : OpConversionPattern<tile::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Type elementType = type.getElementType();
    Type storageType = host::storageType(elementType);
    HostAccess access(adaptor);
    Value pad = adaptor.getPad().empty() ? Value() : adaptor.getPad().front();

    rewriter.replaceOpWithNewOp<tensor::GenerateOp>(
        op, type, ValueRange{},
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          GuardedPosition at = guardedPosition(b, loc, access, ivs);
          // The branches join in the storage type: x86 has no bf16
          // registers, and a bf16 phi would need a compiler-runtime call.
          auto guarded = scf::IfOp::create(
              b, loc, at.enabled,
              [&](OpBuilder &b, Location loc) {
                Value addr = elementAddress(b, loc, access.view, at.position,
                                            elementType);
                scf::YieldOp::create(
                    b, loc,
                    LLVM::LoadOp::create(b, loc, storageType, addr)
                        .getResult());
              },
              [&](OpBuilder &b, Location loc) {
                Value padding = pad ? pad : host::zeroOf(b, loc, elementType);
                scf::YieldOp::create(b, loc, host::toStorage(b, loc, padding));
              });
          tensor::YieldOp::create(
              b, loc,
              host::fromStorage(b, loc, guarded.getResult(0), elementType));
        });
    return success();
  }
};

struct StoreLowering : OpConversionPattern<tile::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getValue().getType();
    Value value = adaptor.getValue().front();
    HostAccess access(adaptor);

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> lbs(type.getRank(), zero), steps(type.getRank(), one);
    SmallVector<Value> ubs;
    for (int64_t size : type.getShape())
      ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, size));
    scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          GuardedPosition at = guardedPosition(b, loc, access, ivs);
          scf::IfOp::create(
              b, loc, at.enabled, [&](OpBuilder &b, Location loc) {
                Value element = tensor::ExtractOp::create(b, loc, value, ivs);
                Value addr = elementAddress(b, loc, access.view, at.position,
                                            type.getElementType());
                LLVM::StoreOp::create(b, loc, host::toStorage(b, loc, element),
                                      addr);
                scf::YieldOp::create(b, loc);
              });
        });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mla::populateTileMemoryToHostPatterns(const HostTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  populateTileMemoryPatterns(converter, patterns, host::kHostStorage);
  patterns.add<LoadLowering, StoreLowering>(converter, patterns.getContext());
}
