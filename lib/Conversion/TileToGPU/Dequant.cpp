//===- Dequant.cpp - fp8 and MX dequantization in registers ---------------===//
//
// The narrow formats are decoded exactly with integer arithmetic (shared
// with the host target), so the problem's OCP fp8 means the same on every
// chip, including gfx942 whose fp8 instructions read FNUZ.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Conversion/Utils/FloatDecode.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

/// The storage bits of a narrow-float element.
static Value bitsOf(OpBuilder &b, Location loc, Value element) {
  unsigned width = element.getType().getIntOrFloatBitWidth();
  return arith::BitcastOp::create(b, loc, b.getIntegerType(width), element);
}

static Value fromF32(OpBuilder &b, Location loc, Value value, Type type) {
  if (type.isF32())
    return value;
  return arith::TruncFOp::create(b, loc, type, value);
}

namespace {
struct DequantFp8Lowering : OpConversionPattern<tile::DequantFp8Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::DequantFp8Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (!getLayout(type))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    auto format = cast<FloatType>(op.getInput().getType().getElementType());
    if (!isDecodableNarrowFloat(format))
      return op.emitOpError("unsupported element format");
    Location loc = op.getLoc();
    VectorType vecType = registerType(type);
    SmallVector<Value> elements;
    for (int64_t r = 0; r < vecType.getNumElements(); ++r) {
      Value element = getRegister(rewriter, loc, adaptor.getInput(), r);
      Value value =
          decodeNarrowFloat(rewriter, loc, bitsOf(rewriter, loc, element),
                            format);
      value = arith::MulFOp::create(rewriter, loc, value, adaptor.getScale());
      elements.push_back(fromF32(rewriter, loc, value, type.getElementType()));
    }
    rewriter.replaceOp(op, makeRegisters(rewriter, loc, vecType, elements));
    return success();
  }
};

/// Each result register's element is expanded from the packed register and
/// the scale register that hold its value in the same lane (the layouts
/// were chosen that way).
struct DequantMxLowering : OpConversionPattern<tile::DequantMxOp> {
  DequantMxLowering(GpuTypeConverter &converter, MLIRContext *ctx,
                    LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(tile::DequantMxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    RankedTensorType packedType = op.getPacked().getType();
    RankedTensorType scalesType = op.getScales().getType();
    if (!getLayout(type) || !getLayout(packedType) || !getLayout(scalesType))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    Location loc = op.getLoc();
    Type inElement = packedType.getElementType();
    bool fp4 = inElement.isInteger(8);
    LaneMap map = getLaneMap(type);
    int64_t last = type.getRank() - 1;
    FailureOr<LaneMap> packedMap = fp4 ? map.coarsened(last, 2) : map;
    FailureOr<LaneMap> scalesMap = map.coarsened(last, 32);
    if (failed(packedMap) || failed(scalesMap) ||
        *packedMap != getLaneMap(packedType) ||
        *scalesMap != getLaneMap(scalesType))
      return op.emitOpError("packed values and scales are not in the lanes "
                            "of their elements");
    auto registerOf = [](const LaneMap &of, ArrayRef<int64_t> coords) {
      for (int64_t r = 0; r < of.numRegisters(); ++r)
        if (of.partialCoords(HwDim::Register, r) == coords)
          return r;
      llvm_unreachable("coordinates held by no register");
    };
    // The parity of an element's column picks its nibble; lanes and warps
    // may add to the column.
    Value laneColumn =
        laneWarpCoords(rewriter, loc, map, state.idsFor(op))[last];
    auto fp4Type = Float4E2M1FNType::get(rewriter.getContext());
    VectorType vecType = registerType(type);
    SmallVector<Value> elements;
    for (int64_t r = 0; r < map.numRegisters(); ++r) {
      SmallVector<int64_t> c = map.partialCoords(HwDim::Register, r);
      SmallVector<int64_t> packedCoords(c), scaleCoords(c);
      if (fp4)
        packedCoords[last] /= 2;
      scaleCoords[last] /= 32;
      Value packed = getRegister(rewriter, loc, adaptor.getPacked(),
                                 registerOf(*packedMap, packedCoords));
      Value value;
      if (fp4) {
        Value column = arith::AddIOp::create(rewriter, loc, laneColumn,
                                             indexConst(rewriter, loc, c[last]));
        Value odd = arith::RemUIOp::create(rewriter, loc, column,
                                           indexConst(rewriter, loc, 2));
        Value shift = arith::IndexCastOp::create(
            rewriter, loc, rewriter.getI8Type(),
            arith::MulIOp::create(rewriter, loc, odd,
                                  indexConst(rewriter, loc, 4)));
        Value nibble = arith::ShRUIOp::create(rewriter, loc, packed, shift);
        value = decodeNarrowFloat(rewriter, loc, nibble, fp4Type);
      } else {
        value = decodeNarrowFloat(rewriter, loc,
                                  bitsOf(rewriter, loc, packed),
                                  cast<FloatType>(inElement));
      }
      Value scale = getRegister(rewriter, loc, adaptor.getScales(),
                                registerOf(*scalesMap, scaleCoords));
      value = arith::MulFOp::create(
          rewriter, loc, value,
          decodeE8M0(rewriter, loc, bitsOf(rewriter, loc, scale)));
      elements.push_back(fromF32(rewriter, loc, value, type.getElementType()));
    }
    rewriter.replaceOp(op, makeRegisters(rewriter, loc, vecType, elements));
    return success();
  }
  LoweringState &state;
};
} // namespace

void mla::gpu::populateDequantPatterns(GpuTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       LoweringState &state) {
  patterns.add<DequantFp8Lowering>(converter, patterns.getContext());
  patterns.add<DequantMxLowering>(converter, patterns.getContext(), state);
}
