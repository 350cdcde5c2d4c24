//===- TileTypes.cpp - Deriving tile types from operand types -------------===//

#include "mla/Dialect/Tile/IR/TileTypes.h"

#include "mlir/IR/AttrTypeSubElements.h"

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
  return RankedTensorType::get(shape, elementType, getLayout(like));
}

/// The f32 state kept per row of `type`: its last dimension reduced away.
static Type getLastDimStateType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() < 1)
    return type;
  return getReducedType(tensor, tensor.getRank() - 1)
      .clone(Float32Type::get(type.getContext()));
}

Type mla::tile::getRowStateType(Type accType) {
  return getLastDimStateType(accType);
}

Type mla::tile::getSplitStateType(Type partialType) {
  return getLastDimStateType(partialType);
}

//===----------------------------------------------------------------------===//
// Symbolic shapes and parameter-dependent types
//===----------------------------------------------------------------------===//

bool mla::tile::hasTileShape(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && (tensor.hasStaticShape() ||
                    isa_and_present<DimsAttr>(tensor.getEncoding()));
}

bool mla::tile::mayBeEqual(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::zip_equal(a, b), [](auto pair) {
           return mayBeEqual(std::get<0>(pair), std::get<1>(pair));
         });
}

Attribute mla::tile::getLayout(RankedTensorType type) {
  Attribute encoding = type.getEncoding();
  return isa_and_present<DimsAttr>(encoding) ? Attribute() : encoding;
}

/// Registers the parameter references of the tile dialect's attributes and
/// types with `walker`.
static void addParamWalks(AttrTypeWalker &walker,
                          function_ref<void(StringAttr, ParamUse)> fn) {
  walker.addWalk([=](DimsAttr dims) {
    for (unsigned i = 0, e = dims.getDims().size(); i < e; ++i)
      if (StringAttr name = dims.getParam(i))
        fn(name, ParamUse::Dim);
  });
  walker.addWalk([=](SwitchType type) {
    fn(type.getParam(), isa<StringAttr>(type.getKeys().front())
                            ? ParamUse::StringSwitch
                            : ParamUse::IntegerSwitch);
  });
  walker.addWalk(
      [=](ParamAttr param) { fn(param.getName(), ParamUse::Value); });
}

void mla::tile::walkParamUses(Type type,
                              function_ref<void(StringAttr, ParamUse)> fn) {
  AttrTypeWalker walker;
  addParamWalks(walker, fn);
  walker.walk(type);
}

void mla::tile::walkParamUses(Attribute attr,
                              function_ref<void(StringAttr, ParamUse)> fn) {
  AttrTypeWalker walker;
  addParamWalks(walker, fn);
  walker.walk(attr);
}

Type mla::tile::resolveSwitches(Type type, StringAttr param, Attribute value) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](SwitchType choice) -> std::optional<Type> {
    if (choice.getParam() != param)
      return std::nullopt;
    if (Type resolved = choice.resolve(value))
      return resolved;
    return std::nullopt;
  });
  return replacer.replace(type);
}
