//===- WarpgroupDots.cpp - The tilegpu-warpgroup-dots pass ----------------===//
//
// Warpgroup products (sm_90a wgmma) read both operands from shared memory
// through matrix descriptors. After tilegpu-stage-operands, a staged
// operand is a read of a buffer window, possibly transposed; the product
// takes the window itself where its descriptors can address it. Any other
// operand gets a buffer of its own, K contiguous.
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"
#include "mla/Dialect/TileGPU/Transforms/Passes.h"

#include "LayoutChoice.h"

namespace mla::tilegpu {
#define GEN_PASS_DEF_TILEGPUWARPGROUPDOTS
#include "mla/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mla::tilegpu

using namespace mlir;
using namespace mla;
using namespace mla::tilegpu;

/// `value` without layout conversions, which move no element.
static Value throughConversions(Value value) {
  while (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    value = convert.getSrc();
  return value;
}

/// The static offsets of window `value` in its buffer.
static SmallVector<int64_t> windowOffsets(Value value) {
  SmallVector<int64_t> offsets(2, 0);
  while (auto slice = value.getDefiningOp<MemDescSliceOp>()) {
    for (auto [o, s] : llvm::zip(offsets, slice.getOffsets()))
      o += s;
    value = slice.getSrc();
  }
  return offsets;
}

/// The buffer window that `value` reads whole, where a descriptor can
/// address it: a canonical layout (atoms along its fastest dimension), a
/// start on whole 8-row groups and 16-byte groups, and, where the fastest
/// dimension is M or N (`mnMajor`), instructions of whole atoms starting on
/// an atom (`instrWidth` elements each).
static Value addressableWindow(Value value, bool mnMajor, int64_t instrWidth) {
  auto load = value.getDefiningOp<LocalLoadOp>();
  if (!load)
    return {};
  Value window = load.getSrc();
  MemDescType type = load.getSrc().getType();
  int64_t atom = type.getLayout().getAtom();
  if (!atom || type.getRank() != 2 || type.getLayout().getOrder()[0] != 1)
    return {};
  SmallVector<int64_t> offsets = windowOffsets(window);
  if (offsets[0] % 8 != 0 || offsets[1] % 8 != 0)
    return {};
  if (mnMajor && (offsets[1] % atom != 0 || instrWidth % atom != 0))
    return {};
  return window;
}

/// A buffer of `value` ([rows, K], 16-bit, K contiguous) in its canonical
/// layout, written right before `before`. A tile loaded from global memory
/// is loaded again for it in a coalesced layout (16 bytes per lane), which
/// the buffer takes whole and tilegpu-pipeline-loads may turn into copies
/// straight into shared memory.
static FailureOr<Value> bufferOf(OpBuilder &b, Operation *before, Value value,
                                 Operation *dot) {
  auto type = cast<RankedTensorType>(value.getType());
  SharedAttr layout = chooseWarpgroupShared(b.getContext(), type);
  if (!layout)
    return dot->emitOpError()
           << "operand of " << type
           << " has no shared layout a warpgroup product reads (16-bit "
              "elements, rows of a multiple of 32 bytes)";
  if (auto load = value.getDefiningOp<tile::LoadOp>()) {
    LaneMap map = getLaneMap(type);
    auto blocked =
        chooseBlocked(b.getContext(), type.getShape(),
                      type.getElementType().getIntOrFloatBitWidth(),
                      /*contiguousDim=*/1, map.numLanes(), map.numWarps());
    b.setInsertionPoint(load);
    auto twin = cast<tile::LoadOp>(b.clone(*load));
    setLoadLayout(twin, RankedTensorType::get(type.getShape(),
                                              type.getElementType(), blocked));
    value = twin.getResult();
  }
  b.setInsertionPoint(before);
  auto memType = MemDescType::get(b.getContext(), type.getShape(),
                                  type.getElementType(), layout);
  return LocalAllocOp::create(b, before->getLoc(), memType, value,
                              /*offset=*/IntegerAttr())
      .getResult();
}

static LogicalResult rewriteDot(tile::DotOp dot) {
  OpBuilder b(dot);
  auto mma = cast<MmaAttr>(dot.getType().getEncoding());
  // Left operand: [M, K], K contiguous.
  Value lhsValue = throughConversions(dot.getLhs());
  Value lhs = addressableWindow(lhsValue, /*mnMajor=*/false, 0);
  if (!lhs) {
    FailureOr<Value> buffer = bufferOf(b, dot, lhsValue, dot);
    if (failed(buffer))
      return failure();
    lhs = *buffer;
  }
  // Right operand: the transpose of an [N, K] window (K contiguous: a K
  // tile's rows), or a [K, N] window with N contiguous (V's rows). Another
  // right operand goes to a buffer transposed, K contiguous.
  Value rhsValue = throughConversions(dot.getRhs());
  Value rhs;
  bool transposed = false;
  if (auto trans = rhsValue.getDefiningOp<tile::TransOp>())
    if ((rhs = addressableWindow(throughConversions(trans.getInput()),
                                 /*mnMajor=*/false, 0)))
      transposed = true;
  if (!rhs)
    rhs = addressableWindow(rhsValue, /*mnMajor=*/true, mma.getInstrN());
  if (!rhs) {
    b.setInsertionPoint(dot);
    // Renamed to a linear layout first (the same lanes: no data moves),
    // which has a transposed form.
    auto type = cast<RankedTensorType>(rhsValue.getType());
    auto linearType = RankedTensorType::get(
        type.getShape(), type.getElementType(),
        LinearAttr::get(b.getContext(), getLaneMap(type).getFactors()));
    Value linear =
        ConvertLayoutOp::create(b, dot.getLoc(), linearType, rhsValue);
    Value kMajor = tile::TransOp::create(
        b, dot.getLoc(), tile::getTransposedType(linearType), linear);
    FailureOr<Value> buffer = bufferOf(b, dot, kMajor, dot);
    if (failed(buffer))
      return failure();
    rhs = *buffer;
    transposed = true;
  }
  b.setInsertionPoint(dot);
  auto product = WarpgroupDotOp::create(b, dot.getLoc(), dot.getType(), lhs,
                                        rhs, dot.getAcc(), transposed);
  dot.replaceAllUsesWith(product.getResult());
  dot.erase();
  return success();
}

namespace {
struct WarpgroupDotsPass
    : mla::tilegpu::impl::TileGPUWarpgroupDotsBase<WarpgroupDotsPass> {
  void runOnOperation() override {
    SmallVector<tile::DotOp> dots;
    getOperation().walk([&](tile::DotOp dot) {
      auto mma = dyn_cast_if_present<MmaAttr>(dot.getType().getEncoding());
      if (mma && mma.getKind() == MmaKind::wgmma)
        dots.push_back(dot);
    });
    for (tile::DotOp dot : dots)
      if (failed(rewriteDot(dot)))
        return signalPassFailure();
    // The register reads the products no longer take.
    SmallVector<Operation *> reads;
    getOperation().walk([&](Operation *op) {
      if (isa<LocalLoadOp, ConvertLayoutOp, tile::TransOp, tile::LoadOp>(op))
        reads.push_back(op);
    });
    for (Operation *op : llvm::reverse(reads))
      if (op->use_empty())
        op->erase();
  }
};
} // namespace
