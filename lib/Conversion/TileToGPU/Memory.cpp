//===- Memory.cpp - Views, tile loads and stores --------------------------===//
//
// A view is carried as (base pointer, sizes..., strides...). A tile access
// computes, for each register of the tile's layout, its position in the
// view and whether it is inside the view and the mask. Registers that are
// consecutive along a unit-stride last dimension move as one vector (up to
// 16 bytes) where the target takes a vector at that address. The target
// makes the access safe: AMD buffer instructions are bounded by the view's
// extent in bytes (out-of-range loads read zero and stores are dropped),
// NVIDIA branches around invalid accesses; either way an invalid element
// reads as zero, and a select applies any other padding value.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/Analysis/KnownMultiple.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

namespace {
/// What a tile load or store does per register run.
struct TileAccess {
  explicit TileAccess(LoweredView view) : view(std::move(view)) {}
  LoweredView view;
  SmallVector<Value> origin;
  /// Per-lane mask registers and the mask's lane map, when masked, and
  /// per register of the tile the mask register that covers it.
  Value mask;
  LaneMap maskMap;
  SmallVector<int64_t> maskRegs;
  /// When set, an i1 that every element's validity also needs.
  Value first;
  LaneMap map;
  Type element;
  int64_t bytes = 0;
  /// Registers per vector access.
  int64_t run = 1;
  /// Whether the elements of every run are valid or invalid together: the
  /// view's rows are whole runs, the tile starts on a run and any mask is
  /// over the leading dimensions.
  bool uniformRuns = false;
  /// What every run's address is known to be a multiple of, in bytes.
  int64_t alignment = 1;
  /// Whether rows past the view need no check: they lie past its extent,
  /// where the chip's accesses read zero and stores are dropped.
  bool rowsBounded = false;
  /// Bytes of the view's extent and the target's handle on it.
  Value numBytes;
  Value resource;
  const GpuTarget *target = nullptr;
  /// Coordinates the lane and warp digits contribute.
  SmallVector<Value> laneCoords;
};
} // namespace

/// The static stride of dimension `dim` of the view `value`, if known.
static std::optional<int64_t> staticStride(Value view, unsigned dim) {
  auto op = view.getDefiningOp<tile::ViewOp>();
  if (!op)
    return std::nullopt;
  int64_t stride = op.getStaticStrides()[dim];
  if (ShapedType::isDynamic(stride))
    return std::nullopt;
  return stride;
}

/// Registers per vector access: the first register digit when it walks the
/// view's unit-stride last dimension, capped at kMaxAccessBytes.
static int64_t vectorRun(const LaneMap &map, Value view, int64_t bytes) {
  std::optional<int64_t> stride = staticStride(view, map.getRank() - 1);
  if (!stride || *stride != 1)
    return 1;
  int64_t run = registerRun(map, map.getRank() - 1);
  while (run * bytes > kMaxAccessBytes)
    run /= 2;
  return std::max<int64_t>(run, 1);
}

/// For each register of `map`, the register of `maskMap` holding the mask
/// bit of its leading coordinates.
static SmallVector<int64_t> maskRegisters(const LaneMap &map,
                                          const LaneMap &maskMap) {
  std::map<SmallVector<int64_t>, int64_t> byCoords;
  for (int64_t r = 0; r < maskMap.numRegisters(); ++r)
    byCoords.emplace(maskMap.partialCoords(HwDim::Register, r), r);
  SmallVector<int64_t> result;
  for (int64_t r = 0; r < map.numRegisters(); ++r) {
    SmallVector<int64_t> c = map.partialCoords(HwDim::Register, r);
    c.resize(maskMap.getRank());
    auto it = byCoords.find(c);
    assert(it != byCoords.end() && "mask layout is not a slice of the tile's");
    result.push_back(it->second);
  }
  return result;
}

template <typename OpTy, typename Adaptor>
static TileAccess prepareAccess(OpBuilder &b, Location loc, OpTy op,
                                Adaptor adaptor, RankedTensorType tile,
                                const LoweringState &state) {
  TileAccess access{LoweredView(adaptor.getView())};
  for (ValueRange index : adaptor.getIndices())
    access.origin.push_back(index.front());
  access.map = getLaneMap(tile);
  access.element = tile.getElementType();
  access.bytes = memoryBytes(access.element);
  if (op.getMask()) {
    access.mask = adaptor.getMask().front();
    access.maskMap = getLaneMap(cast<RankedTensorType>(op.getMask().getType()));
    access.maskRegs = maskRegisters(access.map, access.maskMap);
  }
  access.run = vectorRun(access.map, op.getView(), access.bytes);
  // A mask over the leading dimensions only is the same for a whole run.
  bool maskPerRow = !op.getMask() || access.maskMap.getRank() < tile.getRank();
  // Runs are in or out of a row as a whole where its length and the
  // tile's first column are multiples of the run: constants, or facts such
  // as a requirement `k % 8 == 0`.
  auto known = state.accessMultiples.find(op);
  access.uniformRuns = maskPerRow && known != state.accessMultiples.end() &&
                       known->second % access.run == 0;
  if (auto aligned = state.accessAlignments.find(op);
      aligned != state.accessAlignments.end())
    access.alignment = aligned->second;
  access.rowsBounded =
      state.target.boundsAccesses() && rowsEndAtExtent(access.view);
  access.numBytes = viewExtentBytes(b, loc, access.view, access.bytes);
  access.target = &state.target;
  access.resource =
      state.target.globalResource(b, loc, access.view.base, access.numBytes);
  const KernelIds &ids = state.idsFor(op);
  access.laneCoords = laneWarpCoords(b, loc, access.map, ids);
  for (auto [c, o] : llvm::zip(access.laneCoords, access.origin))
    c = arith::AddIOp::create(b, loc, c, o);
  return access;
}

/// The byte offset (i32) of the element at view position `pos`, and per
/// element of the run whether it is valid.
static std::pair<Value, SmallVector<Value>>
runAddress(OpBuilder &b, Location loc, const TileAccess &access, int64_t reg) {
  SmallVector<int64_t> c = access.map.partialCoords(HwDim::Register, reg);
  SmallVector<Value> pos;
  for (auto [d, base] : llvm::enumerate(access.laneCoords))
    pos.push_back(
        arith::AddIOp::create(b, loc, base, indexConst(b, loc, c[d])));
  Value linear = viewElementOffset(b, loc, access.view, pos);
  Value offset = toI32(
      b, loc,
      arith::MulIOp::create(b, loc, linear, indexConst(b, loc, access.bytes)));

  // Leading dimensions are shared by the run; the last one steps.
  Value leading;
  int64_t last = access.map.getRank() - 1;
  for (int64_t d = access.rowsBounded ? last : 0; d < last; ++d) {
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         pos[d], access.view.sizes[d]);
    leading = leading ? arith::AndIOp::create(b, loc, leading, inside) : inside;
  }
  SmallVector<Value> valid;
  for (int64_t i = 0; i < access.run; ++i) {
    Value p = arith::AddIOp::create(b, loc, pos[last], indexConst(b, loc, i));
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, p,
                                     access.view.sizes[last]);
    if (leading)
      ok = arith::AndIOp::create(b, loc, ok, leading);
    if (access.mask)
      ok = arith::AndIOp::create(
          b, loc, ok,
          getRegister(b, loc, access.mask, access.maskRegs[reg + i]));
    valid.push_back(ok);
  }
  if (access.first)
    for (Value &v : valid)
      v = arith::AndIOp::create(b, loc, v, access.first);
  return {offset, valid};
}

static Value allOf(OpBuilder &b, Location loc, ArrayRef<Value> bits) {
  Value result = bits.front();
  for (Value bit : bits.drop_front())
    result = arith::AndIOp::create(b, loc, result, bit);
  return result;
}

/// i1: the run moves as one vector access: every element is valid and the
/// chip takes a vector at that address. Null when it always does (runs are
/// valid or invalid as a whole, and any address takes a vector, or this
/// run's is known aligned for it).
static Value wholeRun(OpBuilder &b, Location loc, const TileAccess &access,
                      Value offset, ArrayRef<Value> valid) {
  Value aligned =
      access.alignment % (access.run * access.bytes) == 0
          ? Value()
          : access.target->isAlignedForVector(b, loc, access.resource, offset,
                                              access.run * access.bytes);
  if (access.uniformRuns && !aligned)
    return {};
  Value whole = allOf(b, loc, valid);
  if (aligned)
    whole = arith::AndIOp::create(b, loc, whole, aligned);
  return whole;
}

/// The run's elements from global memory: one vector access when every
/// element is valid (and the chip takes the vector there), else element by
/// element, so that no access straddles the end of the view (what a partly
/// out-of-range vector access returns depends on the chip).
static Value loadRun(OpBuilder &b, Location loc, const TileAccess &access,
                     Type stored, Value offset, ArrayRef<Value> valid) {
  const GpuTarget &target = *access.target;
  if (access.run == 1)
    return target.loadGlobal(b, loc, stored, access.resource, offset,
                             valid.front(), access.numBytes);
  auto type = VectorType::get({access.run}, stored);
  Value whole = wholeRun(b, loc, access, offset, valid);
  if (!whole)
    return target.loadGlobal(b, loc, type, access.resource, offset,
                             valid.front(), access.numBytes);
  auto branch = scf::IfOp::create(b, loc, type, whole,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  scf::YieldOp::create(b, loc,
                       target.loadGlobal(b, loc, type, access.resource, offset,
                                         valid.front(), access.numBytes));
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  SmallVector<Value> elements;
  for (int64_t i = 0; i < access.run; ++i) {
    Value at = arith::AddIOp::create(b, loc, offset,
                                     i32Const(b, loc, i * access.bytes));
    elements.push_back(target.loadGlobal(b, loc, stored, access.resource, at,
                                         valid[i], access.numBytes));
  }
  scf::YieldOp::create(b, loc, makeRegisters(b, loc, type, elements));
  return branch.getResult(0);
}

namespace {
struct LoadLowering : GpuOpLowering<tile::LoadOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType tile = op.getType();
    if (!getLayout(tile))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    TileAccess access = prepareAccess(rewriter, loc, op, adaptor, tile, state);

    Type stored = memoryType(access.element);
    // Invalid elements read as zero bits: only another padding value
    // needs a select, and then the rows past the view, which the chip
    // reads as zero, must be known invalid too.
    Value pad = adaptor.getPad().empty() ? Value() : adaptor.getPad().front();
    if (pad &&
        (matchPattern(pad, m_Zero()) || matchPattern(pad, m_PosZeroFloat())))
      pad = Value();
    if (pad)
      access.rowsBounded = false;

    // A tile that only goes to LDS is written there by its first copies
    // (local_alloc): replicas in other lanes or waves need not read memory.
    if (!op->use_empty() && llvm::all_of(op->getUsers(), [](Operation *user) {
          return isa<LocalAllocOp>(user);
        }))
      access.first = isFirstCopy(rewriter, loc, access.map, state.idsFor(op));

    SmallVector<Value> elements(access.map.numRegisters());
    for (int64_t r = 0; r < access.map.numRegisters(); r += access.run) {
      auto [offset, valid] = runAddress(rewriter, loc, access, r);
      Value loaded = loadRun(rewriter, loc, access, stored, offset, valid);
      for (int64_t i = 0; i < access.run; ++i) {
        Value element = fromMemory(
            rewriter, loc,
            access.run == 1 ? loaded : getRegister(rewriter, loc, loaded, i),
            tile.getElementType());
        elements[r + i] =
            pad ? arith::SelectOp::create(rewriter, loc, valid[i], element, pad)
                : element;
      }
    }
    rewriter.replaceOp(
        op, makeRegisters(rewriter, loc, registerType(tile), elements));
    return success();
  }
};

struct StoreLowering : GpuOpLowering<tile::StoreOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tile = cast<RankedTensorType>(op.getValue().getType());
    if (!getLayout(tile))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    TileAccess access = prepareAccess(rewriter, loc, op, adaptor, tile, state);
    Value regs = adaptor.getValue().front();
    // Replicas of an element hold the same value: only the first copy
    // writes.
    access.first = isFirstCopy(rewriter, loc, access.map, state.idsFor(op));
    Type stored = memoryType(access.element);

    for (int64_t r = 0; r < access.map.numRegisters(); r += access.run) {
      if (!access.map.isOwner(HwDim::Register, r))
        continue;
      auto [offset, valid] = runAddress(rewriter, loc, access, r);
      SmallVector<Value> elements;
      for (int64_t i = 0; i < access.run; ++i)
        elements.push_back(
            toMemory(rewriter, loc, getRegister(rewriter, loc, regs, r + i)));
      if (access.run == 1) {
        state.target.storeGlobal(rewriter, loc, elements.front(),
                                 access.resource, offset, valid.front(),
                                 access.numBytes);
        continue;
      }
      // The whole vector when every element is valid (and the chip takes
      // the vector there), else element by element.
      Value vec = makeRegisters(
          rewriter, loc, VectorType::get({access.run}, stored), elements);
      Value whole = wholeRun(rewriter, loc, access, offset, valid);
      if (!whole) {
        state.target.storeGlobal(rewriter, loc, vec, access.resource, offset,
                                 valid.front(), access.numBytes);
        continue;
      }
      auto branch = scf::IfOp::create(rewriter, loc, whole,
                                      /*withElse=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
        state.target.storeGlobal(rewriter, loc, vec, access.resource, offset,
                                 allOf(rewriter, loc, valid), access.numBytes);
        rewriter.setInsertionPointToStart(&branch.getElseRegion().front());
        for (int64_t i = 0; i < access.run; ++i) {
          Value at = arith::AddIOp::create(
              rewriter, loc, offset, i32Const(rewriter, loc, i * access.bytes));
          state.target.storeGlobal(rewriter, loc, elements[i], access.resource,
                                   at, valid[i], access.numBytes);
        }
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mla::gpu::recordAccessMultiples(tile::KernelOp kernel,
                                     LoweringState &state) {
  llvm::StringMap<int64_t> pointerAlignments = requiredAlignments(kernel);
  Block &entry = kernel.getBody().front();
  auto record = [&](Operation *op, Value view, ValueRange indices,
                    Type element) {
    auto viewOp = view.getDefiningOp<tile::ViewOp>();
    if (!viewOp || indices.empty())
      return;
    int64_t last = viewOp.getStaticSizes().size() - 1;
    state.accessMultiples[op] =
        std::min(getKnownMultiple(viewOp.getMixedSize(last)),
                 getKnownMultiple(indices.back()));
    // A run starts at base + bytes * (sum of rows * leading strides +
    // first column + a multiple of the run).
    int64_t bytes = memoryBytes(element), alignment = bytes;
    if (auto arg = dyn_cast<BlockArgument>(viewOp.getBase());
        arg && arg.getOwner() == &entry)
      alignment = std::max(
          alignment,
          pointerAlignments.lookup(kernel.getArgName(arg.getArgNumber())));
    for (int64_t d = 0; d < last; ++d)
      alignment = std::min(alignment,
                           bytes * getKnownMultiple(viewOp.getMixedStride(d)));
    alignment = std::min(alignment, bytes * getKnownMultiple(indices.back()));
    state.accessAlignments[op] = alignment;
  };
  kernel->walk([&](Operation *op) {
    if (auto load = dyn_cast<tile::LoadOp>(op))
      record(op, load.getView(), load.getIndices(),
             load.getType().getElementType());
    else if (auto store = dyn_cast<tile::StoreOp>(op))
      record(
          op, store.getView(), store.getIndices(),
          cast<RankedTensorType>(store.getValue().getType()).getElementType());
  });
}

void mla::gpu::populateMemoryPatterns(GpuTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  populateTileMemoryPatterns(converter, patterns, kGpuStorage);
  patterns.add<LoadLowering, StoreLowering>(converter, patterns.getContext(),
                                            state);
}
