//===- Dequant.cpp - fp8 and MX dequantization in registers ---------------===//
//
// Each element is decoded by the target (GpuTarget::decodeFp8,
// decodeFp8PairToBF16 and decodeScaledFp4Pair): with the chip's conversion
// instructions where it has them, two bytes at a time where one converts a
// pair, with exact integer arithmetic otherwise. The problem's fp8 is
// OCP e4m3 on every chip, gfx942 (whose instructions read FNUZ) included.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Conversion/Utils/FloatDecode.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

namespace {
/// A lane's registers of 8-bit elements as the 32-bit words the conversion
/// instructions read: register r is byte r % 4 of word r / 4 when the
/// registers fill whole words, else the low byte of a word of its own.
class ByteRegisters {
public:
  ByteRegisters(OpBuilder &b, Location loc, Value regs) : regs(regs) {
    int64_t n = cast<VectorType>(regs.getType()).getNumElements();
    if (n % 4 == 0)
      words = vector::BitCastOp::create(
          b, loc, VectorType::get({n / 4}, b.getI32Type()), regs);
  }

  /// Whether registers 4k .. 4k + 3 are the bytes of word k.
  bool inWords() const { return bool(words); }

  /// The word holding register `r`, and its byte there.
  std::pair<Value, unsigned> byteOf(OpBuilder &b, Location loc,
                                    int64_t r) const {
    if (words)
      return {getRegister(b, loc, words, r / 4), unsigned(r % 4)};
    Value bits = bitsOf(b, loc, getRegister(b, loc, regs, r));
    return {arith::ExtUIOp::create(b, loc, b.getI32Type(), bits), 0};
  }

private:
  Value regs;
  Value words;
};
} // namespace

namespace {
struct DequantFp8Lowering : GpuOpLowering<tile::DequantFp8Op> {
  using GpuOpLowering::GpuOpLowering;
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
    ByteRegisters input(rewriter, loc, adaptor.getInput());
    SmallVector<Value> elements;
    // Unscaled, every fp8 value is a bf16 value: no rounding to do.
    Type element = type.getElementType();
    bool unscaled = matchPattern(adaptor.getScale(), m_OneFloat());
    bool bf16Pairs = unscaled && element.isBF16() && input.inWords();
    for (int64_t r = 0; r < vecType.getNumElements(); ++r) {
      auto [word, byte] = input.byteOf(rewriter, loc, r);
      if (bf16Pairs && byte % 2 == 0) {
        if (Value pair = state.target.decodeFp8PairToBF16(rewriter, loc, word,
                                                          byte / 2, format)) {
          for (int64_t i = 0; i < 2; ++i)
            elements.push_back(
                vector::ExtractOp::create(rewriter, loc, pair, i));
          ++r;
          continue;
        }
      }
      Value value = state.target.decodeFp8(rewriter, loc, word, byte, format);
      if (unscaled && element.isBF16()) {
        elements.push_back(exactF32ToBF16(rewriter, loc, value));
        continue;
      }
      if (!unscaled)
        value = arith::MulFOp::create(rewriter, loc, value, adaptor.getScale());
      elements.push_back(fromF32(rewriter, loc, value, element));
    }
    rewriter.replaceOp(op, makeRegisters(rewriter, loc, vecType, elements));
    return success();
  }
};

/// Each result register's element is expanded from the packed register and
/// the scale register that hold its value in the same lane (the layouts
/// were chosen that way).
struct DequantMxLowering : GpuOpLowering<tile::DequantMxOp> {
  using GpuOpLowering::GpuOpLowering;
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
    // The parity of an element's column picks its nibble. Lanes and warps
    // may add to the column; where they add even columns only, the parity
    // is the register's own. Both nibbles of a byte are decoded together,
    // once.
    bool evenLaneColumns = llvm::all_of(map.getFactors(), [&](auto &f) {
      return f.hw == HwDim::Register || f.dim != last || f.stride % 2 == 0;
    });
    Value laneColumn =
        fp4 && !evenLaneColumns
            ? laneWarpCoords(rewriter, loc, map, state.idsFor(op))[last]
            : Value();
    const GpuTarget &target = state.target;
    Type element = type.getElementType();
    llvm::DenseMap<std::pair<int64_t, int64_t>, std::pair<Value, Value>>
        fp4Pairs;
    VectorType vecType = registerType(type);
    ByteRegisters packed(rewriter, loc, adaptor.getPacked());
    SmallVector<Value> elements;
    for (int64_t r = 0; r < map.numRegisters(); ++r) {
      SmallVector<int64_t> c = map.partialCoords(HwDim::Register, r);
      SmallVector<int64_t> packedCoords(c), scaleCoords(c);
      if (fp4)
        packedCoords[last] /= 2;
      scaleCoords[last] /= 32;
      int64_t packedReg = registerOf(*packedMap, packedCoords);
      int64_t scaleReg = registerOf(*scalesMap, scaleCoords);
      Value scale =
          bitsOf(rewriter, loc,
                 getRegister(rewriter, loc, adaptor.getScales(), scaleReg));
      auto [word, byte] = packed.byteOf(rewriter, loc, packedReg);
      if (!fp4) {
        Value value = target.decodeFp8(rewriter, loc, word, byte,
                                       cast<FloatType>(inElement));
        value = arith::MulFOp::create(rewriter, loc, value,
                                      decodeE8M0(rewriter, loc, scale));
        elements.push_back(fromF32(rewriter, loc, value, element));
        continue;
      }
      auto [it, inserted] = fp4Pairs.try_emplace({packedReg, scaleReg});
      if (inserted)
        it->second = target.decodeScaledFp4Pair(rewriter, loc, word, byte,
                                                scale, element);
      auto [low, high] = it->second;
      if (!laneColumn) {
        elements.push_back(c[last] % 2 ? high : low);
        continue;
      }
      Value column = arith::AddIOp::create(rewriter, loc, laneColumn,
                                           indexConst(rewriter, loc, c[last]));
      Value odd = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne,
          arith::RemUIOp::create(rewriter, loc, column,
                                 indexConst(rewriter, loc, 2)),
          indexConst(rewriter, loc, 0));
      elements.push_back(
          arith::SelectOp::create(rewriter, loc, odd, high, low));
    }
    rewriter.replaceOp(op, makeRegisters(rewriter, loc, vecType, elements));
    return success();
  }
};
} // namespace

void mla::gpu::populateDequantPatterns(GpuTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       LoweringState &state) {
  patterns.add<DequantFp8Lowering, DequantMxLowering>(
      converter, patterns.getContext(), state);
}
