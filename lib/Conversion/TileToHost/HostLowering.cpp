//===- HostLowering.cpp - Types and helpers of the host lowering ----------===//

#include "HostLowering.h"
#include "mla/Conversion/Utils/FloatDecode.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mla;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

Value host::emptyTile(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value host::zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

//===----------------------------------------------------------------------===//
// HostTypeConverter
//===----------------------------------------------------------------------===//

HostTypeConverter::HostTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](tile::PtrType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  addConversion([](tile::ViewType type, SmallVectorImpl<Type> &results) {
    MLIRContext *ctx = type.getContext();
    results.push_back(LLVM::LLVMPointerType::get(ctx));
    results.append(2 * type.getRank(), IndexType::get(ctx));
    return success();
  });
}

Value host::decodeNarrowTile(OpBuilder &b, Location loc, Value tile,
                             Value scale, Type resultElement) {
  auto type = cast<RankedTensorType>(tile.getType());
  auto format = cast<FloatType>(type.getElementType());
  auto resultType = RankedTensorType::get(type.getShape(), resultElement);
  return tensor::GenerateOp::create(
      b, loc, resultType, ValueRange{},
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        Value element = tensor::ExtractOp::create(b, loc, tile, ivs);
        Value value =
            decodeNarrowFloat(b, loc, bitsOf(b, loc, element), format);
        if (scale)
          value = arith::MulFOp::create(b, loc, value, scale);
        tensor::YieldOp::create(b, loc, fromF32(b, loc, value, resultElement));
      });
}
