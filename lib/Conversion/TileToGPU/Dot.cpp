//===- Dot.cpp - Tile products on matrix cores ----------------------------===//
//
// The operands are in the operand layouts of the result's matrix-core
// layout, so each lane already holds, contiguously, the registers of every
// instruction it takes part in: for each (row block, column block) of its
// warp's part of the result, one instruction per K step. Where the warps
// split K too, each group of them multiplies its own K steps from zero,
// and the groups' partial results are summed through LDS before the
// accumulator is added.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

namespace {
/// How one operand's or the accumulator's registers split into
/// instructions: `perInstr` registers each, then repeats along `outer`
/// (rows or columns of instructions) and `inner` (K steps, or columns).
struct RegisterBlocks {
  int64_t perInstr;
  int64_t inner;
  int64_t outer;
};
} // namespace

/// Register digits past the instruction's own, by tile dimension.
static RegisterBlocks blocksOf(const LaneMap &map, int64_t innerDim,
                               int64_t instrRegs) {
  int64_t inner = 1, outer = 1, seen = 1;
  for (const LaneFactor &f : map.factorsOf(HwDim::Register)) {
    if (seen < instrRegs) {
      seen *= f.size;
      continue;
    }
    if (f.dim == innerDim)
      inner *= f.size;
    else
      outer *= f.size;
  }
  return {instrRegs, inner, outer};
}

/// Registers one instruction takes for operand `opIdx` (2 = accumulator).
static int64_t instructionRegisters(MmaAttr mma, int opIdx) {
  if (mma.getKind() == MmaKind::mma_sync)
    return opIdx == 0 ? 8 : 4;
  if (opIdx < 2)
    return mma.getKWidth();
  return mma.getInstrM() * mma.getInstrN() / 64;
}

/// The registers of a product's result (of tile `type`): the instructions'
/// accumulators `accs`, equally long, concatenated in register order.
static Value concatenate(OpBuilder &b, Location loc, RankedTensorType type,
                         ArrayRef<Value> accs) {
  Value result =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(registerType(type)));
  for (auto [i, acc] : llvm::enumerate(accs)) {
    int64_t size = cast<VectorType>(acc.getType()).getNumElements();
    result = vector::InsertStridedSliceOp::create(
        b, loc, acc, result, ArrayRef<int64_t>{static_cast<int64_t>(i) * size},
        ArrayRef<int64_t>{1});
  }
  return result;
}

namespace {
struct DotLowering : GpuOpLowering<tile::DotOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mma = dyn_cast_if_present<MmaAttr>(op.getType().getEncoding());
    auto lhsLayout = dyn_cast_if_present<DotOperandAttr>(
        op.getLhs().getType().getEncoding());
    auto rhsLayout = dyn_cast_if_present<DotOperandAttr>(
        op.getRhs().getType().getEncoding());
    if (!mma || !lhsLayout || !rhsLayout || lhsLayout.getParent() != mma ||
        rhsLayout.getParent() != mma || lhsLayout.getOpIdx() != 0 ||
        rhsLayout.getOpIdx() != 1)
      return op.emitOpError("needs a matrix-core result layout and the "
                            "matching operand layouts");
    if (mma.getKind() == MmaKind::wgmma)
      return op.emitOpError("is a warpgroup product, whose operands are read "
                            "from shared memory: run tilegpu-warpgroup-dots");
    Type element = op.getLhs().getType().getElementType();
    if (!state.target.hasMma(mma, element))
      return op.emitOpError()
             << state.target.chip().name << " has no "
             << stringifyMmaKind(mma.getKind()) << " instruction of "
             << mma.getInstrM() << "x" << mma.getInstrN() << "x"
             << mma.getInstrK() << " for " << element << " operands";
    Location loc = op.getLoc();
    LaneMap aMap = getLaneMap(op.getLhs().getType());
    LaneMap bMap = getLaneMap(op.getRhs().getType());
    LaneMap dMap = getLaneMap(op.getType());
    RegisterBlocks a =
        blocksOf(aMap, /*innerDim=*/1, instructionRegisters(mma, 0));
    RegisterBlocks b =
        blocksOf(bMap, /*innerDim=*/0, instructionRegisters(mma, 1));
    RegisterBlocks d =
        blocksOf(dMap, /*innerDim=*/1, instructionRegisters(mma, 2));
    if (a.inner != b.inner || a.outer != d.outer || b.outer != d.inner)
      return op.emitOpError("operand layouts do not match the result's "
                            "instruction blocks");

    bool splitK = mma.getWarpsK() > 1;
    SmallVector<Value> accs;
    for (int64_t mi = 0; mi < d.outer; ++mi) {
      for (int64_t ni = 0; ni < d.inner; ++ni) {
        Value acc =
            splitK ? arith::ConstantOp::create(
                         rewriter, loc,
                         rewriter.getZeroAttr(VectorType::get(
                             {d.perInstr}, rewriter.getF32Type())))
                   : getRegisters(rewriter, loc, adaptor.getAcc(),
                                  (mi * d.inner + ni) * d.perInstr, d.perInstr);
        for (int64_t k = 0; k < a.inner; ++k) {
          Value av = getRegisters(rewriter, loc, adaptor.getLhs(),
                                  (mi * a.inner + k) * a.perInstr, a.perInstr);
          Value bv = getRegisters(rewriter, loc, adaptor.getRhs(),
                                  (ni * b.inner + k) * b.perInstr, b.perInstr);
          acc = state.target.mma(rewriter, loc, mma, av, bv, acc);
        }
        accs.push_back(acc);
      }
    }
    Value result = concatenate(rewriter, loc, op.getType(), accs);
    if (splitK)
      result = arith::AddFOp::create(
          rewriter, loc,
          sumKGroups(rewriter, loc, mma, state.idsFor(op), result),
          adaptor.getAcc());
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Sums the K groups' partial results through LDS scratch in two
  /// phases, so that each value crosses LDS about twice instead of once
  /// per group: every warp writes its partial result; the groups share the
  /// registers out, each summing its share over all groups and writing the
  /// sum over its own partial; and every warp reads all the sums. Scratch
  /// is laid out (warp, register, lane): each register a conflict-free row.
  /// (16-byte accesses of 4 registers at once made ptxas spill in sm_90's
  /// 16-row attention kernels.) A warp's peers in the other groups hold
  /// the same rows and columns: the warp digits below the top one (the
  /// result's lane map).
  Value sumKGroups(OpBuilder &b, Location loc, MmaAttr mma,
                   const KernelIds &ids, Value partial) const {
    auto type = cast<VectorType>(partial.getType());
    int64_t registers = type.getNumElements(), waveSize = state.waveSize();
    int64_t groups = mma.getWarpsK();
    int64_t groupWarps = mma.getWarpsPerCTA()[0] * mma.getWarpsPerCTA()[1];
    auto address = [&](Value warp, Value reg) {
      Value row = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, warp, indexConst(b, loc, registers)),
          reg);
      Value slot = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, row, indexConst(b, loc, waveSize)),
          ids.lane);
      return ldsAddress(
          b, loc, ids,
          toI32(b, loc,
                arith::MulIOp::create(b, loc, slot, indexConst(b, loc, 4))));
    };
    auto store = [&](Value value, Value warp, Value reg) {
      LLVM::StoreOp::create(b, loc, value, address(warp, reg), 4);
    };
    auto load = [&](Value warp, Value reg) -> Value {
      return LLVM::LoadOp::create(b, loc, b.getF32Type(), address(warp, reg),
                                  4);
    };
    Value own = arith::RemUIOp::create(b, loc, ids.warp,
                                       indexConst(b, loc, groupWarps));
    auto peer = [&](int64_t group) -> Value {
      return arith::AddIOp::create(b, loc, own,
                                   indexConst(b, loc, group * groupWarps));
    };

    state.target.barrier(b, loc);
    for (int64_t r = 0; r < registers; ++r)
      store(getRegister(b, loc, partial, r), ids.warp, indexConst(b, loc, r));
    state.target.barrier(b, loc);
    // Group g sums registers g, g + groups, ...: only it reads them, so it
    // may overwrite its own partial with the sum.
    Value group = arith::DivUIOp::create(b, loc, ids.warp,
                                         indexConst(b, loc, groupWarps));
    for (int64_t first = 0; first < registers; first += groups) {
      OpBuilder::InsertionGuard guard(b);
      Value reg =
          arith::AddIOp::create(b, loc, group, indexConst(b, loc, first));
      if (first + groups > registers) {
        // The last round leaves some groups without a register.
        Value some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           reg, indexConst(b, loc, registers));
        auto branch = scf::IfOp::create(b, loc, some, /*withElse=*/false);
        b.setInsertionPointToStart(&branch.getThenRegion().front());
      }
      Value sum;
      for (int64_t g = 0; g < groups; ++g) {
        Value v = load(peer(g), reg);
        sum = sum ? arith::AddFOp::create(b, loc, sum, v).getResult() : v;
      }
      store(sum, ids.warp, reg);
    }
    state.target.barrier(b, loc);
    SmallVector<Value> sums;
    for (int64_t r = 0; r < registers; ++r)
      sums.push_back(load(peer(r % groups), indexConst(b, loc, r)));
    return makeRegisters(b, loc, type, sums);
  }
};
} // namespace

namespace {
/// A product of two block-scaled fp4 operands on the chip's scaled
/// instruction: per instruction each lane gives 16 bytes (32 values of K)
/// of each operand and the E8M0 scale of those 32 values, as the operand
/// layouts, coarsened to bytes and to scale blocks, placed them.
struct DotScaledLowering : GpuOpLowering<tile::DotScaledOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::DotScaledOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mma = dyn_cast_if_present<MmaAttr>(op.getType().getEncoding());
    Type fp4 = rewriter.getType<Float4E2M1FNType>();
    if (!mma || !op.getLhsScale() || !op.getRhsScale())
      return op.emitOpError("needs a matrix-core result layout and two "
                            "scaled operands");
    if (mma.getWarpsK() > 1 || !state.target.hasMma(mma, fp4))
      return op.emitOpError()
             << state.target.chip().name << " has no scaled "
             << stringifyMmaKind(mma.getKind()) << " instruction of "
             << mma.getInstrM() << "x" << mma.getInstrN() << "x"
             << mma.getInstrK() << " for fp4 operands";
    Location loc = op.getLoc();
    int64_t bytes = mma.getKWidth() / 2;
    RegisterBlocks a = blocksOf(getLaneMap(op.getLhs().getType()),
                                /*innerDim=*/1, bytes);
    RegisterBlocks b = blocksOf(getLaneMap(op.getRhs().getType()),
                                /*innerDim=*/0, bytes);
    RegisterBlocks as = blocksOf(getLaneMap(op.getLhsScale().getType()),
                                 /*innerDim=*/1, 1);
    RegisterBlocks bs = blocksOf(getLaneMap(op.getRhsScale().getType()),
                                 /*innerDim=*/1, 1);
    RegisterBlocks d = blocksOf(getLaneMap(op.getType()), /*innerDim=*/1,
                                instructionRegisters(mma, 2));
    if (a.inner != b.inner || as.inner != a.inner || bs.inner != a.inner ||
        a.outer != d.outer || as.outer != d.outer || b.outer != d.inner ||
        bs.outer != d.inner)
      return op.emitOpError("operand layouts do not match the result's "
                            "instruction blocks");
    auto values = [&](Value registers, int64_t block) -> Value {
      Value packed =
          getRegisters(rewriter, loc, registers, block * bytes, bytes);
      return vector::BitCastOp::create(
          rewriter, loc, VectorType::get({2 * bytes}, fp4), packed);
    };
    SmallVector<Value> accs;
    for (int64_t mi = 0; mi < d.outer; ++mi) {
      for (int64_t ni = 0; ni < d.inner; ++ni) {
        Value acc = getRegisters(rewriter, loc, adaptor.getAcc(),
                                 (mi * d.inner + ni) * d.perInstr, d.perInstr);
        for (int64_t k = 0; k < a.inner; ++k) {
          Value av = values(adaptor.getLhs(), mi * a.inner + k);
          Value bv = values(adaptor.getRhs(), ni * b.inner + k);
          Value aScale = getRegister(rewriter, loc, adaptor.getLhsScale(),
                                     mi * a.inner + k);
          Value bScale = getRegister(rewriter, loc, adaptor.getRhsScale(),
                                     ni * b.inner + k);
          acc = state.target.scaledMma(rewriter, loc, mma, av, aScale, bv,
                                       bScale, acc);
        }
        accs.push_back(acc);
      }
    }
    rewriter.replaceOp(op, concatenate(rewriter, loc, op.getType(), accs));
    return success();
  }
};
} // namespace

namespace {
/// A warpgroup product: each warpgroup issues, for each 64 x n block of
/// the result it holds (the `wgmma` lane map's register blocks: columns,
/// then rows), one instruction per 16 of K, all between one fence and one
/// wait. The descriptors address the operand buffers at each block's
/// first row (column) and K step; the instructions apply the swizzle to
/// the address bits, so a K step inside a swizzle atom is a plain byte
/// offset.
struct WarpgroupDotLowering : GpuOpLowering<WarpgroupDotOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(WarpgroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto mma = cast<MmaAttr>(op.getType().getEncoding());
    Type element = op.getA().getType().getElementType();
    if (!state.target.hasMma(mma, element))
      return op.emitOpError()
             << state.target.chip().name << " has no warpgroup product for "
             << element << " operands";
    auto [aType, aOffsets] = resolveWindow(op.getA());
    auto [bType, bOffsets] = resolveWindow(op.getB());
    if (!aType || !bType)
      return op.emitOpError("reads a buffer that is neither a local_alloc "
                            "nor one buffer of a local_buffer");
    int64_t aAtom = aType.getLayout().getAtom();
    int64_t bAtom = bType.getLayout().getAtom();
    bool bMnMajor = !op.getRhsTransposed();
    if (!aAtom || !bAtom || aType.getLayout().getOrder()[0] != 1 ||
        bType.getLayout().getOrder()[0] != 1)
      return op.emitOpError("reads buffers that are not in a canonical "
                            "swizzled layout (tilegpu.shared with atoms)");
    const KernelIds &ids = state.idsFor(op);
    int64_t elementBytes = memoryBytes(element);
    ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
    int64_t instrN = mma.getInstrN(), m = op.getType().getDimSize(0),
            n = op.getType().getDimSize(1),
            k = op.getA().getType().getShape()[1];
    int64_t rowGroups = warps[0] / 4, colGroups = warps[1];
    int64_t rowBlocks = m / (64 * rowGroups),
            colBlocks = n / (instrN * colGroups);

    // This warp's warpgroup: column group first, then row group (the lane
    // map's warp digits above the warpgroup's own 4).
    Value group = arith::DivUIOp::create(rewriter, loc, ids.warp,
                                         indexConst(rewriter, loc, 4));
    Value colGroup = arith::RemUIOp::create(
        rewriter, loc, group, indexConst(rewriter, loc, colGroups));
    Value rowGroup = arith::DivUIOp::create(
        rewriter, loc, group, indexConst(rewriter, loc, colGroups));
    // Bytes from a buffer's element (r, c) to (r + dr, c) for a multiple
    // of 8 rows, and to (r, c + dc) for whole atoms: both linear.
    auto rowBytes = [&](MemDescType type, Value rows) {
      return arith::MulIOp::create(
          rewriter, loc, rows,
          indexConst(rewriter, loc, sharedByteOffset(type, {1, 0})));
    };
    auto atomBytes = [&](MemDescType type, Value cols) {
      int64_t atom = type.getLayout().getAtom();
      return arith::MulIOp::create(
          rewriter, loc,
          arith::DivUIOp::create(rewriter, loc, cols,
                                 indexConst(rewriter, loc, atom)),
          indexConst(rewriter, loc, sharedByteOffset(type, {0, atom})));
    };
    auto matrix = [&](Value buffer, MemDescType type, ArrayRef<int64_t> offsets,
                      Value dynRow, Value dynCol, int64_t row, int64_t col,
                      bool mnMajor) {
      // The dynamic parts are whole 64-row (row) or instrN-column blocks.
      int64_t atom = type.getLayout().getAtom();
      Value bytes = arith::AddIOp::create(rewriter, loc, rowBytes(type, dynRow),
                                          atomBytes(type, dynCol));
      bytes = arith::AddIOp::create(
          rewriter, loc, bytes,
          indexConst(
              rewriter, loc,
              sharedByteOffset(type, {row + offsets[0], col + offsets[1]})));
      GpuTarget::SharedMatrix matrix;
      matrix.address =
          ldsAddress(rewriter, loc, ids,
                     arith::AddIOp::create(rewriter, loc, buffer,
                                           toI32(rewriter, loc, bytes)));
      matrix.swizzleBytes = atom * elementBytes;
      matrix.strideBytes = sharedByteOffset(type, {8, 0});
      matrix.leadingBytes = sharedByteOffset(type, {0, atom});
      matrix.mnMajor = mnMajor;
      return matrix;
    };
    if ((bMnMajor && (bOffsets[1] % bAtom != 0 || instrN % bAtom != 0)) ||
        (!bMnMajor && bOffsets[0] % 8 != 0) || aOffsets[0] % 8 != 0)
      return op.emitOpError("reads a window that does not start on whole "
                            "8-row groups and atoms, or an N-major right "
                            "operand in instructions narrower than its atoms");

    Value aBuffer = adaptor.getA(), bBuffer = adaptor.getB();
    int64_t perInstr = instrN / 2;
    SmallVector<Value> accs;
    state.target.beginWarpgroupProduct(rewriter, loc);
    for (int64_t mi = 0; mi < rowBlocks; ++mi) {
      // Rows 64 * (rowGroup + rowGroups * mi) of A and of the result.
      Value rows = arith::MulIOp::create(rewriter, loc, rowGroup,
                                         indexConst(rewriter, loc, 64));
      for (int64_t ni = 0; ni < colBlocks; ++ni) {
        Value cols = arith::MulIOp::create(rewriter, loc, colGroup,
                                           indexConst(rewriter, loc, instrN));
        int64_t row0 = 64 * rowGroups * mi, col0 = instrN * colGroups * ni;
        Value acc = getRegisters(rewriter, loc, adaptor.getAcc(),
                                 (mi * colBlocks + ni) * perInstr, perInstr);
        for (int64_t k0 = 0; k0 < k; k0 += 16) {
          GpuTarget::SharedMatrix a =
              matrix(aBuffer, aType, aOffsets, rows,
                     indexConst(rewriter, loc, 0), row0, k0, false);
          GpuTarget::SharedMatrix bm =
              bMnMajor
                  ? matrix(bBuffer, bType, bOffsets,
                           indexConst(rewriter, loc, 0), cols, k0, col0, true)
                  : matrix(bBuffer, bType, bOffsets, cols,
                           indexConst(rewriter, loc, 0), col0, k0, false);
          acc = state.target.warpgroupMma(rewriter, loc, mma, element, a, bm,
                                          acc);
        }
        accs.push_back(acc);
      }
    }
    state.target.endWarpgroupProduct(rewriter, loc, /*wait=*/!op.getAsync());
    Value result = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(registerType(op.getType())));
    for (auto [i, acc] : llvm::enumerate(accs))
      result = vector::InsertStridedSliceOp::create(
          rewriter, loc, acc, result,
          ArrayRef<int64_t>{static_cast<int64_t>(i) * perInstr},
          ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Waits for async products (the target's waitForWarpgroupProducts).
struct WarpgroupWaitLowering : GpuOpLowering<WarpgroupWaitOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(WarpgroupWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, state.target.waitForWarpgroupProducts(
                rewriter, op.getLoc(), op.getPending(), adaptor.getValue()));
    return success();
  }
};
} // namespace

void mla::gpu::populateDotPatterns(GpuTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state) {
  patterns.add<DotLowering, DotScaledLowering, WarpgroupDotLowering,
               WarpgroupWaitLowering>(converter, patterns.getContext(), state);
}
