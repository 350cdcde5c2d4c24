//===- TileDialect.cpp - Tile dialect registration and types -------------===//

#include "mla/Dialect/Tile/IR/TileDialect.h"
#include "mla/Dialect/Tile/IR/LaunchExpr.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Support/Chips.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mla::tile;

#include "mla/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "mla/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "mla/Dialect/Tile/IR/TileTypes.cpp.inc"

namespace {
/// Helpers are inlined into kernels by tile-specialize; the upstream
/// inliner may inline them too.
struct TileInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }

  /// A helper is one block: its tile.return gives the call's results.
  void handleTerminator(Operation *op, ValueRange valuesToReplace) const final {
    auto ret = cast<ReturnOp>(op);
    for (auto [from, to] : llvm::zip_equal(valuesToReplace, ret.getOperands()))
      from.replaceAllUsesWith(to);
  }
};
} // namespace

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mla/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "mla/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  registerAttributes();
  addInterfaces<TileInlinerInterface>();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// PtrType, ViewType
//===----------------------------------------------------------------------===//

/// Global memory holds whole bytes: packed fp4 is addressed as i8.
static LogicalResult
verifyMemoryElementType(function_ref<InFlightDiagnostic()> emitError,
                        Type type) {
  if (auto choice = dyn_cast<SwitchType>(type)) {
    for (Type option : choice.getTypes())
      if (failed(verifyMemoryElementType(emitError, option)))
        return failure();
    return success();
  }
  if (isa<Float4E2M1FNType>(type))
    return emitError() << "f4E2M1FN is not byte-addressable; address packed "
                          "fp4 as i8 (two values per byte)";
  if (type.isIntOrIndexOrFloat() &&
      !isa<Float64Type, Float80Type, Float128Type>(type))
    return success();
  return emitError() << "global memory holds scalars of a tile element type, "
                        "not "
                     << type;
}

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type elementType) {
  return verifyMemoryElementType(emitError, elementType);
}

LogicalResult ViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && dim < 0)
      return emitError() << "view sizes are not negative";
  return verifyMemoryElementType(emitError, elementType);
}

Type ViewType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return ViewType::getChecked([&] { return parser.emitError(loc); },
                              parser.getContext(), shape, elementType);
}

void ViewType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t dim : getShape()) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printer << getElementType() << '>';
}

//===----------------------------------------------------------------------===//
// SwitchType
//===----------------------------------------------------------------------===//

Type SwitchType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Builder &builder = parser.getBuilder();
  std::string param;
  SmallVector<Attribute> keys;
  SmallVector<Type> types;
  auto parseCase = [&]() -> ParseResult {
    if (parseParamValue(parser, keys.emplace_back(), /*keywords=*/true))
      return failure();
    types.emplace_back();
    return failure(parser.parseEqual() || parser.parseType(types.back()));
  };
  if (parser.parseLess() || parser.parseKeywordOrString(&param) ||
      parser.parseComma() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, parseCase) ||
      parser.parseGreater())
    return {};
  return SwitchType::getChecked([&] { return parser.emitError(loc); },
                                parser.getContext(),
                                builder.getStringAttr(param), keys, types);
}

void SwitchType::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printKeywordOrString(getParam().getValue());
  printer << ", {";
  llvm::interleaveComma(llvm::zip_equal(getKeys(), getTypes()), printer,
                        [&](auto entry) {
                          auto [key, type] = entry;
                          if (auto str = dyn_cast<StringAttr>(key))
                            printer.printKeywordOrString(str.getValue());
                          else
                            printer << cast<IntegerAttr>(key).getInt();
                          printer << " = " << type;
                        });
  printer << "}>";
}

LogicalResult SwitchType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr param, ArrayRef<Attribute> keys,
                                 ArrayRef<Type> types) {
  if (keys.empty() || keys.size() != types.size())
    return emitError() << "!tile.switch needs at least one case";
  bool strings = isa<StringAttr>(keys.front());
  for (auto [i, key] : llvm::enumerate(keys)) {
    if (isa<StringAttr>(key) != strings)
      return emitError() << "!tile.switch cases are all strings or all "
                            "integers";
    if (llvm::is_contained(keys.take_front(i), key))
      return emitError() << "!tile.switch case " << key << " appears twice";
    if (isa<SwitchType>(types[i]))
      return emitError() << "!tile.switch cases are not switches themselves";
  }
  return success();
}

Type SwitchType::resolve(Attribute value) const {
  for (auto [key, type] : llvm::zip_equal(getKeys(), getTypes()))
    if (key == value)
      return type;
  return {};
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

/// `tile.launch` is read by launchers, so it is checked here rather than
/// when a launcher meets it at run time: the grid's and the requirements'
/// expressions must compile (LaunchExpr.h).
static LogicalResult verifyLaunchAttr(Operation *op, Attribute attr) {
  auto kernel = dyn_cast<KernelOp>(op);
  if (!kernel)
    return op->emitError() << "'" << kLaunchAttrName
                           << "' belongs on a tile.kernel";
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return op->emitError()
           << "'" << kLaunchAttrName
           << "' must be a dictionary, e.g. {grid = [\"cdiv(n, 64)\", 1, 1]}";
  auto launchError = [&]() -> InFlightDiagnostic {
    return op->emitError() << "'" << kLaunchAttrName << "' ";
  };
  std::string error;
  if (Attribute gridAttr = dict.get("grid")) {
    auto grid = dyn_cast<ArrayAttr>(gridAttr);
    if (!grid || grid.size() != 3)
      return launchError() << "grid must list exactly 3 dimensions (x, y, z)";
    for (Attribute dim : grid)
      if (!compileGridEntry(kernel, dim, error))
        return launchError() << "grid: " << error;
  }
  if (Attribute free = dict.get("free_grid"))
    if (!isa<BoolAttr>(free) || !dict.get("grid"))
      return launchError() << "free_grid is true or false, next to a grid";
  if (Attribute requiresAttr = dict.get("requires")) {
    auto conditions = dyn_cast<ArrayAttr>(requiresAttr);
    if (!conditions)
      return launchError() << "requires lists conditions, e.g. "
                              "[\"cols <= 256\"]";
    for (Attribute condition : conditions) {
      auto text = dyn_cast<StringAttr>(condition);
      if (!text)
        return launchError() << "requires: each condition is a string";
      std::optional<llvm::json::Value> compiled = compileLaunchExpr(
          kernel, text.getValue(), LaunchExprKind::Condition, error);
      if (!compiled)
        return launchError() << "requires: " << error;
      if (compiled->getAsInteger() == 0)
        return launchError()
               << "requires: '" << text.getValue() << "' never holds";
    }
  }
  return success();
}

/// One product of `tile.instances`, `{P = [v1, v2], ...}`: values of the
/// right kind for declared parameters, every parameter without a default
/// listed.
static LogicalResult verifyInstancesProduct(KernelOp kernel,
                                            DictionaryAttr dict) {
  for (NamedAttribute entry : dict) {
    ParamDeclAttr decl = kernel.lookupParam(entry.getName());
    if (!decl)
      return kernel.emitError()
             << "'" << kInstancesAttrName << "' lists parameter '"
             << entry.getName().getValue() << "', which kernel @"
             << kernel.getSymName() << " does not declare";
    auto values = dyn_cast<ArrayAttr>(entry.getValue());
    if (!values || values.empty())
      return kernel.emitError()
             << "'" << kInstancesAttrName << "' must give parameter '"
             << entry.getName().getValue() << "' a non-empty list of values";
    for (Attribute value : values)
      if (!isParamValue(decl.getKind(), value))
        return kernel.emitError()
               << "'" << kInstancesAttrName << "' value " << value
               << " of parameter '" << entry.getName().getValue() << "' is not "
               << (decl.getKind() == ParamKind::i64
                       ? "an integer"
                       : "a string of letters, digits and '_'");
  }
  for (Attribute attr : kernel.getParamsAttr()) {
    auto decl = cast<ParamDeclAttr>(attr);
    if (!decl.getDefaultValue() && !dict.get(decl.getName()))
      return kernel.emitError()
             << "kernel @" << kernel.getSymName() << ": '" << kInstancesAttrName
             << "' gives no values for parameter '" << decl.getName().getValue()
             << "', which has no default";
  }
  return success();
}

/// `tile.instances` on a parameterized kernel: one product, or a non-empty
/// list of products whose union is the instance set.
static LogicalResult verifyInstancesAttr(Operation *op, Attribute attr) {
  auto kernel = dyn_cast<KernelOp>(op);
  if (!kernel || !kernel.getParams())
    return op->emitError() << "'" << kInstancesAttrName
                           << "' belongs on a tile.kernel with parameters";
  SmallVector<DictionaryAttr> products;
  if (auto dict = dyn_cast<DictionaryAttr>(attr))
    products.push_back(dict);
  else if (auto list = dyn_cast<ArrayAttr>(attr))
    for (Attribute entry : list)
      if (auto dict = dyn_cast<DictionaryAttr>(entry))
        products.push_back(dict);
  auto array = dyn_cast<ArrayAttr>(attr);
  if (products.empty() || (array && products.size() != array.size()))
    return op->emitError() << "'" << kInstancesAttrName
                           << "' must be a dictionary of value lists, e.g. "
                              "{H = [16, 32]}, or a non-empty list of them";
  for (DictionaryAttr dict : products)
    if (failed(verifyInstancesProduct(kernel, dict)))
      return failure();
  return success();
}

/// `tile.target_instances = {TARGET = <tile.instances>, ...}`.
static LogicalResult verifyTargetInstancesAttr(Operation *op, Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict || dict.empty())
    return op->emitError() << "'" << kTargetInstancesAttrName
                           << "' must be a dictionary from target names to "
                              "instance sets, e.g. {gfx942 = {H = [16]}}";
  // The targets mla-compile compiles for: the host and the chips (emulated
  // chips take their chip's entry); a misspelled one would silently never
  // apply.
  for (NamedAttribute entry : dict) {
    llvm::StringRef target = entry.getName().getValue();
    if (target != "host" && !mla::lookupChip(target))
      return op->emitError()
             << "'" << kTargetInstancesAttrName << "' names target '" << target
             << "'; the targets are host, "
             << mla::listChips([](const mla::Chip &) { return true; });
  }
  for (NamedAttribute entry : dict)
    if (failed(verifyInstancesAttr(op, entry.getValue())))
      return op->emitError()
             << "in '" << kTargetInstancesAttrName << "' of target '"
             << entry.getName().getValue() << "'";
  return success();
}

/// `tile.params`, the values an instance was specialized with.
static LogicalResult verifyParamsAttr(Operation *op, Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!isa<KernelOp>(op) || !dict ||
      !llvm::all_of(dict, [](NamedAttribute entry) {
        return isParamValue(ParamKind::i64, entry.getValue()) ||
               isParamValue(ParamKind::str, entry.getValue());
      }))
    return op->emitError() << "'" << kParamsAttrName
                           << "' is a tile.kernel's dictionary of parameter "
                              "values";
  return success();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kLaunchAttrName)
    return verifyLaunchAttr(op, attr.getValue());
  if (attr.getName() == kInstancesAttrName)
    return verifyInstancesAttr(op, attr.getValue());
  if (attr.getName() == kTargetInstancesAttrName)
    return verifyTargetInstancesAttr(op, attr.getValue());
  if (attr.getName() == kParamsAttrName)
    return verifyParamsAttr(op, attr.getValue());
  if (attr.getName() == kInstanceOfAttrName) {
    auto name = dyn_cast<StringAttr>(attr.getValue());
    if (!isa<KernelOp>(op) || !name || name.empty())
      return op->emitError() << "'" << kInstanceOfAttrName
                             << "' is a tile.kernel's name of the kernel it "
                                "is an instance of";
    return success();
  }
  return op->emitError() << "unknown tile dialect attribute '"
                         << attr.getName().getValue() << "'";
}
