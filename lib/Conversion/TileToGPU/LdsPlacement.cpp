//===- LdsPlacement.cpp - Where each LDS buffer of a kernel lives ---------===//
//
// The kernel's LDS block starts with the scratch region every layout
// exchange and cross-wave reduction shares (each bracketed by barriers).
// Buffers (local_alloc, local_buffer) follow, placed by live range: a
// buffer lives from its op to the last op that reads or writes it (through
// its windows), counted in the block that defines it, so a buffer used
// inside a loop nested there lives for the whole loop, and one defined in a
// loop's body lives within one iteration; buffers filled by asynchronous
// copies live until the wait for every copy. Buffers whose ranges do not
// overlap share bytes, first fit. Every LDS write starts with a barrier (the
// lowering of local_alloc and async_copy), so a reused range is never
// written while an earlier buffer there is still being read.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include <tuple>

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

namespace {
/// One buffer: its op, size and live range (positions of ops in the
/// kernel's program order), and the offset it gets.
struct Placement {
  Operation *op;
  int64_t bytes;
  int64_t alignment;
  int64_t first, last;
  /// Its place among the buffers in program order, which breaks ties.
  size_t index;
  int64_t offset = 0;
};

/// Each op's position in program order (a pre-order walk), and the last
/// position of the ops it contains.
struct ProgramOrder {
  explicit ProgramOrder(Operation *kernel) {
    int64_t next = 0;
    kernel->walk<WalkOrder::PreOrder>([&](Operation *op) {
      position[op] = next;
      end[op] = next++;
    });
    kernel->walk([&](Operation *op) {
      Operation *parent = op->getParentOp();
      if (parent && end.count(parent))
        end[parent] = std::max(end[parent], end[op]);
    });
  }
  DenseMap<Operation *, int64_t> position, end;
};
} // namespace

int64_t mla::gpu::sharedAlignment(MemDescType type) {
  SharedAttr layout = type.getLayout();
  if (!layout.getAtom())
    return 16;
  return int64_t(layout.getAtom()) * memoryBytes(type.getElementType()) *
         layout.getPerPhase() * layout.getMaxPhase();
}

int64_t mla::gpu::ldsBufferStride(MemDescType buffers, unsigned waveSize) {
  int64_t elements = buffers.getNumElements() / buffers.getShape().front();
  return llvm::alignTo(
      elements * memoryBytes(buffers.getElementType()),
      std::max<int64_t>(waveSize * 16, sharedAlignment(buffers)));
}

/// Whether `op` is, or contains, a wait for every asynchronous copy.
static bool waitsForAllCopies(Operation *op) {
  return op
      ->walk([](AsyncWaitOp wait) {
        return wait.getPending() == 0 ? WalkResult::interrupt()
                                      : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `buffer` is a local_buffer that asynchronous copies fill.
static bool isCopyTarget(Operation *buffer) {
  if (!isa<LocalBufferOp>(buffer))
    return false;
  return llvm::any_of(buffer->getResult(0).getUsers(), [](Operation *user) {
    return isa<MemDescIndexOp>(user) &&
           llvm::any_of(user->getResult(0).getUsers(),
                        [](Operation *u) { return isa<AsyncCopyOp>(u); });
  });
}

/// The live range of the buffer `root` defines, from `root` to the end of
/// the last op of its block that reaches a use.
static std::pair<int64_t, int64_t> liveRange(Operation *root,
                                             const ProgramOrder &order) {
  Block *block = root->getBlock();
  Operation *lastOp = root;
  SmallVector<Value> values = {root->getResult(0)};
  while (!values.empty()) {
    Value value = values.pop_back_val();
    for (Operation *user : value.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (ancestor && lastOp->isBeforeInBlock(ancestor))
        lastOp = ancestor;
      if (isa<MemDescSliceOp, MemDescIndexOp>(user))
        values.push_back(user->getResult(0));
    }
  }
  // Copies into the buffer may land until every copy is waited for. A
  // buffer that only local stores fill (a decoded tile) ends at its last
  // use, like any other.
  if (isCopyTarget(root)) {
    Block::iterator it = lastOp->getIterator();
    while (std::next(it) != block->end() && !waitsForAllCopies(&*it))
      ++it;
    lastOp = &*it;
  }
  return {order.position.at(root), order.end.at(lastOp)};
}

int64_t mla::gpu::assignLdsOffsets(Operation *kernel, int64_t scratchBytes,
                                   unsigned waveSize) {
  ProgramOrder order(kernel);
  SmallVector<Placement> buffers;
  kernel->walk([&](Operation *op) {
    int64_t bytes = 0, alignment = 16;
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      MemDescType type = alloc.getType();
      bytes = llvm::alignTo(
          type.getNumElements() * memoryBytes(type.getElementType()), 16);
      alignment = sharedAlignment(type);
    } else if (auto local = dyn_cast<LocalBufferOp>(op)) {
      MemDescType type = local.getType();
      bytes = type.getShape().front() * ldsBufferStride(type, waveSize);
      alignment = sharedAlignment(type);
    } else {
      return;
    }
    auto [first, last] = liveRange(op, order);
    buffers.push_back({op, bytes, alignment, first, last, buffers.size()});
  });

  // First fit, in order of first use, among the buffers live at the same
  // time; buffers that copies fill go after the others. An LDS read or
  // write reaches 64 KiB past its lane's address register (a 16-bit
  // immediate), so the buffers that operands are read from at many static
  // offsets (a decoded KV tile) stay where one register serves them all,
  // while a copy's LDS address is a scalar register of any size and its
  // buffer is read back at a few offsets only.
  llvm::sort(buffers, [](const Placement &a, const Placement &b) {
    return std::make_tuple(isCopyTarget(a.op), a.first, a.index) <
           std::make_tuple(isCopyTarget(b.op), b.first, b.index);
  });
  int64_t start = llvm::alignTo(scratchBytes, 16), end = start;
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    SmallVector<const Placement *> live;
    for (const Placement &other : ArrayRef(buffers).take_front(i))
      if (other.first <= buffer.last && buffer.first <= other.last)
        live.push_back(&other);
    llvm::sort(live, [](const Placement *a, const Placement *b) {
      return a->offset < b->offset;
    });
    int64_t offset = llvm::alignTo(start, buffer.alignment);
    for (const Placement *other : live)
      if (offset + buffer.bytes > other->offset)
        offset = llvm::alignTo(std::max(offset, other->offset + other->bytes),
                               buffer.alignment);
    buffer.offset = offset;
    end = std::max(end, offset + buffer.bytes);
    auto attr =
        IntegerAttr::get(IntegerType::get(kernel->getContext(), 64), offset);
    if (auto alloc = dyn_cast<LocalAllocOp>(buffer.op))
      alloc.setOffsetAttr(attr);
    else
      cast<LocalBufferOp>(buffer.op).setOffsetAttr(attr);
  }
  return end;
}

int64_t mla::gpu::ldsAlignment(Operation *kernel) {
  int64_t alignment = 16;
  kernel->walk([&](Operation *op) {
    if (isa<LocalAllocOp, LocalBufferOp>(op))
      alignment = std::max(alignment, sharedAlignment(cast<MemDescType>(
                                          op->getResult(0).getType())));
  });
  return alignment;
}
