//===- TileTypes.cpp - Deriving tile types from operand types -------------===//

#include "mla/Dialect/Tile/IR/TileTypes.h"

using namespace mlir;
using namespace mla::tile;

#include "mla/Dialect/Tile/IR/TileInterfaces.cpp.inc"

/// The encoding `type`'s encoding gives through `query`, or the encoding
/// itself where it has no opinion.
static Attribute deriveEncoding(
    RankedTensorType type,
    function_ref<FailureOr<Attribute>(TileEncodingAttrInterface)> query) {
  Attribute encoding = type.getEncoding();
  if (auto iface = dyn_cast_if_present<TileEncodingAttrInterface>(encoding)) {
    FailureOr<Attribute> derived = query(iface);
    if (succeeded(derived))
      return *derived;
  }
  return encoding;
}

RankedTensorType mla::tile::getReducedType(RankedTensorType type, int64_t dim) {
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + dim);
  return RankedTensorType::get(
      shape, type.getElementType(),
      deriveEncoding(type, [&](TileEncodingAttrInterface encoding) {
        return encoding.getReducedEncoding(dim);
      }));
}

RankedTensorType mla::tile::getTransposedType(RankedTensorType type) {
  return RankedTensorType::get(
      {type.getDimSize(1), type.getDimSize(0)}, type.getElementType(),
      deriveEncoding(type, [](TileEncodingAttrInterface encoding) {
        return encoding.getTransposedEncoding();
      }));
}

RankedTensorType mla::tile::getBroadcastType(RankedTensorType input,
                                             ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> newDims) {
  return RankedTensorType::get(
      shape, input.getElementType(),
      deriveEncoding(input, [&](TileEncodingAttrInterface encoding) {
        return encoding.getBroadcastEncoding(newDims, shape);
      }));
}

RankedTensorType mla::tile::getTileLike(RankedTensorType like,
                                        ArrayRef<int64_t> shape,
                                        Type elementType) {
  return RankedTensorType::get(shape, elementType, like.getEncoding());
}

Type mla::tile::getRowStateType(Type accType) {
  auto acc = dyn_cast<RankedTensorType>(accType);
  if (!acc || acc.getRank() < 1)
    return accType;
  return getReducedType(acc, acc.getRank() - 1)
      .clone(Float32Type::get(accType.getContext()));
}

Type mla::tile::getSplitStateType(Type partialType) {
  auto partial = dyn_cast<RankedTensorType>(partialType);
  if (!partial || partial.getRank() < 1)
    return partialType;
  return getReducedType(partial, partial.getRank() - 1)
      .clone(Float32Type::get(partialType.getContext()));
}
