//===- Build.cpp - Splats, ranges, broadcasts, transposes, slices ---------===//
//
// None of these move data between lanes: the layouts chosen for them put
// each element a lane needs in that lane already (a broadcast's input is
// the slice of its result's layout, a transpose's result the permuted map
// of its input's), so they only pick registers.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <map>

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

/// For each register of `to`, the register of `from` whose register digits
/// reach `coordsOf(toRegister)`, or failure.
static FailureOr<SmallVector<int64_t>>
pickRegisters(const LaneMap &from, const LaneMap &to,
              function_ref<SmallVector<int64_t>(int64_t)> coordsOf) {
  std::map<SmallVector<int64_t>, int64_t> byCoords;
  for (int64_t r = 0; r < from.numRegisters(); ++r)
    byCoords.emplace(from.partialCoords(HwDim::Register, r), r);
  SmallVector<int64_t> result;
  for (int64_t r = 0; r < to.numRegisters(); ++r) {
    auto it = byCoords.find(coordsOf(r));
    if (it == byCoords.end())
      return failure();
    result.push_back(it->second);
  }
  return result;
}

static Value shuffle(OpBuilder &b, Location loc, Value regs,
                     ArrayRef<int64_t> picks) {
  auto type = cast<VectorType>(regs.getType());
  bool identity = static_cast<int64_t>(picks.size()) == type.getNumElements();
  for (auto [i, p] : llvm::enumerate(picks))
    identity &= static_cast<int64_t>(i) == p;
  if (identity)
    return regs;
  return vector::ShuffleOp::create(b, loc, regs, regs, picks);
}

/// `coords` moved by `offsets`.
static SmallVector<int64_t> offsetBy(SmallVector<int64_t> coords,
                                     ArrayRef<int64_t> offsets) {
  for (auto [c, o] : llvm::zip(coords, offsets))
    c += o;
  return coords;
}

/// Whether the slice `op`, between tiles laid out as `from` and `to`, is
/// static and unit-stride and keeps each element in its lane and warp, so
/// that it only picks registers; emits the error otherwise.
template <typename SliceOp>
static LogicalResult checkRegisterSlice(SliceOp op, const LaneMap &from,
                                        const LaneMap &to) {
  if (!op.hasUnitStride() || ShapedType::isDynamicShape(op.getStaticOffsets()))
    return op.emitOpError("only static unit-stride slices of tiles are "
                          "supported on GPU targets");
  SmallVector<LaneFactor> fromLanes, toLanes;
  for (HwDim hw : {HwDim::Lane, HwDim::Warp}) {
    llvm::append_range(fromLanes, from.factorsOf(hw));
    llvm::append_range(toLanes, to.factorsOf(hw));
  }
  if (fromLanes != toLanes)
    return op.emitOpError("slice crosses lanes of the tile's layout");
  return success();
}

namespace {
struct SplatLowering : GpuOpLowering<tile::SplatOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getLayout(op.getType()))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
        op, registerType(op.getType()), adaptor.getValue());
    return success();
  }
};

struct ConstantLowering : GpuOpLowering<arith::ConstantOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!type || !getLayout(type))
      return rewriter.notifyMatchFailure(op, "not a tile constant");
    if (!splat)
      return op.emitOpError(
          "tile constants must be splats on GPU targets; build other tiles "
          "with tile.range and arithmetic");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, SplatElementsAttr::get(registerType(type),
                                   splat.getSplatValue<Attribute>()));
    return success();
  }
};

struct RangeLowering : GpuOpLowering<tile::RangeOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (!getLayout(type))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    Location loc = op.getLoc();
    LaneMap map = getLaneMap(type);
    Type element = type.getElementType();
    auto cast = [&](Value index) -> Value {
      if (element.isIndex())
        return index;
      return arith::IndexCastOp::create(rewriter, loc, element, index);
    };
    // start + lane/warp part, plus each register's static offset.
    Value base = laneWarpCoords(rewriter, loc, map, state.idsFor(op)).front();
    base = cast(base);
    if (Value start = adaptor.getStart())
      base = arith::AddIOp::create(rewriter, loc, base, start);
    VectorType vecType = registerType(type);
    SmallVector<Attribute> offsets;
    for (int64_t r = 0; r < map.numRegisters(); ++r)
      offsets.push_back(IntegerAttr::get(
          element, map.partialCoords(HwDim::Register, r).front()));
    Value steps = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(vecType, offsets));
    Value splat = vector::BroadcastOp::create(rewriter, loc, vecType, base);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, splat, steps);
    return success();
  }
};

struct BroadcastLowering : GpuOpLowering<tile::BroadcastOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType in = op.getInput().getType(), out = op.getType();
    if (!getLayout(in) || !getLayout(out))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    LaneMap from = getLaneMap(in), to = getLaneMap(out);
    ArrayRef<int64_t> dims = op.getDims();
    LaneMap expected = to;
    for (int64_t d : llvm::reverse(dims))
      expected = expected.reduced(d);
    if (expected.factorsOf(HwDim::Lane) != from.factorsOf(HwDim::Lane) ||
        expected.factorsOf(HwDim::Warp) != from.factorsOf(HwDim::Warp))
      return op.emitOpError("input layout is not a slice of the result's");
    FailureOr<SmallVector<int64_t>> picks =
        pickRegisters(from, to, [&](int64_t r) {
          SmallVector<int64_t> c = to.partialCoords(HwDim::Register, r);
          SmallVector<int64_t> kept;
          for (auto [d, v] : llvm::enumerate(c))
            if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
              kept.push_back(v);
          return kept;
        });
    if (failed(picks))
      return op.emitOpError("input layout is not a slice of the result's");
    rewriter.replaceOp(
        op, shuffle(rewriter, op.getLoc(), adaptor.getInput(), *picks));
    return success();
  }
};

struct TransLowering : GpuOpLowering<tile::TransOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tile::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType in = op.getInput().getType(), out = op.getType();
    if (!getLayout(in) || !getLayout(out))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    LaneMap from = getLaneMap(in).permuted({1, 0}), to = getLaneMap(out);
    if (!from.sameLanesAndWarps(to))
      return op.emitOpError("result layout is not the transposed input "
                            "layout; convert the input first");
    FailureOr<SmallVector<int64_t>> picks =
        pickRegisters(from, to, [&](int64_t r) {
          return to.partialCoords(HwDim::Register, r);
        });
    if (failed(picks))
      return op.emitOpError("result layout is not the transposed input layout");
    rewriter.replaceOp(
        op, shuffle(rewriter, op.getLoc(), adaptor.getInput(), *picks));
    return success();
  }
};

/// A static slice that the layout keeps in the same lanes: registers only.
struct ExtractSliceLowering : GpuOpLowering<tensor::ExtractSliceOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tensor::ExtractSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType in = op.getSourceType(), out = op.getResultType();
    if (!getLayout(in) || !getLayout(out))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    LaneMap from = getLaneMap(in), to = getLaneMap(out);
    if (failed(checkRegisterSlice(op, from, to)))
      return failure();
    ArrayRef<int64_t> offsets = op.getStaticOffsets();
    FailureOr<SmallVector<int64_t>> picks =
        pickRegisters(from, to, [&](int64_t r) {
          return offsetBy(to.partialCoords(HwDim::Register, r), offsets);
        });
    if (failed(picks))
      return op.emitOpError("slice crosses lanes of the tile's layout");
    rewriter.replaceOp(
        op, shuffle(rewriter, op.getLoc(), adaptor.getSource(), *picks));
    return success();
  }
};
/// A static window written into a tile that the layout keeps in the same
/// lanes: the window's registers replace the destination's.
struct InsertSliceLowering : GpuOpLowering<tensor::InsertSliceOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tensor::InsertSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSourceType(), dest = op.getDestType();
    if (!getLayout(src) || !getLayout(dest))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    LaneMap from = getLaneMap(src), to = getLaneMap(dest);
    if (failed(checkRegisterSlice(op, from, to)))
      return failure();
    ArrayRef<int64_t> offsets = op.getStaticOffsets();
    // For each destination register, the window register that replaces it.
    std::map<SmallVector<int64_t>, int64_t> window;
    for (int64_t r = 0; r < from.numRegisters(); ++r)
      window.emplace(offsetBy(from.partialCoords(HwDim::Register, r), offsets),
                     r);
    int64_t destCount = to.numRegisters();
    SmallVector<int64_t> picks;
    int64_t replaced = 0;
    for (int64_t r = 0; r < destCount; ++r) {
      auto it = window.find(to.partialCoords(HwDim::Register, r));
      if (it == window.end()) {
        picks.push_back(r);
        continue;
      }
      picks.push_back(destCount + it->second);
      ++replaced;
    }
    if (replaced != from.numRegisters())
      return op.emitOpError("slice crosses lanes of the tile's layout");
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getDest(),
                                                   adaptor.getSource(), picks);
    return success();
  }
};
/// One element of a tile that every lane holds, such as a reduction's
/// result: the register holding it. An element only some lanes hold would
/// need a broadcast between lanes, which no program has needed yet.
struct ExtractLowering : GpuOpLowering<tensor::ExtractOp> {
  using GpuOpLowering::GpuOpLowering;
  LogicalResult
  matchAndRewrite(tensor::ExtractOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getTensor().getType();
    if (!getLayout(type))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    SmallVector<int64_t> coords;
    for (Value index : op.getIndices()) {
      std::optional<int64_t> c = getConstantIntValue(index);
      if (!c)
        return op.emitOpError("on GPU targets the element of a tile must be "
                              "chosen by constant indices");
      coords.push_back(*c);
    }
    LaneMap map = getLaneMap(type);
    auto replicated = [](const LaneFactor &f) { return f.isReplicated(); };
    if (!llvm::all_of(map.factorsOf(HwDim::Lane), replicated) ||
        !llvm::all_of(map.factorsOf(HwDim::Warp), replicated))
      return op.emitOpError("on GPU targets an element must be extracted "
                            "from a tile every lane holds whole (e.g. a "
                            "reduction's result); ")
             << type << " is spread over lanes (" << map.str() << ")";
    for (int64_t r = 0; r < map.numRegisters(); ++r)
      if (map.partialCoords(HwDim::Register, r) == coords) {
        rewriter.replaceOp(
            op, getRegister(rewriter, op.getLoc(), adaptor.getTensor(), r));
        return success();
      }
    return op.emitOpError("no register holds the element");
  }
};
} // namespace

void mla::gpu::populateBuildPatterns(GpuTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     LoweringState &state) {
  patterns.add<SplatLowering, ConstantLowering, BroadcastLowering,
               TransLowering, ExtractLowering, ExtractSliceLowering,
               InsertSliceLowering, RangeLowering>(
      converter, patterns.getContext(), state);
}
