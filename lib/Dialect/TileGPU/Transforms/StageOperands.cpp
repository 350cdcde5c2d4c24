//===- StageOperands.cpp - The tilegpu-stage-operands pass ----------------===//
//
// A matrix-core operand whose value is a chain of transposes, slices,
// dequantizations and conversions of tiles loaded from global memory is
// rebuilt on LDS: each loaded tile is written to LDS once, and the chain is
// redone from reads of that buffer, each step in the layout the next step
// needs, so that the last one is the operand layout. Slices become windows
// of the buffer (for MX tiles, windows of the packed bytes and the scales).
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"
#include "mla/Dialect/TileGPU/Transforms/Passes.h"

#include "LayoutChoice.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mla::tilegpu {
#define GEN_PASS_DEF_TILEGPUSTAGEOPERANDS
#include "mla/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mla::tilegpu

using namespace mlir;
using namespace mla;
using namespace mla::tilegpu;

/// The shared layout of a staged [rows, cols] tile: row-major, 16-byte
/// groups along the columns swizzled over up to 8 rows.
static SharedAttr chooseShared(MLIRContext *ctx, RankedTensorType type) {
  int64_t cols = type.getShape().back();
  int64_t bytes = std::max<int64_t>(
      1, type.getElementType().getIntOrFloatBitWidth() / 8);
  int64_t vec = 1;
  while (vec * 2 * bytes <= 16 && cols % (vec * 2) == 0)
    vec *= 2;
  int64_t chunks = cols / vec, phases = 1;
  while (phases * 2 <= 8 && chunks % (phases * 2) == 0)
    phases *= 2;
  SmallVector<unsigned> order;
  for (int64_t d = type.getRank() - 1; d >= 0; --d)
    order.push_back(d);
  return SharedAttr::get(ctx, vec, /*perPhase=*/1, phases, order);
}

/// A window of a tile: offsets and sizes per dimension.
namespace {
struct Window {
  SmallVector<int64_t> offsets;
  SmallVector<int64_t> sizes;
};

class OperandStager {
public:
  explicit OperandStager(MLIRContext *ctx) : ctx(ctx) {}

  /// Whether `value` is such a chain, ending in loads.
  bool isStageable(Value value) const;
  /// `value` (of the chain) rebuilt from LDS in `layout`, limited to
  /// `window` of it.
  Value rebuild(OpBuilder &b, Value value, Attribute layout,
                const Window &window);

private:
  Value bufferFor(tile::LoadOp load);
  static LinearAttr linear(MLIRContext *ctx, const LaneMap &map) {
    return LinearAttr::get(ctx, map.getFactors());
  }

  MLIRContext *ctx;
  llvm::DenseMap<Operation *, Value> buffers;
};
} // namespace

bool OperandStager::isStageable(Value value) const {
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (isa<tile::LoadOp>(op))
    return true;
  if (auto convert = dyn_cast<ConvertLayoutOp>(op))
    return isStageable(convert.getSrc());
  if (auto trans = dyn_cast<tile::TransOp>(op))
    return isStageable(trans.getInput());
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return slice.hasUnitStride() &&
           !ShapedType::isDynamicShape(slice.getStaticOffsets()) &&
           isStageable(slice.getSource());
  if (auto dequant = dyn_cast<tile::DequantFp8Op>(op))
    return isStageable(dequant.getInput());
  if (auto dequant = dyn_cast<tile::DequantMxOp>(op))
    return isStageable(dequant.getPacked()) && isStageable(dequant.getScales());
  return false;
}

Value OperandStager::bufferFor(tile::LoadOp load) {
  auto it = buffers.find(load);
  if (it != buffers.end())
    return it->second;
  OpBuilder b(ctx);
  b.setInsertionPointAfter(load);
  RankedTensorType type = load.getType();
  auto memType = MemDescType::get(ctx, type.getShape(), type.getElementType(),
                                  chooseShared(ctx, type));
  Value buffer = LocalAllocOp::create(b, load.getLoc(), memType, load.getResult(),
                                      /*offset=*/IntegerAttr());
  buffers[load] = buffer;
  return buffer;
}

Value OperandStager::rebuild(OpBuilder &b, Value value, Attribute layout,
                             const Window &window) {
  Operation *op = value.getDefiningOp();
  Location loc = op->getLoc();
  Type element = cast<RankedTensorType>(value.getType()).getElementType();
  auto typeIn = [&](Attribute l) {
    return RankedTensorType::get(window.sizes, element, l);
  };
  LaneMap map = getLaneMap(typeIn(layout));

  if (auto convert = dyn_cast<ConvertLayoutOp>(op))
    return rebuild(b, convert.getSrc(), layout, window);

  if (auto trans = dyn_cast<tile::TransOp>(op)) {
    Window inner{{window.offsets[1], window.offsets[0]},
                 {window.sizes[1], window.sizes[0]}};
    Value in = rebuild(b, trans.getInput(), linear(ctx, map.permuted({1, 0})),
                       inner);
    RankedTensorType produced =
        tile::getTransposedType(cast<RankedTensorType>(in.getType()));
    Value out = tile::TransOp::create(b, loc, produced, in);
    if (produced.getEncoding() == layout)
      return out;
    return ConvertLayoutOp::create(b, loc, typeIn(layout), out);
  }

  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    Window inner = window;
    for (auto [o, s] : llvm::zip(inner.offsets, slice.getStaticOffsets()))
      o += s;
    return rebuild(b, slice.getSource(), layout, inner);
  }

  if (auto dequant = dyn_cast<tile::DequantFp8Op>(op)) {
    Value in = rebuild(b, dequant.getInput(), layout, window);
    return tile::DequantFp8Op::create(b, loc, typeIn(layout), in,
                                      dequant.getScale());
  }

  if (auto dequant = dyn_cast<tile::DequantMxOp>(op)) {
    int64_t last = map.getRank() - 1;
    bool fp4 = dequant.getPacked().getType().getElementType().isInteger(8);
    auto scaled = [&](int64_t block) {
      Window w = window;
      w.offsets[last] /= block;
      w.sizes[last] /= block;
      return w;
    };
    FailureOr<LaneMap> packedMap = fp4 ? map.coarsened(last, 2) : map;
    FailureOr<LaneMap> scalesMap = map.coarsened(last, 32);
    assert(succeeded(packedMap) && succeeded(scalesMap) &&
           "checked by the caller");
    Value packed = rebuild(b, dequant.getPacked(), linear(ctx, *packedMap),
                           fp4 ? scaled(2) : window);
    Value scales =
        rebuild(b, dequant.getScales(), linear(ctx, *scalesMap), scaled(32));
    return tile::DequantMxOp::create(b, loc, typeIn(layout), packed, scales);
  }

  auto load = cast<tile::LoadOp>(op);
  Value buffer = bufferFor(load);
  auto bufferType = cast<MemDescType>(buffer.getType());
  if (ArrayRef<int64_t>(window.sizes) != bufferType.getShape()) {
    auto windowType = MemDescType::get(ctx, window.sizes, element,
                                       bufferType.getLayout());
    buffer = MemDescSliceOp::create(b, loc, windowType, buffer,
                                    b.getDenseI64ArrayAttr(window.offsets));
  }
  return LocalLoadOp::create(b, loc, typeIn(layout), buffer);
}

/// Whether an MX dequantization in `layout` keeps each element's bytes and
/// scale in its lane (as `rebuild` needs).
static bool chainFits(Value value, const LaneMap &map) {
  Operation *op = value.getDefiningOp();
  if (auto convert = dyn_cast<ConvertLayoutOp>(op))
    return chainFits(convert.getSrc(), map);
  if (auto trans = dyn_cast<tile::TransOp>(op))
    return chainFits(trans.getInput(), map.permuted({1, 0}));
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // The slice of an MX tile must start on a scale block.
    if (isa<tile::DequantMxOp>(slice.getSource().getDefiningOp()) &&
        slice.getStaticOffsets().back() % 32 != 0)
      return false;
    return chainFits(slice.getSource(), map);
  }
  if (auto dequant = dyn_cast<tile::DequantMxOp>(op)) {
    int64_t last = map.getRank() - 1;
    return succeeded(map.coarsened(last, 32)) &&
           succeeded(map.coarsened(last, 2));
  }
  return true;
}

/// The static window `[offsets, offsets + sizes)` of `value`, whose layout
/// keeps it in the same lanes (a block of whole matrix-core instructions).
static Value window(OpBuilder &b, Location loc, Value value,
                    ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  auto resultType =
      RankedTensorType::get(sizes, type.getElementType(), type.getEncoding());
  SmallVector<int64_t> strides(sizes.size(), 1);
  return tensor::ExtractSliceOp::create(b, loc, resultType, value, ValueRange{},
                                        ValueRange{}, ValueRange{}, offsets,
                                        sizes, strides);
}

/// Replaces `dot`, whose right operand the stager rebuilds from LDS, by
/// products of blocks small enough to keep in registers: 32 K steps by
/// one column block of whole instructions for every warp (QK: K = 576,
/// PV: N = 512). Each block's operand is read from LDS right before its
/// product, so no lane holds the whole operand.
static void splitDot(OperandStager &stager, tile::DotOp dot, ConvertLayoutOp rhs,
                     Value stagedLhs) {
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  RankedTensorType rhsType = rhs.getType();
  auto mma = cast<MmaAttr>(dot.getType().getEncoding());
  int64_t k = rhsType.getDimSize(0), n = rhsType.getDimSize(1);
  int64_t m = dot.getType().getDimSize(0);
  int64_t kBlock = std::max<int64_t>(32, mma.getInstrK());
  int64_t nBlock = std::max<int64_t>(32, int64_t(mma.getInstrN()) *
                                             mma.getWarpsPerCTA()[1]);
  auto stagedBlock = [&](ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
    Window w{SmallVector<int64_t>(offsets), SmallVector<int64_t>(sizes)};
    return stager.rebuild(b, rhs.getSrc(), rhsType.getEncoding(), w);
  };
  if (k <= kBlock || k % kBlock != 0)
    kBlock = k;
  if (n <= nBlock || n % nBlock != 0)
    nBlock = n;
  // Column blocks outside, K blocks inside: one accumulator block at a
  // time.
  Value result = dot.getAcc();
  for (int64_t n0 = 0; n0 < n; n0 += nBlock) {
    Value acc = nBlock == n
                    ? dot.getAcc()
                    : window(b, loc, dot.getAcc(), {0, n0}, {m, nBlock});
    for (int64_t k0 = 0; k0 < k; k0 += kBlock) {
      Value lhs;
      if (stagedLhs)
        lhs = stager.rebuild(
            b, stagedLhs,
            cast<RankedTensorType>(dot.getLhs().getType()).getEncoding(),
            Window{{0, k0}, {m, kBlock}});
      else
        lhs = kBlock == k ? dot.getLhs()
                          : window(b, loc, dot.getLhs(), {0, k0}, {m, kBlock});
      acc = tile::DotOp::create(b, loc, acc.getType(), lhs,
                                stagedBlock({k0, n0}, {kBlock, nBlock}), acc);
    }
    if (nBlock == n) {
      result = acc;
      break;
    }
    SmallVector<int64_t> strides = {1, 1};
    result = tensor::InsertSliceOp::create(
        b, loc, acc, result, ValueRange{}, ValueRange{}, ValueRange{},
        ArrayRef<int64_t>{0, n0}, ArrayRef<int64_t>{m, nBlock}, strides);
  }
  Value lhs = dot.getLhs();
  dot.replaceAllUsesWith(result);
  dot.erase();
  if (rhs->use_empty())
    rhs.erase();
  // The register copy of a staged left operand goes once unused.
  if (stagedLhs && lhs.use_empty())
    lhs.getDefiningOp()->erase();
}

/// Registers per lane a left operand may keep across the loop of its
/// product; a larger one is staged in LDS and read block by block.
constexpr int64_t kMaxInvariantOperandRegisters = 96;

/// For a left operand `dot` reads in registers straight from global memory
/// outside its loop, and too large to keep there across the loop (Q of a
/// 16-row block on 32-lane warps: 144 registers per lane), the same load in
/// a coalesced blocked layout, made next to it: the stager writes it to
/// LDS before the loop and reads each K block of it inside. Null otherwise.
static Value invariantLhsToStage(tile::DotOp dot) {
  auto load = dot.getLhs().getDefiningOp<tile::LoadOp>();
  auto loop = dot->getParentOfType<scf::ForOp>();
  if (!load || !loop || loop->isAncestor(load) || load.getMask())
    return {};
  RankedTensorType type = load.getType();
  if (!isa<DotOperandAttr>(type.getEncoding()) || type.getRank() != 2)
    return {};
  LaneMap map = getLaneMap(type);
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  if (map.numRegisters() * bits / 32 <= kMaxInvariantOperandRegisters)
    return {};
  auto blocked = chooseBlocked(
      load.getContext(), type.getShape(), bits, /*contiguousDim=*/1,
      map.numLanes(), map.numWarps());
  OpBuilder b(load);
  auto twin = cast<tile::LoadOp>(b.clone(*load));
  twin.getResult().setType(RankedTensorType::get(
      type.getShape(), type.getElementType(), blocked));
  return twin.getResult();
}

namespace {
struct StageOperandsPass
    : mla::tilegpu::impl::TileGPUStageOperandsBase<StageOperandsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    OperandStager stager(ctx);
    auto stageable = [&](Value operand) -> ConvertLayoutOp {
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      if (!convert || !isa<DotOperandAttr>(convert.getType().getEncoding()) ||
          !stager.isStageable(convert.getSrc()) ||
          !chainFits(convert.getSrc(), getLaneMap(convert.getType())))
        return {};
      return convert;
    };
    SmallVector<tile::DotOp> dots;
    getOperation().walk([&](tile::DotOp dot) { dots.push_back(dot); });
    for (tile::DotOp dot : dots) {
      if (ConvertLayoutOp lhs = stageable(dot.getLhs())) {
        OpBuilder b(lhs);
        RankedTensorType type = lhs.getType();
        Window whole{SmallVector<int64_t>(type.getRank(), 0),
                     SmallVector<int64_t>(type.getShape())};
        Value staged =
            stager.rebuild(b, lhs.getSrc(), type.getEncoding(), whole);
        dot.getLhsMutable().assign(staged);
        if (lhs->use_empty())
          lhs.erase();
      }
      if (ConvertLayoutOp rhs = stageable(dot.getRhs()))
        splitDot(stager, dot, rhs, invariantLhsToStage(dot));
    }
  }
};
} // namespace
