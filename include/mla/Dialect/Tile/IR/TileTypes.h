//===- TileTypes.h - Tile dialect types and attributes ----------*- C++ -*-===//

#ifndef MLA_DIALECT_TILE_IR_TILETYPES_H
#define MLA_DIALECT_TILE_IR_TILETYPES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/IR/Types.h"

#include "mla/Dialect/Tile/IR/TileEnums.h.inc"
#include "mla/Dialect/Tile/IR/TileInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mla/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mla/Dialect/Tile/IR/TileTypes.h.inc"

namespace mla::tile {

//===----------------------------------------------------------------------===//
// Symbolic shapes and parameter-dependent types
//===----------------------------------------------------------------------===//

/// Whether `type` is a ranked tensor whose dimensions are static or named by
/// a `#tile.dims` encoding.
bool hasTileShape(mlir::Type type);

/// Whether dimension sizes `a` and `b` may be equal: they are, or one of
/// them is symbolic and is compared again in each instance.
inline bool mayBeEqual(int64_t a, int64_t b) {
  return a == b || mlir::ShapedType::isDynamic(a) ||
         mlir::ShapedType::isDynamic(b);
}

/// `mayBeEqual` for every dimension of two shapes of one rank.
bool mayBeEqual(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// The layout of a tile: its encoding, unless that is the `#tile.dims` of a
/// symbolic shape (part of the shape, not a layout).
mlir::Attribute getLayout(mlir::RankedTensorType type);

/// How a type or attribute refers to a kernel parameter.
enum class ParamUse {
  /// A `#tile.dims` entry: needs an i64 parameter.
  Dim,
  /// A `!tile.switch` with string cases: needs a str parameter.
  StringSwitch,
  /// A `!tile.switch` with integer cases: needs an i64 parameter.
  IntegerSwitch,
  /// A `#tile.param` attribute: any parameter.
  Value,
};

/// Calls `fn` for each parameter reference inside `type` or `attr`.
void walkParamUses(mlir::Type type,
                   llvm::function_ref<void(mlir::StringAttr, ParamUse)> fn);
void walkParamUses(mlir::Attribute attr,
                   llvm::function_ref<void(mlir::StringAttr, ParamUse)> fn);

/// `type` with every `!tile.switch` on `param` replaced by its case for
/// `value` (kept where it has none).
mlir::Type resolveSwitches(mlir::Type type, mlir::StringAttr param,
                           mlir::Attribute value);

/// Whether `value` is a valid value of a parameter of `kind`: an integer
/// for i64, a string of letters, digits and '_' (it becomes part of a
/// symbol name) for str.
bool isParamValue(ParamKind kind, mlir::Attribute value);

/// Writes a parameter value as programs do: integers bare, strings quoted.
void printParamValue(llvm::raw_ostream &os, mlir::Attribute value);

/// Parses a parameter value: an integer or a quoted string, or where
/// `keywords` also a bare name.
mlir::ParseResult parseParamValue(mlir::AsmParser &parser,
                                  mlir::Attribute &value, bool keywords);

//===----------------------------------------------------------------------===//
// Deriving tile types from operand types
//
// Shapes follow the op; the encoding follows TileEncodingAttrInterface where
// the operand's encoding implements it and has an opinion, and is otherwise
// kept unchanged, so a layout attached to a tile survives every rewrite.
//===----------------------------------------------------------------------===//

/// `type` without dimension `dim`.
mlir::RankedTensorType getReducedType(mlir::RankedTensorType type, int64_t dim);

/// The transpose of the 2-D tile type `type`.
mlir::RankedTensorType getTransposedType(mlir::RankedTensorType type);

/// `input` broadcast to `shape`, where `newDims` are the result dimensions
/// the input lacks.
mlir::RankedTensorType getBroadcastType(mlir::RankedTensorType input,
                                        llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<int64_t> newDims);

/// A tile of `shape` and `elementType` with `like`'s layout: for results
/// that are not a reduce, broadcast or transpose of one operand (products,
/// dequantized tiles).
mlir::RankedTensorType getTileLike(mlir::RankedTensorType like,
                                   llvm::ArrayRef<int64_t> shape,
                                   mlir::Type elementType);

/// `tensor<M x f32>` for an accumulator `tensor<M x D x f32>`: the type of the
/// per-row softmax state (running max and sum).
mlir::Type getRowStateType(mlir::Type accType);

/// `tensor<S x M x f32>` for split partials `tensor<S x M x D x f32>`.
mlir::Type getSplitStateType(mlir::Type partialType);

/// Name of the kernel attribute that tells launchers how to size the grid.
constexpr llvm::StringLiteral kLaunchAttrName = "tile.launch";
/// On a GPU kernel's LDS global that is dynamic shared memory (an unsized
/// external array): the bytes the launch must provide.
constexpr llvm::StringLiteral kDynamicLdsBytesAttrName =
    "mla.dynamic_lds_bytes";

/// Name of the attribute of a parameterized kernel that lists the values of
/// its instances.
constexpr llvm::StringLiteral kInstancesAttrName = "tile.instances";

/// Name of the attribute of a parameterized kernel that replaces its
/// instances on some targets: `{gfx942 = <instances>, ...}`.
constexpr llvm::StringLiteral kTargetInstancesAttrName =
    "tile.target_instances";

/// Name of the attribute of a specialized kernel that records its
/// parameter values.
constexpr llvm::StringLiteral kParamsAttrName = "tile.params";

/// Name of the attribute of a specialized kernel that names the
/// parameterized kernel it is an instance of, for launchers that choose
/// among a kernel's instances.
constexpr llvm::StringLiteral kInstanceOfAttrName = "tile.instance_of";

} // namespace mla::tile

#endif // MLA_DIALECT_TILE_IR_TILETYPES_H
