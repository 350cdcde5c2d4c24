//===- Reduce.cpp - Reductions along one tile dimension -------------------===//
//
// In three steps, each only where the layout spreads the reduced dimension
// that way: registers of one lane, then lanes of one warp (a butterfly of
// xor shuffles, after which every lane of the group holds the result, as
// the slice layout says), then warps (through LDS scratch).
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

/// `FloatOp` of `x` and `y` on floats, `IntOp` on integers.
template <typename FloatOp, typename IntOp>
static Value floatOrInt(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(getElementTypeOrSelf(x.getType())))
    return FloatOp::create(b, loc, x, y);
  return IntOp::create(b, loc, x, y);
}

static Value combine(OpBuilder &b, Location loc, tile::ReduceKind kind, Value x,
                     Value y) {
  switch (kind) {
  case tile::ReduceKind::sum:
    return floatOrInt<arith::AddFOp, arith::AddIOp>(b, loc, x, y);
  case tile::ReduceKind::max:
    return floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(b, loc, x, y);
  case tile::ReduceKind::min:
    return floatOrInt<arith::MinimumFOp, arith::MinSIOp>(b, loc, x, y);
  // LLVM's own intrinsics: MLIR's NVVM patterns would turn arith.maxnumf
  // into a libdevice call.
  case tile::ReduceKind::maxnum:
    return floatOrInt<LLVM::MaxNumOp, arith::MaxSIOp>(b, loc, x, y);
  case tile::ReduceKind::minnum:
    return floatOrInt<LLVM::MinNumOp, arith::MinSIOp>(b, loc, x, y);
  }
  llvm_unreachable("unknown reduction");
}

/// The coordinates of `coords` without dimension `dim`.
static SmallVector<int64_t> dropDim(ArrayRef<int64_t> coords, int64_t dim) {
  SmallVector<int64_t> result(coords);
  result.erase(result.begin() + dim);
  return result;
}

namespace {
struct ReduceLowering : GpuOpLowering<tile::ReduceOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inType = op.getInput().getType(), outType = op.getType();
    if (!getLayout(inType) || !getLayout(outType))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    Type element = inType.getElementType();
    if (!element.isF32() && !element.isInteger(32))
      return op.emitOpError("reductions on GPU targets take f32 or i32 "
                            "tiles, got ")
             << element;
    Location loc = op.getLoc();
    int64_t dim = op.getDim();
    LaneMap in = getLaneMap(inType), out = getLaneMap(outType);
    if (in.reduced(dim) != out)
      return op.emitOpError("result layout is not the slice of the input's");

    // Registers of one lane.
    std::map<SmallVector<int64_t>, Value> partial;
    for (int64_t r = 0; r < in.numRegisters(); ++r) {
      SmallVector<int64_t> key =
          dropDim(in.partialCoords(HwDim::Register, r), dim);
      Value v = getRegister(rewriter, loc, adaptor.getInput(), r);
      auto [it, inserted] = partial.emplace(key, v);
      if (!inserted)
        it->second = combine(rewriter, loc, op.getKind(), it->second, v);
    }
    SmallVector<Value> values;
    for (int64_t r = 0; r < out.numRegisters(); ++r)
      values.push_back(partial.at(out.partialCoords(HwDim::Register, r)));

    // Lanes of one warp. When the reduced factor holds the lowest lane
    // bits, each step leaves the lanes that differ only below it equal.
    int64_t prefix = 1;
    for (const LaneFactor &f : in.factorsOf(HwDim::Lane)) {
      if (f.dim == dim)
        for (int64_t step = 1; step < f.size; step *= 2)
          for (Value &v : values)
            v = combine(rewriter, loc, op.getKind(), v,
                        state.target.shuffleXor(rewriter, loc, v, prefix * step,
                                                prefix == 1 ? step : 1));
      prefix *= f.size;
    }

    // Warps.
    const KernelIds &ids = state.idsFor(op);
    if (llvm::any_of(in.factorsOf(HwDim::Warp),
                     [&](const LaneFactor &f) { return f.dim == dim; }))
      reduceAcrossWarps(rewriter, loc, op, in, out, ids, values);

    rewriter.replaceOp(
        op, makeRegisters(rewriter, loc, registerType(outType), values));
    return success();
  }

  /// Every warp writes its partial results to LDS row `warp`; every lane
  /// then combines the rows of the warps that differ from its own only in
  /// digits of the reduced dimension.
  void reduceAcrossWarps(OpBuilder &b, Location loc, tile::ReduceOp op,
                         const LaneMap &in, const LaneMap &out,
                         const KernelIds &ids,
                         SmallVectorImpl<Value> &values) const {
    int64_t dim = op.getDim();
    int64_t elements = std::max<int64_t>(1, op.getType().getNumElements());
    int64_t bytes = memoryBytes(op.getType().getElementType());
    SmallVector<Value> base = laneWarpCoords(b, loc, out, ids);
    auto linear = [&](int64_t reg) {
      SmallVector<int64_t> c = out.partialCoords(HwDim::Register, reg);
      Value index = indexConst(b, loc, 0);
      for (auto [d, extent] : llvm::enumerate(out.getShape())) {
        index =
            arith::MulIOp::create(b, loc, index, indexConst(b, loc, extent));
        index = arith::AddIOp::create(
            b, loc, index,
            arith::AddIOp::create(b, loc, base[d], indexConst(b, loc, c[d])));
      }
      return index;
    };
    auto address = [&](Value warp, Value index) {
      Value slot = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, warp, indexConst(b, loc, elements)),
          index);
      Value offset =
          arith::MulIOp::create(b, loc, slot, indexConst(b, loc, bytes));
      return ldsAddress(b, loc, ids, toI32(b, loc, offset));
    };

    state.target.barrier(b, loc);
    for (int64_t r = 0; r < out.numRegisters(); ++r)
      if (out.isOwner(HwDim::Register, r))
        LLVM::StoreOp::create(b, loc, values[r], address(ids.warp, linear(r)),
                              bytes);
    state.target.barrier(b, loc);

    // The warps sharing this warp's other digits: its own id with the
    // reduced digits cleared, plus every combination of them.
    Value own = ids.warp;
    SmallVector<int64_t> steps = {0};
    int64_t prefix = 1;
    for (const LaneFactor &f : in.factorsOf(HwDim::Warp)) {
      if (f.dim == dim) {
        Value digit = arith::RemUIOp::create(
            b, loc,
            arith::DivUIOp::create(b, loc, ids.warp,
                                   indexConst(b, loc, prefix)),
            indexConst(b, loc, f.size));
        own = arith::SubIOp::create(
            b, loc, own,
            arith::MulIOp::create(b, loc, digit, indexConst(b, loc, prefix)));
        SmallVector<int64_t> next;
        for (int64_t s : steps)
          for (int64_t k = 0; k < f.size; ++k)
            next.push_back(s + k * prefix);
        steps = next;
      }
      prefix *= f.size;
    }
    for (int64_t r = 0; r < out.numRegisters(); ++r) {
      Value index = linear(r);
      Value total;
      for (int64_t s : steps) {
        Value warp = arith::AddIOp::create(b, loc, own, indexConst(b, loc, s));
        Value v = LLVM::LoadOp::create(b, loc, values[r].getType(),
                                       address(warp, index), bytes);
        total = total ? combine(b, loc, op.getKind(), total, v) : v;
      }
      values[r] = total;
    }
  }
};
} // namespace

void mla::gpu::populateReducePatterns(GpuTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  patterns.add<ReduceLowering>(converter, patterns.getContext(), state);
}
