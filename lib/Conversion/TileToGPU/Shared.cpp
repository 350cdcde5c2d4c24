//===- Shared.cpp - Tiles staged in LDS -----------------------------------===//
//
// A memdesc lowers to the byte offset of its buffer in the kernel's LDS
// block; windows (memdesc_slice) add static offsets that local_load reads
// off the IR. Elements are placed row-major in the shared layout's order,
// the fastest dimension in groups of `vec` whose position is XORed with
// (row / perPhase) % maxPhase, so the rows one read touches spread over the
// banks. Where the chip has matrix loads (ldmatrix) and a tile's registers
// hold 8x8 matrices the way they deliver them, plain or transposed (the
// mma operand layouts over row-major tiles), those registers come from
// matrix loads, four matrices each. Where the chip has transposing reads
// (ds_read_b64_tr_b16) and a lane's registers step the rows of one column
// four at a time, as MFMA B operands over row-major tiles do, each four come
// from one such read. Other runs of registers that are consecutive inside
// one group move as one access (up to 16 bytes).
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

/// The element index of (swizzled) coordinates `c` in a buffer of `type`:
/// row-major in the layout's order, or, with atoms, atom after atom along
/// the fastest dimension, each atom row-major over the buffer's rows.
template <typename T, typename Mul, typename Add>
static T linearElement(MemDescType type, SmallVector<T> c, Mul mul, Add add,
                       function_ref<T(T, int64_t)> div,
                       function_ref<T(T, int64_t)> rem, T zero) {
  SharedAttr layout = type.getLayout();
  ArrayRef<unsigned> order = layout.getOrder();
  SmallVector<int64_t> extent(type.getShape());
  unsigned fast = order[0];
  int64_t atom = layout.getAtom();
  T atomIndex = zero;
  if (atom) {
    atomIndex = div(c[fast], atom);
    c[fast] = rem(c[fast], atom);
    extent[fast] = atom;
  }
  T linear = zero;
  for (unsigned d : llvm::reverse(order))
    linear = add(mul(linear, extent[d]), c[d]);
  if (atom)
    linear = add(linear, mul(atomIndex, type.getNumElements() /
                                            type.getShape()[fast] * atom));
  return linear;
}

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
  Value linear = linearElement<Value>(
      type, c,
      [&](Value v, int64_t k) {
        return arith::MulIOp::create(b, loc, v, indexConst(b, loc, k))
            .getResult();
      },
      [&](Value x, Value y) {
        return arith::AddIOp::create(b, loc, x, y).getResult();
      },
      [&](Value v, int64_t k) -> Value {
        return arith::DivUIOp::create(b, loc, v, indexConst(b, loc, k));
      },
      [&](Value v, int64_t k) -> Value {
        return arith::RemUIOp::create(b, loc, v, indexConst(b, loc, k));
      },
      indexConst(b, loc, 0));
  return arith::MulIOp::create(
      b, loc, linear, indexConst(b, loc, memoryBytes(type.getElementType())));
}

int64_t mla::gpu::sharedByteOffset(MemDescType type, ArrayRef<int64_t> coords) {
  int64_t linear = linearElement<int64_t>(
      type, SmallVector<int64_t>(coords),
      [](int64_t v, int64_t k) { return v * k; },
      [](int64_t x, int64_t y) { return x + y; },
      [](int64_t v, int64_t k) { return v / k; },
      [](int64_t v, int64_t k) { return v % k; }, int64_t(0));
  return linear * memoryBytes(type.getElementType());
}

/// Registers per access: the first register digit when it walks the
/// buffer's fastest dimension, within one swizzle group and 16 bytes.
static int64_t sharedRun(const LaneMap &map, MemDescType type) {
  SharedAttr layout = type.getLayout();
  int64_t fast = layout.getOrder()[0];
  int64_t bytes = memoryBytes(type.getElementType());
  int64_t run = std::min<int64_t>(registerRun(map, fast), layout.getVec());
  while (run * bytes > 16 || layout.getVec() % run != 0)
    run /= 2;
  return std::max<int64_t>(run, 1);
}

std::pair<MemDescType, SmallVector<int64_t>>
mla::gpu::resolveWindow(Value value) {
  SmallVector<int64_t> offsets(cast<MemDescType>(value.getType()).getRank(), 0);
  while (auto slice = value.getDefiningOp<MemDescSliceOp>()) {
    for (auto [o, s] : llvm::zip(offsets, slice.getOffsets()))
      o += s;
    value = slice.getSrc();
  }
  if (!isa_and_nonnull<LocalAllocOp, MemDescIndexOp>(value.getDefiningOp()))
    return {};
  return {cast<MemDescType>(value.getType()), offsets};
}

namespace {
/// Byte offsets in a buffer of `type` of the elements at a lane-dependent
/// position `base` (one index per dimension) plus static coordinates.
///
/// The swizzle only touches the low bits of the group index and reads the
/// row modulo perPhase * maxPhase, so static coordinates split into a part
/// below those periods, which goes through the swizzle with `base`, and a
/// part above, which is a constant byte offset (an immediate of the LDS
/// instruction). Registers share the few swizzled addresses there are
/// instead of each computing its own.
class SwizzledOffsets {
public:
  SwizzledOffsets(OpBuilder &b, Location loc, MemDescType type,
                  SmallVector<Value> base)
      : b(b), loc(loc), type(type), base(std::move(base)),
        period(type.getRank(), 1) {
    SharedAttr layout = type.getLayout();
    ArrayRef<unsigned> order = layout.getOrder();
    if (type.getRank() >= 2 && layout.getMaxPhase() > 1) {
      period[order[0]] = int64_t(layout.getVec()) * layout.getMaxPhase();
      period[order[1]] = int64_t(layout.getPerPhase()) * layout.getMaxPhase();
    }
  }

  /// The byte offset (index) of element `base + coords`.
  Value at(ArrayRef<int64_t> coords) {
    int64_t rank = type.getRank();
    SmallVector<int64_t> low(rank), high(rank);
    for (int64_t d = 0; d < rank; ++d) {
      high[d] = coords[d] / period[d] * period[d];
      low[d] = coords[d] - high[d];
    }
    Value &address = swizzled[low];
    if (!address) {
      SmallVector<Value> lowCoords;
      for (auto [d, value] : llvm::enumerate(base))
        lowCoords.push_back(
            arith::AddIOp::create(b, loc, value, indexConst(b, loc, low[d])));
      address = sharedOffset(b, loc, type, lowCoords);
    }
    // The high parts are whole swizzle periods (whole atoms along the
    // fastest dimension), where the placement is linear.
    return arith::AddIOp::create(
        b, loc, address, indexConst(b, loc, sharedByteOffset(type, high)));
  }

private:
  OpBuilder &b;
  Location loc;
  MemDescType type;
  SmallVector<Value> base;
  SmallVector<int64_t> period;
  std::map<SmallVector<int64_t>, Value> swizzled;
};
} // namespace

/// The static coordinates of register `reg` of `map` in a buffer whose
/// window at `offsets` the tile is.
static SmallVector<int64_t> registerCoords(const LaneMap &map, int64_t reg,
                                           ArrayRef<int64_t> offsets) {
  SmallVector<int64_t> c = map.partialCoords(HwDim::Register, reg);
  for (auto [value, offset] : llvm::zip(c, offsets))
    value += offset;
  return c;
}

/// Calls `body(reg, count, byteOffset)` for each run of registers of `map`
/// (a tile of a window at `offsets` of `type`'s buffer).
static void
forEachSharedRun(OpBuilder &b, Location loc, const LaneMap &map,
                 MemDescType type, ArrayRef<int64_t> offsets,
                 const KernelIds &ids, bool firstCopiesOnly,
                 function_ref<void(int64_t, int64_t, Value)> body,
                 function_ref<bool(int64_t, int64_t)> wanted = nullptr) {
  int64_t run = sharedRun(map, type);
  SwizzledOffsets addresses(b, loc, type, laneWarpCoords(b, loc, map, ids));
  for (int64_t r = 0; r < map.numRegisters(); r += run) {
    if (firstCopiesOnly && !map.isOwner(HwDim::Register, r))
      continue;
    if (wanted && !wanted(r, run))
      continue;
    body(r, run, addresses.at(registerCoords(map, r, offsets)));
  }
}

/// Whether registers 4q .. 4q + 3 of `map` (a tile of a window at `offsets`
/// of a buffer of `type`) are what one transposing read gives every lane:
/// four elements that step the buffer's slower dimension at one column, the
/// four lanes of each aligned group at four consecutive columns from a
/// multiple of 4 (so each lane of the group reads 8 aligned bytes of one
/// row).
static bool isTransposedQuad(const LaneMap &map, int64_t quad, MemDescType type,
                             ArrayRef<int64_t> offsets) {
  SharedAttr layout = type.getLayout();
  unsigned fast = layout.getOrder()[0], slow = layout.getOrder()[1];
  for (int64_t t = 0; t < map.numLanes(); ++t) {
    SmallVector<int64_t> first = map.coords(4 * quad, t, 0);
    for (int64_t i = 1; i < 4; ++i) {
      SmallVector<int64_t> expected = first;
      expected[slow] += i;
      if (map.coords(4 * quad + i, t, 0) != expected)
        return false;
    }
    SmallVector<int64_t> leader = map.coords(4 * quad, t & ~int64_t(3), 0);
    SmallVector<int64_t> expected = leader;
    expected[fast] += t % 4;
    if (first != expected || (leader[fast] + offsets[fast]) % 4 != 0)
      return false;
  }
  return true;
}

/// The lane map whose coordinates are the row each lane of a transposing
/// read addresses: `map`'s lanes and warps with the two lowest lane bits
/// stepping the slower dimension instead of the faster; failure unless
/// those bits are the low part of one lane factor along the faster
/// dimension.
static FailureOr<LaneMap> transposedRowLanes(const LaneMap &map,
                                             MemDescType type) {
  SharedAttr layout = type.getLayout();
  int64_t fast = layout.getOrder()[0], slow = layout.getOrder()[1];
  SmallVector<LaneFactor> lanes = map.factorsOf(HwDim::Lane);
  if (lanes.empty() || lanes.front().dim != fast || lanes.front().stride != 1 ||
      lanes.front().size % 4 != 0)
    return failure();
  SmallVector<LaneFactor> factors = {{HwDim::Lane, 4, slow, 1}};
  if (lanes.front().size > 4)
    factors.push_back({HwDim::Lane, lanes.front().size / 4, fast, 4});
  factors.append(lanes.begin() + 1, lanes.end());
  SmallVector<LaneFactor> warps = map.factorsOf(HwDim::Warp);
  factors.append(warps.begin(), warps.end());
  return LaneMap(map.getShape(), factors);
}

/// Whether reads of runs of `run` 16-bit elements along the buffer's fast
/// dimension, each lane's registers in groups of `registers`, may read
/// tiles of a buffer of `type` laid out as `map` on waves of `lanes` lanes:
/// rows of whole runs that the swizzle moves whole, waves that step whole
/// runs, and every lane of the wave at the read (no branch on the lane
/// around it). The matrix-operand reads (transposing, matrix loads) need it.
static bool readsWholeRuns(Operation *op, const LaneMap &map, MemDescType type,
                           unsigned lanes, int64_t registers, int64_t run) {
  SharedAttr layout = type.getLayout();
  if (type.getRank() != 2 || memoryBytes(type.getElementType()) != 2 ||
      map.numLanes() != lanes || map.numRegisters() % registers != 0)
    return false;
  unsigned fast = layout.getOrder()[0];
  if (type.getShape()[fast] % run != 0 ||
      (layout.getMaxPhase() > 1 && layout.getVec() % run != 0))
    return false;
  for (const LaneFactor &f : map.factorsOf(HwDim::Warp))
    if (f.dim == static_cast<int64_t>(fast) && f.stride % run != 0)
      return false;
  return !op->getParentOfType<scf::IfOp>();
}

/// Whether transposing reads may read tiles of a buffer of `type` laid out
/// as `map`: 64-lane waves, four registers per read, rows of whole 8-byte
/// runs.
static bool canLoadTransposed(Operation *op, const LaneMap &map,
                              MemDescType type) {
  return readsWholeRuns(op, map, type, /*lanes=*/64, /*registers=*/4,
                        /*run=*/4);
}

/// Fills the registers of `elements` (of `map`, a tile of a window at
/// `offsets` of a buffer of `type` at LDS offset `base`) that transposing
/// reads deliver, four per read.
static void loadTransposed(OpBuilder &b, Location loc,
                           const LoweringState &state, const KernelIds &ids,
                           const LaneMap &map, MemDescType type,
                           ArrayRef<int64_t> offsets, Value base, Type element,
                           SmallVectorImpl<Value> &elements) {
  FailureOr<LaneMap> rows = transposedRowLanes(map, type);
  if (failed(rows))
    return;
  std::optional<SwizzledOffsets> addresses;
  Type quadType = VectorType::get({4}, memoryType(element));
  for (int64_t q = 0; q < map.numRegisters() / 4; ++q) {
    if (!isTransposedQuad(map, q, type, offsets))
      continue;
    if (!addresses)
      addresses.emplace(b, loc, type, laneWarpCoords(b, loc, *rows, ids));
    Value address = ldsAddress(
        b, loc, ids,
        arith::AddIOp::create(
            b, loc, base,
            toI32(b, loc, addresses->at(registerCoords(map, 4 * q, offsets)))));
    Value quad = LLVM::BitcastOp::create(
        b, loc, quadType, state.target.loadTransposed(b, loc, address));
    for (int64_t i = 0; i < 4; ++i)
      elements[4 * q + i] =
          fromMemory(b, loc, getRegister(b, loc, quad, i), element);
  }
}

namespace {
/// Registers 2p and 2p + 1 of a tile as one 8x8 matrix of a matrix load:
/// `origin` holds the coordinates (in the buffer) of the matrix's element
/// (0, 0), which lane 0 of warp 0 receives.
struct MatrixPair {
  int64_t pair;
  bool transposed;
  SmallVector<int64_t> origin;
};
} // namespace

/// Register pair `pair` of `map` (a tile of a window at `offsets` of a
/// buffer of `type`) as an 8x8 matrix of 16-bit elements, when the 32 lanes
/// hold it as a matrix load delivers it: rows along the buffer's slower
/// dimension, 8 contiguous elements each (16 aligned bytes, within one
/// swizzle group), and lane t with the pair at (t / 4, 2 (t % 4)) and the
/// next element along the row, or transposed, at (2 (t % 4), t / 4) and the
/// next row.
static std::optional<MatrixPair> matrixPair(const LaneMap &map, int64_t pair,
                                            MemDescType type,
                                            ArrayRef<int64_t> offsets) {
  SharedAttr layout = type.getLayout();
  unsigned fast = layout.getOrder()[0], slow = layout.getOrder()[1];
  SmallVector<int64_t> origin = map.coords(2 * pair, 0, 0);
  for (bool transposed : {false, true}) {
    bool matches = true;
    for (int64_t t = 0; t < 32 && matches; ++t) {
      SmallVector<int64_t> first = map.coords(2 * pair, t, 0);
      SmallVector<int64_t> second = map.coords(2 * pair + 1, t, 0);
      SmallVector<int64_t> expected = origin, next = first;
      int64_t row = transposed ? 2 * (t % 4) : t / 4;
      int64_t column = transposed ? t / 4 : 2 * (t % 4);
      expected[slow] += row;
      expected[fast] += column;
      next[transposed ? slow : fast] += 1;
      matches = first == expected && second == next;
    }
    if (!matches)
      continue;
    for (auto [o, offset] : llvm::zip(origin, offsets))
      o += offset;
    return MatrixPair{pair, transposed, origin};
  }
  return std::nullopt;
}

/// Whether 8x8 matrix loads may read tiles of a buffer of `type` laid out
/// as `map`: 32-lane warps, two registers per matrix, rows of whole 16-byte
/// runs.
static bool canLoadMatrices(Operation *op, const LaneMap &map,
                            MemDescType type) {
  return readsWholeRuns(op, map, type, /*lanes=*/32, /*registers=*/2,
                        /*run=*/8);
}

/// The lane digits of a load of matrices whose origins are `origins`
/// (consecutive matrices of one load): lane 8i + j addresses row j of
/// matrix i, so the lane's low three bits step the slower dimension and
/// its next two bits step from one origin to the next; failure when those
/// steps are not one dimension each.
static FailureOr<SmallVector<LaneFactor>>
matrixRowLanes(ArrayRef<SmallVector<int64_t>> origins, unsigned slow) {
  SmallVector<LaneFactor> lanes = {{HwDim::Lane, 8, slow, 1}};
  auto step = [&](int64_t from, int64_t to) -> FailureOr<LaneFactor> {
    SmallVector<int64_t> delta;
    for (auto [a, b] : llvm::zip(origins[from], origins[to]))
      delta.push_back(b - a);
    LaneFactor f{HwDim::Lane, 2, LaneFactor::kReplicated, 0};
    for (auto [d, value] : llvm::enumerate(delta)) {
      if (value == 0)
        continue;
      if (f.dim != LaneFactor::kReplicated || value < 0)
        return failure();
      f.dim = d;
      f.stride = value;
    }
    return f;
  };
  size_t count = origins.size();
  FailureOr<LaneFactor> second =
      count > 1 ? step(0, 1)
                : FailureOr<LaneFactor>(
                      LaneFactor{HwDim::Lane, 2, LaneFactor::kReplicated, 0});
  FailureOr<LaneFactor> third =
      count > 2 ? step(0, 2)
                : FailureOr<LaneFactor>(
                      LaneFactor{HwDim::Lane, 2, LaneFactor::kReplicated, 0});
  if (failed(second) || failed(third))
    return failure();
  if (count > 2) {
    // The fourth origin is the sum of the two steps.
    SmallVector<int64_t> sum = origins[0];
    for (const LaneFactor &f : {*second, *third})
      if (!f.isReplicated())
        sum[f.dim] += f.stride;
    if (sum != origins[3])
      return failure();
  }
  lanes.push_back(*second);
  lanes.push_back(*third);
  return lanes;
}

/// Fills `elements` (registers of `map`, a tile of a window at `offsets`
/// of a buffer of `type` at LDS offset `base`) with 8x8 matrix loads where
/// its registers hold such matrices, four at a time where they can.
static void loadMatrices(OpBuilder &b, Location loc, const LoweringState &state,
                         const KernelIds &ids, const LaneMap &map,
                         MemDescType type, ArrayRef<int64_t> offsets,
                         Value base, Type element,
                         SmallVectorImpl<Value> &elements) {
  unsigned slow = type.getLayout().getOrder()[1];
  SmallVector<MatrixPair> pairs;
  for (int64_t p = 0; p < map.numRegisters() / 2; ++p)
    if (std::optional<MatrixPair> pair = matrixPair(map, p, type, offsets))
      pairs.push_back(*pair);
  SmallVector<LaneFactor> warps = map.factorsOf(HwDim::Warp);
  Type packed = VectorType::get({2}, memoryType(element));
  for (size_t i = 0; i < pairs.size();) {
    // The longest run of up to 4 pairs of one kind whose rows one load
    // can address.
    size_t count = 4;
    FailureOr<SmallVector<LaneFactor>> lanes = failure();
    for (; count >= 1; count /= 2) {
      if (i + count > pairs.size())
        continue;
      ArrayRef<MatrixPair> group(pairs.begin() + i, count);
      if (llvm::any_of(group, [&](const MatrixPair &p) {
            return p.transposed != group.front().transposed;
          }))
        continue;
      SmallVector<SmallVector<int64_t>> origins;
      for (const MatrixPair &p : group)
        origins.push_back(p.origin);
      lanes = matrixRowLanes(origins, slow);
      if (succeeded(lanes))
        break;
    }
    if (count == 0) {
      ++i;
      continue;
    }
    SmallVector<LaneFactor> factors = *lanes;
    factors.append(warps.begin(), warps.end());
    LaneMap rows(map.getShape(), factors);
    SmallVector<Value> coords = laneWarpCoords(b, loc, rows, ids);
    for (auto [c, o] : llvm::zip(coords, pairs[i].origin))
      c = arith::AddIOp::create(b, loc, c, indexConst(b, loc, o));
    Value address = ldsAddress(
        b, loc, ids,
        arith::AddIOp::create(
            b, loc, base, toI32(b, loc, sharedOffset(b, loc, type, coords))));
    SmallVector<Value> matrices =
        state.target.loadMatrices(b, loc, address, count, pairs[i].transposed);
    for (auto [matrix, pair] :
         llvm::zip(matrices, ArrayRef(pairs).slice(i, count))) {
      Value halves = LLVM::BitcastOp::create(b, loc, packed, matrix);
      for (int64_t k = 0; k < 2; ++k)
        elements[2 * pair.pair + k] =
            fromMemory(b, loc, getRegister(b, loc, halves, k), element);
    }
    i += count;
  }
}

/// Writes the registers `regs` of a tile laid out as `map` into the window
/// at `offsets` of a buffer of `type` at LDS offset `base`, each element
/// once (first copies only).
static void storeTile(OpBuilder &b, Location loc, const KernelIds &ids,
                      Value regs, const LaneMap &map, MemDescType type,
                      ArrayRef<int64_t> offsets, Value base) {
  int64_t bytes = memoryBytes(type.getElementType());
  OpBuilder::InsertionGuard guard(b);
  enterFirstCopies(b, loc, map, ids);
  forEachSharedRun(
      b, loc, map, type, offsets, ids, /*firstCopiesOnly=*/true,
      [&](int64_t reg, int64_t count, Value at) {
        Value value = memoryRun(b, loc, regs, reg, count);
        Value address =
            ldsAddress(b, loc, ids,
                       arith::AddIOp::create(b, loc, base, toI32(b, loc, at)));
        LLVM::StoreOp::create(b, loc, value, address, bytes * count);
      });
}

/// The byte `type` at LDS byte `offset` (i32), read as the aligned 32-bit
/// word that holds it and shifted down: LDS buffers start 16-byte aligned
/// and are padded to 16 bytes, so the word is the buffer's, and a word
/// costs one read as a byte does, so no LDS read is narrower than a 16-bit
/// element (MXFP4's E8M0 scales, a byte per lane, are read this way).
static Value loadWithinWord(OpBuilder &b, Location loc, const KernelIds &ids,
                            Value offset, Type type, int64_t bytes) {
  Type i32 = b.getI32Type();
  Value within = arith::AndIOp::create(b, loc, offset, i32Const(b, loc, 3));
  Value word = LLVM::LoadOp::create(
      b, loc, i32,
      ldsAddress(b, loc, ids, arith::SubIOp::create(b, loc, offset, within)),
      4);
  Value shifted = arith::ShRUIOp::create(
      b, loc, word, arith::ShLIOp::create(b, loc, within, i32Const(b, loc, 3)));
  Value bits =
      arith::TruncIOp::create(b, loc, b.getIntegerType(8 * bytes), shifted);
  if (bits.getType() == type)
    return bits;
  return LLVM::BitcastOp::create(b, loc, type, bits);
}

namespace {
struct LocalAllocLowering : GpuOpLowering<LocalAllocOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return op.emitOpError("has no LDS offset");
    MemDescType type = op.getType();
    Value base = i32Const(rewriter, loc, *offset);
    // Earlier readers of this buffer are done before it is overwritten.
    state.target.barrier(rewriter, loc);
    storeTile(rewriter, loc, state.idsFor(op), adaptor.getSrc(),
              getLaneMap(op.getSrc().getType()), type,
              SmallVector<int64_t>(type.getRank(), 0), base);
    state.target.barrier(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct LocalStoreLowering : GpuOpLowering<LocalStoreOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [bufferType, offsets] = resolveWindow(op.getDst());
    if (!bufferType)
      return op.emitOpError("writes a buffer that is neither a local_alloc "
                            "nor one buffer of a local_buffer");
    storeTile(rewriter, op.getLoc(), state.idsFor(op), adaptor.getSrc(),
              getLaneMap(op.getSrc().getType()), bufferType, offsets,
              adaptor.getDst());
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierLowering : GpuOpLowering<BarrierOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    state.target.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MemDescSliceLowering : GpuOpLowering<MemDescSliceOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(MemDescSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The window's offsets are read statically by its readers.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct LocalLoadLowering : GpuOpLowering<LocalLoadOp> {
  using GpuOpLowering::GpuOpLowering;
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
    if (state.target.hasMatrixLoads() && canLoadMatrices(op, map, bufferType))
      loadMatrices(rewriter, loc, state, ids, map, bufferType, offsets, base,
                   element, elements);
    else if (state.target.hasTransposedLoads() &&
             canLoadTransposed(op, map, bufferType))
      loadTransposed(rewriter, loc, state, ids, map, bufferType, offsets, base,
                     element, elements);
    forEachSharedRun(
        rewriter, loc, map, bufferType, offsets, ids,
        /*firstCopiesOnly=*/false,
        [&](int64_t reg, int64_t count, Value at) {
          Value offset = arith::AddIOp::create(rewriter, loc, base,
                                               toI32(rewriter, loc, at));
          Type accessType =
              count == 1 ? stored : VectorType::get({count}, stored);
          Value value =
              bytes * count == 1
                  ? loadWithinWord(rewriter, loc, ids, offset, accessType,
                                   bytes * count)
                  : LLVM::LoadOp::create(rewriter, loc, accessType,
                                         ldsAddress(rewriter, loc, ids, offset),
                                         bytes * count)
                        .getResult();
          for (int64_t i = 0; i < count; ++i)
            if (!elements[reg + i])
              elements[reg + i] = fromMemory(
                  rewriter, loc,
                  count == 1 ? value : getRegister(rewriter, loc, value, i),
                  element);
        },
        [&](int64_t reg, int64_t count) {
          return llvm::any_of(ArrayRef(elements).slice(reg, count),
                              [](Value v) { return !v; });
        });
    rewriter.replaceOp(
        op, makeRegisters(rewriter, loc, registerType(type), elements));
    return success();
  }
};
} // namespace

void mla::gpu::dropRepeatedBarriers(Operation *func, const GpuTarget &target) {
  // A barrier with nothing but barrier parts since the previous one is
  // dropped, and those parts with it.
  SmallVector<Operation *> repeated;
  func->walk([&](Block *block) {
    bool afterBarrier = false;
    SmallVector<Operation *> parts;
    for (Operation &op : *block) {
      if (target.isBarrier(&op)) {
        if (afterBarrier) {
          repeated.append(parts);
          repeated.push_back(&op);
        }
        afterBarrier = true;
        parts.clear();
      } else if (target.isBarrierPart(&op)) {
        parts.push_back(&op);
      } else if (!isMemoryEffectFree(&op)) {
        afterBarrier = false;
      }
    }
  });
  for (Operation *op : repeated)
    op->erase();
}

void mla::gpu::populateSharedPatterns(GpuTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  patterns.add<LocalAllocLowering, LocalLoadLowering, LocalStoreLowering,
               BarrierLowering, MemDescSliceLowering>(
      converter, patterns.getContext(), state);
}
