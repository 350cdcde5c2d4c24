//===- StageOperands.cpp - The tilegpu-stage-operands pass ----------------===//
//
// A matrix-core operand whose value is a chain of transposes, slices,
// dequantizations and conversions of tiles loaded from global memory is
// rebuilt on LDS: each loaded tile is written to LDS once, and the chain is
// redone from reads of that buffer, each step in the layout the next step
// needs, so that the last one is the operand layout. Slices become windows
// of the buffer. A dequantized tile is decoded once, by all the program's
// lanes together: its bytes (and MX scales) are read back from their LDS
// buffers in the layout they were loaded in, decoded there, and the bf16
// tile is written to LDS once more, for every operand window to read (K
// and V of one KV tile), instead of each warp decoding the bytes of each
// operand it reads. A left operand computed in registers that other warps
// hold parts of (the probabilities of an attention step) is exchanged
// through a buffer of the same layout.
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
/// groups along the columns swizzled over up to 8 rows; the canonical
/// layout where warpgroup products read it.
static SharedAttr chooseShared(MLIRContext *ctx, RankedTensorType type,
                               bool forWarpgroups) {
  if (forWarpgroups)
    if (SharedAttr canonical = chooseWarpgroupShared(ctx, type))
      return canonical;
  int64_t cols = type.getShape().back();
  int64_t bytes =
      std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
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
  /// `forWarpgroups`: the kernel's products read their operands from the
  /// staged buffers themselves (wgmma), so these take canonical layouts.
  OperandStager(MLIRContext *ctx, bool forWarpgroups)
      : ctx(ctx), forWarpgroups(forWarpgroups) {}

  /// Whether `value` is such a chain, ending in loads.
  bool isStageable(Value value) const;
  /// `value` (of the chain) rebuilt from LDS in `layout`, limited to
  /// `window` of it.
  Value rebuild(OpBuilder &b, Value value, Attribute layout,
                const Window &window);

private:
  Value bufferFor(tile::LoadOp load);
  /// The LDS buffer of `dequant`'s tile, decoded once from its staged
  /// inputs.
  Value decodedBufferFor(Operation *dequant);
  /// A read of `window` of `buffer` in `layout`.
  Value readWindow(OpBuilder &b, Location loc, Value buffer, Attribute layout,
                   const Window &window, Type element);
  static LinearAttr linear(MLIRContext *ctx, const LaneMap &map) {
    return LinearAttr::get(ctx, map.getFactors());
  }

  SharedAttr sharedFor(RankedTensorType type) const {
    return chooseShared(ctx, type, forWarpgroups);
  }

  MLIRContext *ctx;
  bool forWarpgroups;
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
                                  sharedFor(type));
  Value buffer =
      LocalAllocOp::create(b, load.getLoc(), memType, load.getResult(),
                           /*offset=*/IntegerAttr());
  buffers[load] = buffer;
  return buffer;
}

/// The column ranges [offset, offset + size) that a decoded [rows, width]
/// tile of `bytes`-byte inputs is decoded in, in multiples of `unit`
/// columns: each the widest power of two times `unit` that the columns
/// left hold and whose bytes the program's `threads` lanes read 16 at a
/// time at most once. A width that is no power of two (K's 576) ends in a
/// narrower part rather than making every part narrow, which would leave
/// most lanes decoding copies.
static SmallVector<std::pair<int64_t, int64_t>>
decodeParts(int64_t rows, int64_t width, int64_t bytes, int64_t threads,
            int64_t unit) {
  SmallVector<std::pair<int64_t, int64_t>> parts;
  for (int64_t offset = 0; offset < width;) {
    int64_t size = unit;
    while (offset + size * 2 <= width &&
           rows * size * 2 * bytes <= threads * 16)
      size *= 2;
    parts.push_back({offset, size});
    offset += size;
  }
  return parts;
}

Value OperandStager::decodedBufferFor(Operation *dequant) {
  auto it = buffers.find(dequant);
  if (it != buffers.end())
    return it->second;
  OpBuilder b(ctx);
  b.setInsertionPointAfter(dequant);
  Location loc = dequant->getLoc();
  auto type = cast<RankedTensorType>(dequant->getResult(0).getType());
  LaneMap map = getLaneMap(type);
  int64_t rows = type.getDimSize(0), width = type.getDimSize(1);
  unsigned lanes = map.numLanes(), warps = map.numWarps();

  // One buffer, filled part by part between two barriers: each part's
  // bytes are read, decoded and written by lanes of one 16-byte run each,
  // so that only one part is ever in registers.
  auto tileType = MemDescType::get(ctx, type.getShape(), type.getElementType(),
                                   sharedFor(type));
  Value array = LocalBufferOp::create(b, loc, bufferArrayOf(tileType, 1),
                                      /*offset=*/IntegerAttr());
  Value buffer = MemDescIndexOp::create(
      b, loc, tileType, array, arith::ConstantIndexOp::create(b, loc, 0));
  BarrierOp::create(b, loc);
  auto fp8 = dyn_cast<tile::DequantFp8Op>(dequant);
  auto mx = dyn_cast<tile::DequantMxOp>(dequant);
  // MX bytes hold two values each; parts start on whole scale blocks.
  int64_t valuesPerByte = mx ? 2 : 1;
  int64_t unit = mx ? 32 / valuesPerByte : 1;
  for (auto [byteOffset, byteColumns] :
       decodeParts(rows, width / valuesPerByte, 1, lanes * warps, unit)) {
    int64_t c0 = byteOffset * valuesPerByte;
    int64_t columns = byteColumns * valuesPerByte;
    Window part{{0, c0}, {rows, columns}};
    Value decoded;
    if (fp8) {
      auto layout =
          chooseBlocked(ctx, part.sizes, 8, /*contiguousDim=*/1, lanes, warps);
      Value in = rebuild(b, fp8.getInput(), layout, part);
      decoded = tile::DequantFp8Op::create(
          b, loc,
          RankedTensorType::get(part.sizes, type.getElementType(), layout), in,
          fp8.getScale());
    } else {
      // The bytes in 16-byte runs, each decoding to twice the values.
      Window packedPart{{0, c0 / 2}, {rows, columns / 2}};
      BlockedAttr packed = chooseBlocked(ctx, packedPart.sizes, 8,
                                         /*contiguousDim=*/1, lanes, warps);
      SmallVector<unsigned> perThread(packed.getSizePerThread());
      perThread.back() *= 2;
      auto layout =
          BlockedAttr::get(ctx, perThread, packed.getThreadsPerWarp(),
                           packed.getWarpsPerCTA(), packed.getOrder());
      LaneMap partMap = getLaneMap(
          RankedTensorType::get(part.sizes, type.getElementType(), layout));
      FailureOr<LaneMap> scalesMap = partMap.coarsened(1, 32);
      assert(succeeded(scalesMap) && "parts are whole scale blocks");
      Window scalesPart{{0, c0 / 32}, {rows, columns / 32}};
      Value bytes = rebuild(b, mx.getPacked(), packed, packedPart);
      Value scales =
          rebuild(b, mx.getScales(), linear(ctx, *scalesMap), scalesPart);
      decoded = tile::DequantMxOp::create(
          b, loc,
          RankedTensorType::get(part.sizes, type.getElementType(), layout),
          bytes, scales);
    }
    auto partType = MemDescType::get(ctx, part.sizes, type.getElementType(),
                                     tileType.getLayout());
    Value window = MemDescSliceOp::create(b, loc, partType, buffer,
                                          b.getDenseI64ArrayAttr(part.offsets));
    LocalStoreOp::create(b, loc, decoded, window);
  }
  BarrierOp::create(b, loc);
  buffers[dequant] = buffer;
  return buffer;
}

Value OperandStager::readWindow(OpBuilder &b, Location loc, Value buffer,
                                Attribute layout, const Window &window,
                                Type element) {
  auto bufferType = cast<MemDescType>(buffer.getType());
  if (ArrayRef<int64_t>(window.sizes) != bufferType.getShape()) {
    auto windowType =
        MemDescType::get(ctx, window.sizes, element, bufferType.getLayout());
    buffer = MemDescSliceOp::create(b, loc, windowType, buffer,
                                    b.getDenseI64ArrayAttr(window.offsets));
  }
  return LocalLoadOp::create(
      b, loc, RankedTensorType::get(window.sizes, element, layout), buffer);
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
    Value in =
        rebuild(b, trans.getInput(), linear(ctx, map.permuted({1, 0})), inner);
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

  if (isa<tile::DequantFp8Op, tile::DequantMxOp>(op))
    return readWindow(b, loc, decodedBufferFor(op), layout, window, element);

  auto load = cast<tile::LoadOp>(op);
  return readWindow(b, loc, bufferFor(load), layout, window, element);
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
static void splitDot(OperandStager &stager, tile::DotOp dot,
                     ConvertLayoutOp rhs, Value stagedLhs) {
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  RankedTensorType rhsType = rhs.getType();
  auto mma = cast<MmaAttr>(dot.getType().getEncoding());
  int64_t k = rhsType.getDimSize(0), n = rhsType.getDimSize(1);
  int64_t m = dot.getType().getDimSize(0);
  int64_t kBlock = std::max<int64_t>(32, mma.getInstrK());
  int64_t nBlock =
      std::max<int64_t>(32, int64_t(mma.getInstrN()) * mma.getWarpsPerCTA()[1]);
  auto stagedBlock = [&](ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
    Window w{SmallVector<int64_t>(offsets), SmallVector<int64_t>(sizes)};
    return stager.rebuild(b, rhs.getSrc(), rhsType.getEncoding(), w);
  };
  // Warpgroup products hold no operand registers: one product, whose
  // instructions the lowering issues back to back. Warps that split K sum
  // their parts once per product, and each holds only its part.
  if (k <= kBlock || k % kBlock != 0 || mma.getKind() == MmaKind::wgmma ||
      mma.getWarpsK() > 1)
    kBlock = k;
  if (n <= nBlock || n % nBlock != 0 || mma.getKind() == MmaKind::wgmma)
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
  auto blocked =
      chooseBlocked(load.getContext(), type.getShape(), bits,
                    /*contiguousDim=*/1, map.numLanes(), map.numWarps());
  OpBuilder b(load);
  auto twin = cast<tile::LoadOp>(b.clone(*load));
  twin.getResult().setType(
      RankedTensorType::get(type.getShape(), type.getElementType(), blocked));
  return twin.getResult();
}

/// For a left operand computed in registers (an attention step's
/// probabilities) that reaches its operand layout by an exchange between
/// warps, the same exchange through an LDS buffer of the staged operands'
/// swizzled layout, written once and read back as the operand: mma_sync's
/// operand reads of such a buffer are ldmatrix loads, four 8x8 matrices at
/// a time, where the generic exchange reads 32 bits a lane at a time, from
/// unswizzled rows. Null where the conversion needs no exchange.
static Value exchangeThroughBuffer(ConvertLayoutOp convert) {
  RankedTensorType type = convert.getType();
  auto operand = dyn_cast<DotOperandAttr>(type.getEncoding());
  auto mma = operand ? dyn_cast<MmaAttr>(operand.getParent()) : MmaAttr();
  if (!mma || mma.getKind() != MmaKind::mma_sync || type.getRank() != 2 ||
      getLaneMap(convert.getSrc().getType())
          .sameLanesAndWarps(getLaneMap(type)))
    return {};
  MLIRContext *ctx = convert.getContext();
  OpBuilder b(convert);
  auto memType =
      MemDescType::get(ctx, type.getShape(), type.getElementType(),
                       chooseShared(ctx, type, /*forWarpgroups=*/false));
  Value buffer = LocalAllocOp::create(
      b, convert.getLoc(), memType, convert.getSrc(), /*offset=*/IntegerAttr());
  return LocalLoadOp::create(b, convert.getLoc(), type, buffer);
}

namespace {
struct StageOperandsPass
    : mla::tilegpu::impl::TileGPUStageOperandsBase<StageOperandsPass> {
  void runOnOperation() override {
    getOperation().walk([&](tile::KernelOp kernel) { stage(kernel); });
  }

  void stage(tile::KernelOp kernel) {
    MLIRContext *ctx = &getContext();
    bool forWarpgroups = kernel
                             .walk([](tile::DotOp dot) {
                               auto mma = dyn_cast_if_present<MmaAttr>(
                                   dot.getType().getEncoding());
                               return mma && mma.getKind() == MmaKind::wgmma
                                          ? WalkResult::interrupt()
                                          : WalkResult::advance();
                             })
                             .wasInterrupted();
    OperandStager stager(ctx, forWarpgroups);
    auto stageable = [&](Value operand) -> ConvertLayoutOp {
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      if (!convert || !isa<DotOperandAttr>(convert.getType().getEncoding()) ||
          !stager.isStageable(convert.getSrc()))
        return {};
      return convert;
    };
    SmallVector<tile::DotOp> dots;
    kernel.walk([&](tile::DotOp dot) { dots.push_back(dot); });
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
    // The products split above share their left operand: one exchange.
    SmallVector<ConvertLayoutOp> exchanges;
    kernel.walk([&](tile::DotOp dot) {
      auto lhs = dot.getLhs().getDefiningOp<ConvertLayoutOp>();
      if (lhs && !stager.isStageable(lhs.getSrc()) &&
          !llvm::is_contained(exchanges, lhs))
        exchanges.push_back(lhs);
    });
    for (ConvertLayoutOp lhs : exchanges) {
      if (Value exchanged = exchangeThroughBuffer(lhs)) {
        lhs.getResult().replaceUsesWithIf(exchanged, [](OpOperand &use) {
          return isa<tile::DotOp>(use.getOwner()) &&
                 use.getOperandNumber() == 0;
        });
        if (lhs->use_empty())
          lhs.erase();
      }
    }
  }
};
} // namespace
