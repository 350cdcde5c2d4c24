//===- PipelineLoads.cpp - The tilegpu-pipeline-loads pass ----------------===//
//
// Software pipelining of global tile loads by one iteration: the loop
// carries the tile the next iteration computes on, loaded at the start of
// this one, so that its latency hides behind this iteration's work. Only what
// the load needs is recomputed for the next iteration (its slice of
// side-effect-free ops over loop-invariant values and the induction variable);
// loads that depend on loop-carried values, and loops that store to memory,
// stay as they are.
//
//===----------------------------------------------------------------------===//

#include "LaunchKeys.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"
#include "mla/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
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
/// (local_alloc) are not; an op whose effects are unknown may be.
static bool mayWriteLoadedMemory(scf::ForOp loop) {
  WalkResult result = loop.getBody()->walk([](Operation *op) {
    if (isa<LocalAllocOp>(op) ||
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

/// The KV tiles in flight per loop of `kernel`: its launch key `stages`,
/// else the pass option; 1 (no pipelining) or 2.
static FailureOr<unsigned> stagesOf(tile::KernelOp kernel, unsigned fallback) {
  FailureOr<int64_t> stages = getLaunchInteger(
      kernel, "stages", fallback, [](int64_t n) { return n == 1 || n == 2; },
      "1 or 2");
  if (failed(stages))
    return failure();
  return static_cast<unsigned>(*stages);
}

namespace {
struct PipelineLoadsPass
    : mla::tilegpu::impl::TileGPUPipelineLoadsBase<PipelineLoadsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (stages < 1 || stages > 2) {
      getOperation().emitError()
          << "stages must be 1 or 2, not " << unsigned(stages);
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    for (auto kernel : getOperation().getOps<tile::KernelOp>()) {
      FailureOr<unsigned> count = stagesOf(kernel, stages);
      if (failed(count))
        return signalPassFailure();
      if (*count < 2)
        continue;
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
