//===- AsyncCopy.cpp - Copies from global memory straight into LDS --------===//
//
// A local_buffer lowers to the byte offset of its first buffer in the
// kernel's LDS block, memdesc_index to the offset of one buffer. An
// async_copy splits its buffer into runs of (wave size x chunk) bytes, one
// copy instruction each, dealt round-robin to the warps: a lane's slot in a
// run is a position in the buffer, which the inverse of the shared layout's
// swizzle turns into the tile element whose chunk the lane loads. An
// async_wait waits for the memory instructions of the copies it covers and
// then for every warp.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/Analysis/KnownNonNegative.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/LdsCopy.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

/// The copy instructions each warp issues for a copy of `type` in chunks
/// of `chunk` bytes, at least: the copies of the tile dealt round-robin to
/// `numWarps` warps.
static int64_t copiesPerWarp(MemDescType type, int64_t chunk,
                             const GpuTarget &target, int64_t numWarps) {
  int64_t bytes = type.getNumElements() * memoryBytes(type.getElementType());
  int64_t copies = llvm::divideCeil(bytes, target.chip().waveSize * chunk);
  return copies / numWarps;
}

namespace {
struct LocalBufferLowering : GpuOpLowering<LocalBufferOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(LocalBufferOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return op.emitOpError("has no LDS offset");
    rewriter.replaceOp(op, i32Const(rewriter, op.getLoc(), *offset));
    return success();
  }
};

struct MemDescIndexLowering : GpuOpLowering<MemDescIndexOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t stride = ldsBufferStride(op.getSrc().getType(), state.waveSize());
    Value offset = arith::MulIOp::create(
        rewriter, loc, toI32(rewriter, loc, adaptor.getIndex()),
        i32Const(rewriter, loc, stride));
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, adaptor.getSrc(), offset);
    return success();
  }
};

/// Whether the op before `op` that touches memory, past address
/// arithmetic (the next buffer's index), is another copy or a wait for
/// copies: its barrier then already orders every earlier read of shared
/// memory before `op`.
static bool followsBarrier(Operation *op) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isa<AsyncCopyOp, AsyncWaitOp>(prev))
      return true;
    if (!isMemoryEffectFree(prev))
      return false;
  }
  return false;
}

struct AsyncCopyLowering : GpuOpLowering<AsyncCopyOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const GpuTarget &target = state.target;
    MemDescType type = op.getDst().getType();
    auto plan = state.copies.find(op);
    if (plan == state.copies.end() || !plan->second.chunk)
      return op.emitOpError() << "cannot copy this tile straight into LDS on "
                              << target.chip().name;
    int64_t chunk = plan->second.chunk;
    // Only local_buffer pads its buffers to whole runs of copies.
    auto index = op.getDst().getDefiningOp<MemDescIndexOp>();
    if (!index || !index.getSrc().getDefiningOp<LocalBufferOp>())
      return op.emitOpError("copies only into one buffer of a "
                            "tilegpu.local_buffer");
    const KernelIds &ids = state.idsFor(op);
    LoweredView view(adaptor.getView());
    int64_t elementBytes = memoryBytes(type.getElementType());
    int64_t tileBytes = type.getNumElements() * elementBytes;
    int64_t waveBytes = state.waveSize() * chunk;
    int64_t copies = llvm::divideCeil(tileBytes, waveBytes);
    Value numBytes = viewExtentBytes(rewriter, loc, view, elementBytes);
    Value resource = target.globalResource(rewriter, loc, view.base, numBytes);
    Value row0 = adaptor.getIndices()[0].front();
    Value col0 = adaptor.getIndices()[1].front();
    Value buffer = adaptor.getDst().front();
    // Rows outside the view copy zero (the columns are inside it or
    // checked below); the next tile may start past the view's end, and a
    // tile may start before it (a negative row). One unsigned compare of
    // the view row checks both ends. Where the first row is known not to be
    // negative, the tile row against the rows left, one value per copy,
    // saves an add per chunk. Where rows end at the view's last byte and
    // the chip bounds its accesses by it, they need no check: a row past
    // the end is past that byte, one before the start a negative offset.
    bool rowsChecked = !target.boundsAccesses() || !rowsEndAtExtent(view);
    Value rowsLeft;
    if (rowsChecked && plan->second.rowsFromZero)
      rowsLeft = arith::MaxSIOp::create(
          rewriter, loc,
          arith::SubIOp::create(rewriter, loc, view.sizes[0], row0),
          indexConst(rewriter, loc, 0));
    // A chunk outside the view's row is outside it as a whole
    // (getLdsCopyBytes) and copies zero, checked the same way.
    bool columnsChecked = !plan->second.columnsInside;

    // Earlier readers of the buffer are done before it is overwritten; a
    // run of copies needs one barrier.
    if (!followsBarrier(op))
      target.barrier(rewriter, loc);
    Value laneBytes = arith::MulIOp::create(rewriter, loc, ids.lane,
                                            indexConst(rewriter, loc, chunk));
    for (int64_t round = 0; round * ids.numWarps < copies; ++round) {
      OpBuilder::InsertionGuard guard(rewriter);
      int64_t active =
          std::min<int64_t>(ids.numWarps, copies - round * ids.numWarps);
      if (active < ids.numWarps) {
        Value takesPart =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  ids.warp, indexConst(rewriter, loc, active));
        auto branch = scf::IfOp::create(rewriter, loc, takesPart,
                                        /*withElseRegion=*/false);
        rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
      }
      Value copy = arith::AddIOp::create(
          rewriter, loc, ids.warp,
          indexConst(rewriter, loc, round * ids.numWarps));
      Value runStart = arith::MulIOp::create(
          rewriter, loc, copy, indexConst(rewriter, loc, waveBytes));
      Value slot = arith::AddIOp::create(rewriter, loc, runStart, laneBytes);
      auto [row, col] = tileElementAt(rewriter, loc, type, slot);
      Value valid =
          rowsLeft
              ? arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                      row, rowsLeft)
              : arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult();
      Value viewColumn = arith::AddIOp::create(rewriter, loc, col0, col);
      if (columnsChecked)
        valid = arith::AndIOp::create(
            rewriter, loc, valid,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  viewColumn, view.sizes[1]));
      Value viewRow = arith::AddIOp::create(rewriter, loc, row0, row);
      if (rowsChecked && !rowsLeft)
        valid = arith::AndIOp::create(
            rewriter, loc, valid,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  viewRow, view.sizes[0]));
      if ((round + 1) * ids.numWarps >= copies && tileBytes % waveBytes)
        valid = arith::AndIOp::create(
            rewriter, loc, valid,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  slot, indexConst(rewriter, loc, tileBytes)));
      Value element = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, viewRow, view.strides[0]),
          viewColumn);
      Value offset =
          toI32(rewriter, loc,
                arith::MulIOp::create(rewriter, loc, element,
                                      indexConst(rewriter, loc, elementBytes)));
      Value ldsBase =
          ldsAddress(rewriter, loc, ids,
                     arith::AddIOp::create(rewriter, loc, buffer,
                                           toI32(rewriter, loc, runStart)));
      target.copyToLds(rewriter, loc, resource, offset, valid, numBytes,
                       ldsBase, ids.lane, chunk);
    }
    target.commitCopies(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }

  /// The (row, column) of the tile element stored at byte `slot` of a
  /// buffer of `type` (rank 2, row-major, or atom after atom): the swizzle
  /// XORs the group index with the row's phase, which is its own inverse.
  static std::pair<Value, Value> tileElementAt(OpBuilder &b, Location loc,
                                               MemDescType type, Value slot) {
    SharedAttr layout = type.getLayout();
    int64_t rows = type.getShape()[0];
    int64_t columns = layout.getAtom() ? layout.getAtom() : type.getShape()[1];
    Value element = arith::DivUIOp::create(
        b, loc, slot, indexConst(b, loc, memoryBytes(type.getElementType())));
    Value atomStart = indexConst(b, loc, 0);
    if (layout.getAtom()) {
      Value atomElements = indexConst(b, loc, rows * columns);
      atomStart = arith::MulIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, element, atomElements),
          indexConst(b, loc, columns));
      element = arith::RemUIOp::create(b, loc, element, atomElements);
    }
    Value row =
        arith::DivUIOp::create(b, loc, element, indexConst(b, loc, columns));
    Value col =
        arith::RemUIOp::create(b, loc, element, indexConst(b, loc, columns));
    if (layout.getMaxPhase() > 1) {
      Value vec = indexConst(b, loc, layout.getVec());
      Value phase = arith::RemUIOp::create(
          b, loc,
          arith::DivUIOp::create(b, loc, row,
                                 indexConst(b, loc, layout.getPerPhase())),
          indexConst(b, loc, layout.getMaxPhase()));
      Value group = arith::XOrIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, col, vec), phase);
      col = arith::AddIOp::create(b, loc,
                                  arith::MulIOp::create(b, loc, group, vec),
                                  arith::RemUIOp::create(b, loc, col, vec));
    }
    return {row, arith::AddIOp::create(b, loc, atomStart, col)};
  }
};

struct AsyncWaitLowering : GpuOpLowering<AsyncWaitOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto instructions = state.pendingCopyInstructions.find(op);
    if (instructions == state.pendingCopyInstructions.end())
      return op.emitOpError() << "leaves " << op.getPending()
                              << " copies in flight but fewer precede it";
    state.target.waitForCopies(rewriter, op.getLoc(), op.getPending(),
                               instructions->second);
    state.target.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mla::gpu::planCopies(Operation *kernel, int64_t numWarps,
                          LoweringState &state) {
  kernel->walk([&](AsyncCopyOp copy) {
    MemDescType type = copy.getDst().getType();
    state.copies[copy] = {getLdsCopyBytes(state.target.chip(), copy.getView(),
                                          copy.getIndices(), type),
                          ldsCopyColumnsInsideView(copy.getView(),
                                                   copy.getIndices(),
                                                   type.getShape()[1]),
                          isKnownNonNegative(copy.getIndices()[0])};
  });
  // The copies that may stay in flight are the latest `pending` ones
  // before the wait; the instructions of those are what the warp may leave
  // outstanding. In a loop body they continue with the previous iteration's
  // (the body's last copies), or in the first iteration with those before
  // the loop: past the wait's own block, each copy counts the fewest
  // instructions of any copy of either, as a smaller count only waits
  // longer.
  auto instructionsOf = [&](AsyncCopyOp copy) -> int64_t {
    int64_t chunk = state.copies[copy].chunk;
    return chunk ? copiesPerWarp(copy.getDst().getType(), chunk, state.target,
                                 numWarps)
                 : 0;
  };
  kernel->walk([&](AsyncWaitOp wait) {
    int64_t copiesLeft = wait.getPending(), instructions = 0;
    for (Operation *prev = wait->getPrevNode(); prev && copiesLeft;
         prev = prev->getPrevNode())
      if (auto copy = dyn_cast<AsyncCopyOp>(prev)) {
        instructions += instructionsOf(copy);
        --copiesLeft;
      }
    auto loop = dyn_cast<scf::ForOp>(wait->getParentOp());
    if (copiesLeft && loop) {
      std::optional<int64_t> fewest;
      auto see = [&](AsyncCopyOp copy) {
        fewest = std::min(fewest.value_or(INT64_MAX), instructionsOf(copy));
      };
      for (auto copy : loop.getBody()->getOps<AsyncCopyOp>())
        see(copy);
      for (Operation *prev = loop->getPrevNode(); prev;
           prev = prev->getPrevNode())
        if (auto copy = dyn_cast<AsyncCopyOp>(prev))
          see(copy);
      if (fewest) {
        instructions += copiesLeft * *fewest;
        copiesLeft = 0;
      }
    }
    if (!copiesLeft)
      state.pendingCopyInstructions[wait] = instructions;
  });
}

void mla::gpu::separateLdsCopies(Operation *func) {
  auto isLds = [](Value v) {
    auto ptr = dyn_cast<LLVM::LLVMPointerType>(v.getType());
    return ptr && ptr.getAddressSpace() == 3;
  };
  SmallVector<LLVM::AliasAnalysisOpInterface> accesses, copies;
  func->walk([&](LLVM::AliasAnalysisOpInterface op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(*op)) {
      if (isLds(load.getAddr()))
        accesses.push_back(op);
    } else if (auto store = dyn_cast<LLVM::StoreOp>(*op)) {
      if (isLds(store.getAddr()))
        accesses.push_back(op);
    } else if (isa<ROCDL::ds_read_tr16_b64>(*op)) {
      accesses.push_back(op);
    } else if (llvm::any_of(op->getOperands(), isLds)) {
      copies.push_back(op);
    }
  });
  if (copies.empty())
    return;
  MLIRContext *ctx = func->getContext();
  auto domain = LLVM::AliasScopeDomainAttr::get(
      ctx, StringAttr::get(ctx, "LDS accesses and copies into LDS"));
  auto accessScope = ArrayAttr::get(
      ctx, LLVM::AliasScopeAttr::get(domain, StringAttr::get(ctx, "accesses")));
  auto copyScope = ArrayAttr::get(
      ctx, LLVM::AliasScopeAttr::get(domain, StringAttr::get(ctx, "copies")));
  for (LLVM::AliasAnalysisOpInterface op : accesses) {
    op.setAliasScopes(accessScope);
    op.setNoAliasScopes(copyScope);
  }
  for (LLVM::AliasAnalysisOpInterface op : copies) {
    op.setAliasScopes(copyScope);
    op.setNoAliasScopes(accessScope);
  }
}

void mla::gpu::populateAsyncCopyPatterns(GpuTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         LoweringState &state) {
  patterns.add<LocalBufferLowering, MemDescIndexLowering, AsyncCopyLowering,
               AsyncWaitLowering>(converter, patterns.getContext(), state);
}
