//===- Dot.cpp - Tile products on matrix cores ----------------------------===//
//
// The operands are in the operand layouts of the result's matrix-core
// layout, so each lane already holds, contiguously, the registers of every
// instruction it takes part in: for each (row block, column block) of its
// warp's part of the result, one instruction per K step.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

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

namespace {
struct DotLowering : OpConversionPattern<tile::DotOp> {
  DotLowering(GpuTypeConverter &converter, MLIRContext *ctx,
              LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

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
    RegisterBlocks a = blocksOf(aMap, /*innerDim=*/1, instructionRegisters(mma, 0));
    RegisterBlocks b = blocksOf(bMap, /*innerDim=*/0, instructionRegisters(mma, 1));
    RegisterBlocks d = blocksOf(dMap, /*innerDim=*/1, instructionRegisters(mma, 2));
    if (a.inner != b.inner || a.outer != d.outer || b.outer != d.inner)
      return op.emitOpError("operand layouts do not match the result's "
                            "instruction blocks");

    SmallVector<Value> accs;
    for (int64_t mi = 0; mi < d.outer; ++mi) {
      for (int64_t ni = 0; ni < d.inner; ++ni) {
        Value acc = getRegisters(rewriter, loc, adaptor.getAcc(),
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
    // Concatenate the accumulators in register order.
    Value result = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(registerType(op.getType())));
    for (auto [i, acc] : llvm::enumerate(accs))
      result = vector::InsertStridedSliceOp::create(
          rewriter, loc, acc, result,
          ArrayRef<int64_t>{static_cast<int64_t>(i) * d.perInstr},
          ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, result);
    return success();
  }
  LoweringState &state;
};
} // namespace

void mla::gpu::populateDotPatterns(GpuTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state) {
  patterns.add<DotLowering>(converter, patterns.getContext(), state);
}
