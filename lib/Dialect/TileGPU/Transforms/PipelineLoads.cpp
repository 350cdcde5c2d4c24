//===- PipelineLoads.cpp - The tilegpu-pipeline-loads pass ----------------===//
//
// Software pipelining of global tile loads by one iteration: the loop
// carries the tile the next iteration computes on, loaded at the start of
// this one, so that its latency hides behind this iteration's work. Only what
// the load needs is recomputed for the next iteration (its slice of
// side-effect-free ops over loop-invariant values and the induction variable);
// loads that depend on loop-carried values, and loops that store to memory,
// stay as they are. A tile that only goes to LDS is instead copied straight
// into one of two LDS buffers (no registers carried) on a chip whose copies
// into LDS are as wide as its global loads (gfx950, sm_90); gfx942's copies
// move 4 bytes per lane, so there the tile is carried in registers, loaded
// 16 bytes at a time.
//
//===----------------------------------------------------------------------===//

#include "LaunchKeys.h"
#include "mla/Dialect/TileGPU/IR/LdsCopy.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"
#include "mla/Dialect/TileGPU/Transforms/Passes.h"

#include "LayoutChoice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mla::tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINELOADS
#include "mla/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mla::tilegpu

using namespace mlir;
using namespace mla;
using namespace mla::tilegpu;

/// The ops of `loop`'s body that compute `load`'s operands, in body order,
/// when each is free of side effects and everything else they read is
/// defined outside the loop or is the induction variable.
static std::optional<SmallVector<Operation *>> operandSlice(scf::ForOp loop,
                                                            tile::LoadOp load) {
  Block *body = loop.getBody();
  SmallVector<Operation *> slice;
  llvm::SmallPtrSet<Operation *, 8> seen;
  SmallVector<Value> pending(load->getOperands());
  while (!pending.empty()) {
    Value value = pending.pop_back_val();
    if (value == loop.getInductionVar() ||
        !loop.getRegion().isAncestor(value.getParentRegion()))
      continue;
    Operation *op = value.getDefiningOp();
    if (!op || op->getBlock() != body || op->getNumRegions() != 0 ||
        !isMemoryEffectFree(op))
      return std::nullopt;
    if (!seen.insert(op).second)
      continue;
    slice.push_back(op);
    llvm::append_range(pending, op->getOperands());
  }
  llvm::sort(slice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return slice;
}

/// Whether `loop` may write memory a tile load reads: a load moved an
/// iteration earlier must not pass a store. Writes to LDS buffers
/// (local_alloc, local_store) are not; an op whose effects are unknown may
/// be.
static bool mayWriteLoadedMemory(scf::ForOp loop) {
  WalkResult result = loop.getBody()->walk([](Operation *op) {
    if (isa<LocalAllocOp, LocalStoreOp, BarrierOp, AsyncCopyOp, AsyncWaitOp>(
            op) ||
        op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || effects.hasEffect<MemoryEffects::Write>())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Clones `slice` and then `load` at `b` with the induction variable
/// replaced by `iv`; returns the cloned ops, the load last.
static SmallVector<Operation *> cloneAt(OpBuilder &b, Value inductionVar,
                                        Value iv, ArrayRef<Operation *> slice,
                                        tile::LoadOp load) {
  IRMapping mapping;
  mapping.map(inductionVar, iv);
  SmallVector<Operation *> cloned;
  for (Operation *op : slice)
    cloned.push_back(b.clone(*op, mapping));
  cloned.push_back(b.clone(*load, mapping));
  return cloned;
}

/// Loads `load` one iteration ahead in `loop`.
static LogicalResult pipeline(RewriterBase &rewriter, scf::ForOp loop,
                              tile::LoadOp load) {
  std::optional<SmallVector<Operation *>> slice = operandSlice(loop, load);
  if (!slice || mayWriteLoadedMemory(loop))
    return failure();
  rewriter.setInsertionPoint(loop);
  Value first = cloneAt(rewriter, loop.getInductionVar(), loop.getLowerBound(),
                        *slice, load)
                    .back()
                    ->getResult(0);
  SmallVector<Operation *> next;
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, first, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument>) {
        // Called in the old body, before it moves to the new loop.
        Value iv = loop.getInductionVar();
        auto nextIv = arith::AddIOp::create(b, loc, iv, loop.getStep());
        next = cloneAt(b, iv, nextIv, *slice, load);
        next.insert(next.begin(), nextIv);
        return SmallVector<Value>{next.back()->getResult(0)};
      });
  if (failed(replaced))
    return failure();
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  Value current = newLoop.getRegionIterArgs().back();
  rewriter.replaceAllUsesWith(load.getResult(), current);
  rewriter.eraseOp(load);
  for (Operation *op : llvm::reverse(*slice))
    if (op->use_empty())
      rewriter.eraseOp(op);

  // The next tile's loads are issued first, ahead of this iteration's
  // barrier and math.
  Operation *front = &newLoop.getBody()->front();
  for (Operation *op : next)
    op->moveBefore(front);
  return success();
}

/// A tile load of a loop body whose one user is a local_alloc, and the ops
/// its operands need.
struct StagedLoad {
  tile::LoadOp load;
  LocalAllocOp alloc;
  SmallVector<Operation *> slice;
};

/// The loads of `loop` that can be copied into LDS asynchronously on
/// `chip`: unmasked, padded with zero, staged right away, and copyable in
/// chunks (getLdsCopyBytes).
static SmallVector<StagedLoad> stagedLoads(scf::ForOp loop,
                                           const ChipInfo &chip) {
  SmallVector<StagedLoad> result;
  if (mayWriteLoadedMemory(loop))
    return result;
  for (auto load : loop.getBody()->getOps<tile::LoadOp>()) {
    auto alloc = dyn_cast_or_null<LocalAllocOp>(
        load->hasOneUse() ? *load->user_begin() : nullptr);
    Value pad = load.getPad();
    if (!alloc || alloc->getBlock() != load->getBlock() || load.getMask() ||
        (pad && !matchPattern(pad, m_Zero()) &&
         !matchPattern(pad, m_PosZeroFloat())) ||
        !getLdsCopyBytes(chip, load.getView(), load.getIndices(),
                         alloc.getType()))
      continue;
    std::optional<SmallVector<Operation *>> slice = operandSlice(loop, load);
    if (slice)
      result.push_back({load, alloc, std::move(*slice)});
  }
  return result;
}

/// Starts the copy of `staged`'s tile for induction value `iv` into buffer
/// `stage` of `buffers`.
static void copyAt(OpBuilder &b, Location loc, Value inductionVar, Value iv,
                   StagedLoad staged, Value buffers, Value stage) {
  IRMapping mapping;
  mapping.map(inductionVar, iv);
  for (Operation *op : staged.slice)
    b.clone(*op, mapping);
  auto dst =
      MemDescIndexOp::create(b, loc, staged.alloc.getType(), buffers, stage);
  SmallVector<Value> indices;
  for (Value index : staged.load.getIndices())
    indices.push_back(mapping.lookupOrDefault(index));
  AsyncCopyOp::create(b, loc, mapping.lookupOrDefault(staged.load.getView()),
                      indices, dst);
}

/// The buffer a warpgroup product operand reads: `value` through windows.
static Value bufferOf(Value value) {
  while (auto slice = value.getDefiningOp<MemDescSliceOp>())
    value = slice.getSrc();
  return value;
}

/// The warpgroup products of `loop` that may stay in flight into the next
/// iteration: each accumulates into a loop-carried value that only it
/// reads and whose next value only the loop carries, and reads only the
/// staged tiles or buffers from outside the loop, which nothing in the loop
/// writes but the staged tiles' copies. Empty unless every product of the
/// loop is such.
static SmallVector<WarpgroupDotOp> asyncProducts(scf::ForOp loop,
                                                 ArrayRef<StagedLoad> staged) {
  llvm::SmallPtrSet<Operation *, 4> stagedAllocs;
  for (const StagedLoad &s : staged)
    stagedAllocs.insert(s.alloc);
  bool othersWriteLds = false;
  SmallVector<WarpgroupDotOp> products;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<LocalStoreOp>(op) ||
        (isa<LocalAllocOp>(op) && !stagedAllocs.contains(op)))
      othersWriteLds = true;
    if (auto dot = dyn_cast<WarpgroupDotOp>(op))
      products.push_back(dot);
  });
  Operation *yield = loop.getBody()->getTerminator();
  auto carried = [&](WarpgroupDotOp dot) {
    auto acc = dyn_cast<BlockArgument>(dot.getAcc());
    if (!acc || acc.getOwner() != loop.getBody() || !acc.hasOneUse() ||
        acc.getArgNumber() == 0 || !dot.getResult().hasOneUse())
      return false;
    OpOperand &use = *dot.getResult().use_begin();
    return use.getOwner() == yield &&
           use.getOperandNumber() + 1 == acc.getArgNumber();
  };
  auto readsStable = [&](Value operand) {
    Value buffer = bufferOf(operand);
    Operation *def = buffer.getDefiningOp();
    return (def && stagedAllocs.contains(def)) ||
           !loop.getRegion().isAncestor(buffer.getParentRegion());
  };
  if (othersWriteLds || products.empty() ||
      llvm::any_of(products, [&](WarpgroupDotOp dot) {
        return dot->getParentOp() != loop || !carried(dot) ||
               !readsStable(dot.getA()) || !readsStable(dot.getB());
      }))
    return {};
  return products;
}

/// Where in the iteration the copies `stages - 1` tiles ahead are issued.
enum class FillAt {
  /// Before the wait for this iteration's tiles: one more tile in flight
  /// during the wait, for a barrier of their own (two stages).
  Start,
  /// Right after that wait, whose barrier also orders the previous
  /// iteration's reads of the buffer they fill before them.
  AfterWait,
  /// At the end, where the previous iteration's reads of the buffer they
  /// fill may last into this iteration's body (products in flight,
  /// keepProductsInFlight).
  End,
};

/// Buffers the tiles of `staged` in `stages` LDS buffers each, tile t in
/// buffer t mod `stages`, and copies them `stages - 1` iterations ahead:
/// tiles 0 .. stages - 2 before the loop, and in each iteration tile
/// i + stages - 1 into the buffer the previous iteration read. Iteration i
/// waits for its own tile (leaving the later ones in flight) and reads it.
/// The copies are placed as `fillAt` says.
static LogicalResult pipelineThroughLds(RewriterBase &rewriter, scf::ForOp loop,
                                        MutableArrayRef<StagedLoad> staged,
                                        unsigned stages, FillAt fillAt) {
  unsigned distance = stages - 1;
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value zero = index(0), one = index(1);
  SmallVector<Value> buffers;
  for (StagedLoad &s : staged)
    buffers.push_back(LocalBufferOp::create(
        rewriter, loc, bufferArrayOf(s.alloc.getType(), stages),
        IntegerAttr()));
  for (unsigned ahead = 0; ahead < distance; ++ahead) {
    Value iv = loop.getLowerBound();
    if (ahead)
      iv = rewriter.createOrFold<arith::AddIOp>(
          loc, iv,
          rewriter.createOrFold<arith::MulIOp>(loc, loop.getStep(),
                                               index(ahead)));
    Value stage = ahead ? index(ahead) : zero;
    for (auto [s, bufs] : llvm::zip(staged, buffers))
      copyAt(rewriter, loc, loop.getInductionVar(), iv, s, bufs, stage);
  }

  // The loop carries the buffer this iteration reads.
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, zero, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location, ArrayRef<BlockArgument> stage) {
        return SmallVector<Value>{stage.front()};
      });
  if (failed(replaced))
    return failure();
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  Value stage = newLoop.getRegionIterArgs().back();
  Operation *yield = newLoop.getBody()->getTerminator();

  // The buffer the next iteration reads, and the one this iteration fills,
  // (stage + distance) mod stages. Two buffers alternate.
  rewriter.setInsertionPointToStart(newLoop.getBody());
  Value nextStage, fillStage;
  if (stages == 2) {
    nextStage = fillStage = arith::XOrIOp::create(rewriter, loc, stage, one);
  } else {
    nextStage = arith::SelectOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, stage,
                              index(stages - 1)),
        zero, arith::AddIOp::create(rewriter, loc, stage, one));
    Value wraps = index(stages - distance);
    fillStage = arith::SelectOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, stage,
                              wraps),
        arith::SubIOp::create(rewriter, loc, stage, wraps),
        arith::AddIOp::create(rewriter, loc, stage, index(distance)));
  }
  rewriter.modifyOpInPlace(yield, [&] {
    yield->setOperand(yield->getNumOperands() - 1, nextStage);
  });
  Value iv = newLoop.getInductionVar();
  Value fillIv = arith::AddIOp::create(
      rewriter, loc, iv,
      distance == 1 ? newLoop.getStep()
                    : rewriter.createOrFold<arith::MulIOp>(
                          loc, newLoop.getStep(), index(distance)));
  auto fill = [&] {
    for (auto [s, bufs] : llvm::zip(staged, buffers))
      copyAt(rewriter, loc, iv, fillIv, s, bufs, fillStage);
  };
  if (fillAt == FillAt::Start)
    fill();
  if (fillAt == FillAt::End) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(yield);
    fill();
  }
  AsyncWaitOp::create(rewriter, loc,
                      (fillAt == FillAt::Start ? distance : distance - 1) *
                          staged.size());
  if (fillAt == FillAt::AfterWait)
    fill();
  for (auto [s, bufs] : llvm::zip(staged, buffers)) {
    Value current =
        MemDescIndexOp::create(rewriter, loc, s.alloc.getType(), bufs, stage);
    rewriter.replaceAllUsesWith(s.alloc.getResult(), current);
    rewriter.eraseOp(s.alloc);
    rewriter.eraseOp(s.load);
    for (Operation *op : llvm::reverse(s.slice))
      if (op->use_empty())
        rewriter.eraseOp(op);
  }

  // No copy may still be landing in LDS once the loop is done.
  rewriter.setInsertionPointAfter(newLoop);
  AsyncWaitOp::create(rewriter, loc, 0);
  return success();
}

/// Leaves `products` in flight from one iteration of their loop into the
/// next: each is issued `async`, the loop carries its result after a wait
/// that leaves this iteration's products in flight (so the previous
/// iteration's are done), and the loop's result is read after a wait for
/// every product.
static void keepProductsInFlight(RewriterBase &rewriter,
                                 ArrayRef<WarpgroupDotOp> products) {
  auto loop = cast<scf::ForOp>(products.front()->getParentOp());
  Operation *yield = loop.getBody()->getTerminator();
  int64_t pending = products.size();
  // The waits follow the last product, ahead of the copies that end the
  // iteration (pipelineThroughLds with FillAt::End).
  Operation *last = products.front();
  for (WarpgroupDotOp dot : products)
    if (last->isBeforeInBlock(dot))
      last = dot;
  rewriter.setInsertionPointAfter(last);
  for (WarpgroupDotOp dot : products) {
    rewriter.modifyOpInPlace(dot, [&] { dot.setAsync(true); });
    OpOperand &carried = *dot.getResult().use_begin();
    unsigned position = carried.getOperandNumber();
    auto wait = WarpgroupWaitOp::create(rewriter, dot.getLoc(), dot.getType(),
                                        dot.getResult(), pending);
    rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(position, wait); });
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(loop);
    Value result = loop.getResult(position);
    auto done = WarpgroupWaitOp::create(
        rewriter, dot.getLoc(), result.getType(), result, /*pending=*/0);
    rewriter.replaceAllUsesExcept(result, done.getResult(), done);
  }
}

namespace {
struct PipelineLoadsPass
    : mla::tilegpu::impl::TileGPUPipelineLoadsBase<PipelineLoadsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (stages < 1 || stages > kMaxStages) {
      getOperation().emitError() << "stages must be 1 to " << kMaxStages
                                 << ", not " << unsigned(stages);
      return signalPassFailure();
    }
    const ChipInfo *chipInfo = nullptr;
    if (!chip.empty() && !(chipInfo = lookupChip(chip))) {
      getOperation().emitError() << "unknown chip '" << chip << "'";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    for (auto kernel : getOperation().getOps<tile::KernelOp>()) {
      FailureOr<unsigned> count = getLaunchStages(kernel, stages);
      if (failed(count))
        return signalPassFailure();
      if (*count < 2)
        continue;
      if (chipInfo && chipInfo->copiesAsWideAsLoads()) {
        SmallVector<scf::ForOp> loops;
        kernel.walk([&](scf::ForOp loop) { loops.push_back(loop); });
        for (scf::ForOp loop : loops) {
          SmallVector<StagedLoad> staged = stagedLoads(loop, *chipInfo);
          if (staged.empty())
            continue;
          // With three stages or more, the products may stay in flight
          // into the next iteration: the copies then end each iteration,
          // after the previous iteration's products are done. Else they
          // follow the wait and share its barrier; with two stages that
          // would leave no tile in flight during the wait.
          SmallVector<WarpgroupDotOp> products;
          if (*count >= 3)
            products = asyncProducts(loop, staged);
          FillAt fillAt = !products.empty() ? FillAt::End
                          : *count >= 3     ? FillAt::AfterWait
                                            : FillAt::Start;
          if (failed(
                  pipelineThroughLds(rewriter, loop, staged, *count, fillAt)) ||
              products.empty())
            continue;
          keepProductsInFlight(rewriter, products);
        }
      }
      SmallVector<tile::LoadOp> loads;
      kernel.walk([&](tile::LoadOp load) {
        if (isa_and_nonnull<scf::ForOp>(load->getParentOp()))
          loads.push_back(load);
      });
      for (tile::LoadOp load : loads)
        (void)pipeline(rewriter, cast<scf::ForOp>(load->getParentOp()), load);
    }
  }
};
} // namespace
