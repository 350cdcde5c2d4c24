//===- Shared.cpp - Tiles staged in LDS -----------------------------------===//
//
// A memdesc lowers to the byte offset of its buffer in the kernel's LDS
// block; windows (memdesc_slice) add static offsets that local_load reads
// off the IR. Elements are placed row-major in the shared layout's order,
// the fastest dimension in groups of `vec` whose position is XORed with
// (row / perPhase) % maxPhase, so the rows one read touches spread over the
// banks. Runs of registers that are consecutive inside one group move as
// one access (up to 16 bytes).
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

/// The byte offset (index) of element `coords` of a buffer of `type`.
static Value sharedOffset(OpBuilder &b, Location loc, MemDescType type,
                          ArrayRef<Value> coords) {
  SharedAttr layout = type.getLayout();
  ArrayRef<unsigned> order = layout.getOrder();
  SmallVector<Value> c(coords);
  if (order.size() >= 2 && layout.getMaxPhase() > 1) {
    unsigned fast = order[0], row = order[1];
    Value vec = indexConst(b, loc, layout.getVec());
    Value chunk = arith::DivUIOp::create(b, loc, c[fast], vec);
    Value within = arith::RemUIOp::create(b, loc, c[fast], vec);
    Value phase = arith::RemUIOp::create(
        b, loc,
        arith::DivUIOp::create(b, loc, c[row],
                               indexConst(b, loc, layout.getPerPhase())),
        indexConst(b, loc, layout.getMaxPhase()));
    Value swizzled = arith::XOrIOp::create(b, loc, chunk, phase);
    c[fast] = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, swizzled, vec), within);
  }
  Value linear = indexConst(b, loc, 0);
  for (unsigned d : llvm::reverse(order)) {
    linear = arith::MulIOp::create(b, loc, linear,
                                   indexConst(b, loc, type.getShape()[d]));
    linear = arith::AddIOp::create(b, loc, linear, c[d]);
  }
  return arith::MulIOp::create(
      b, loc, linear, indexConst(b, loc, memoryBytes(type.getElementType())));
}

/// Registers per access: the first register digit when it walks the
/// buffer's fastest dimension, within one swizzle group and 16 bytes.
static int64_t sharedRun(const LaneMap &map, MemDescType type) {
  SharedAttr layout = type.getLayout();
  int64_t fast = layout.getOrder()[0];
  int64_t bytes = memoryBytes(type.getElementType());
  for (const LaneFactor &f : map.getFactors()) {
    if (f.hw != HwDim::Register)
      continue;
    if (f.dim != fast || f.stride != 1)
      return 1;
    int64_t run = std::min<int64_t>(f.size, layout.getVec());
    while (run * bytes > 16 || layout.getVec() % run != 0)
      run /= 2;
    return std::max<int64_t>(run, 1);
  }
  return 1;
}

/// The type of the buffer `value` is a window of (a local_alloc or one
/// buffer of a local_buffer), and the window's offsets in it; a null type
/// when the buffer is not known.
static std::pair<MemDescType, SmallVector<int64_t>> resolveWindow(Value value) {
  SmallVector<int64_t> offsets(cast<MemDescType>(value.getType()).getRank(),
                               0);
  while (auto slice = value.getDefiningOp<MemDescSliceOp>()) {
    for (auto [o, s] : llvm::zip(offsets, slice.getOffsets()))
      o += s;
    value = slice.getSrc();
  }
  if (!isa_and_nonnull<LocalAllocOp, MemDescIndexOp>(value.getDefiningOp()))
    return {};
  return {cast<MemDescType>(value.getType()), offsets};
}

/// Calls `body(reg, count, byteOffset)` for each run of registers of `map`
/// (a tile of a window at `offsets` of `type`'s buffer).
///
/// The swizzle only touches the low bits of the group index and reads the
/// row modulo perPhase * maxPhase, so a register's static coordinates split
/// into a part below those periods, which goes through the swizzle with the
/// lane's coordinates, and a part above, which is a constant byte offset
/// (an immediate of the LDS instruction). Registers share the few swizzled
/// addresses there are instead of each computing its own.
static void forEachSharedRun(OpBuilder &b, Location loc, const LaneMap &map,
                             MemDescType type, ArrayRef<int64_t> offsets,
                             const KernelIds &ids, bool firstCopiesOnly,
                             function_ref<void(int64_t, int64_t, Value)> body) {
  SharedAttr layout = type.getLayout();
  ArrayRef<unsigned> order = layout.getOrder();
  int64_t rank = type.getRank();
  // The period of each dimension's effect on the swizzle.
  SmallVector<int64_t> period(rank, 1);
  if (rank >= 2 && layout.getMaxPhase() > 1) {
    period[order[0]] = int64_t(layout.getVec()) * layout.getMaxPhase();
    period[order[1]] = int64_t(layout.getPerPhase()) * layout.getMaxPhase();
  }
  int64_t bytes = memoryBytes(type.getElementType());
  int64_t run = sharedRun(map, type);
  SmallVector<Value> base = laneWarpCoords(b, loc, map, ids);
  std::map<SmallVector<int64_t>, Value> swizzled;
  for (int64_t r = 0; r < map.numRegisters(); r += run) {
    if (firstCopiesOnly && !map.isOwner(HwDim::Register, r))
      continue;
    SmallVector<int64_t> c = map.partialCoords(HwDim::Register, r);
    SmallVector<int64_t> low(rank), high(rank);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t total = c[d] + offsets[d];
      high[d] = total / period[d] * period[d];
      low[d] = total - high[d];
    }
    Value &address = swizzled[low];
    if (!address) {
      SmallVector<Value> coords;
      for (auto [d, value] : llvm::enumerate(base))
        coords.push_back(arith::AddIOp::create(b, loc, value,
                                               indexConst(b, loc, low[d])));
      address = sharedOffset(b, loc, type, coords);
    }
    int64_t constant = 0;
    for (unsigned d : llvm::reverse(order))
      constant = constant * type.getShape()[d] + high[d];
    body(r, run,
         arith::AddIOp::create(b, loc, address,
                               indexConst(b, loc, constant * bytes)));
  }
}

namespace {
struct LocalAllocLowering : OpConversionPattern<LocalAllocOp> {
  LocalAllocLowering(GpuTypeConverter &converter, MLIRContext *ctx,
                     LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return op.emitOpError("has no LDS offset");
    const KernelIds &ids = state.idsFor(op);
    RankedTensorType srcType = op.getSrc().getType();
    LaneMap map = getLaneMap(srcType);
    MemDescType type = op.getType();
    Type stored = memoryType(type.getElementType());
    int64_t bytes = memoryBytes(type.getElementType());
    Value base = i32Const(rewriter, loc, *offset);

    // Earlier readers of this buffer are done before it is overwritten.
    state.target.barrier(rewriter, loc);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      if (Value first = isFirstCopy(rewriter, loc, map, ids)) {
        auto branch = scf::IfOp::create(rewriter, loc, first,
                                        /*withElseRegion=*/false);
        rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
      }
      SmallVector<int64_t> zero(type.getRank(), 0);
      forEachSharedRun(
          rewriter, loc, map, type, zero, ids, /*firstCopiesOnly=*/true,
          [&](int64_t reg, int64_t count, Value at) {
            SmallVector<Value> elements;
            for (int64_t i = 0; i < count; ++i)
              elements.push_back(toMemory(
                  rewriter, loc,
                  getRegister(rewriter, loc, adaptor.getSrc(), reg + i)));
            Value value = count == 1 ? elements.front()
                                     : makeRegisters(
                                           rewriter, loc,
                                           VectorType::get({count}, stored),
                                           elements);
            Value address = ldsAddress(
                rewriter, loc, ids,
                arith::AddIOp::create(rewriter, loc, base,
                                      toI32(rewriter, loc, at)));
            LLVM::StoreOp::create(rewriter, loc, value, address,
                                  bytes * count);
          });
    }
    state.target.barrier(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }
  LoweringState &state;
};

struct MemDescSliceLowering : OpConversionPattern<MemDescSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MemDescSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The window's offsets are read statically by its readers.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct LocalLoadLowering : OpConversionPattern<LocalLoadOp> {
  LocalLoadLowering(GpuTypeConverter &converter, MLIRContext *ctx,
                    LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [bufferType, offsets] = resolveWindow(op.getSrc());
    if (!bufferType)
      return op.emitOpError("reads a buffer that is neither a local_alloc "
                            "nor one buffer of a local_buffer");
    const KernelIds &ids = state.idsFor(op);
    RankedTensorType type = op.getType();
    LaneMap map = getLaneMap(type);
    Type element = type.getElementType();
    Type stored = memoryType(element);
    int64_t bytes = memoryBytes(element);
    Value base = adaptor.getSrc();

    SmallVector<Value> elements(map.numRegisters());
    forEachSharedRun(
        rewriter, loc, map, bufferType, offsets, ids,
        /*firstCopiesOnly=*/false, [&](int64_t reg, int64_t count, Value at) {
          Value address = ldsAddress(
              rewriter, loc, ids,
              arith::AddIOp::create(rewriter, loc, base,
                                    toI32(rewriter, loc, at)));
          Type accessType =
              count == 1 ? stored : VectorType::get({count}, stored);
          Value value = LLVM::LoadOp::create(rewriter, loc, accessType,
                                             address, bytes * count);
          for (int64_t i = 0; i < count; ++i)
            elements[reg + i] = fromMemory(
                rewriter, loc,
                count == 1 ? value : getRegister(rewriter, loc, value, i),
                element);
        });
    rewriter.replaceOp(op,
                       makeRegisters(rewriter, loc, registerType(type),
                                     elements));
    return success();
  }
  LoweringState &state;
};
} // namespace

void mla::gpu::populateSharedPatterns(GpuTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LocalAllocLowering, LocalLoadLowering>(converter, ctx, state);
  patterns.add<MemDescSliceLowering>(converter, ctx);
}
