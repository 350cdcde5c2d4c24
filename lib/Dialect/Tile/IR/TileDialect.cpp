//===- TileDialect.cpp - Tile dialect registration and types -------------===//

#include "mla/Dialect/Tile/IR/TileDialect.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mla::tile;

#include "mla/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "mla/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "mla/Dialect/Tile/IR/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mla/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "mla/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
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
// Discardable attributes
//===----------------------------------------------------------------------===//

/// `tile.launch` is read by launchers, so it is checked here rather than
/// when a launcher meets it at run time.
static LogicalResult verifyLaunchAttr(Operation *op, Attribute attr) {
  if (!isa<KernelOp>(op))
    return op->emitError() << "'" << kLaunchAttrName
                           << "' belongs on a tile.kernel";
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return op->emitError()
           << "'" << kLaunchAttrName
           << "' must be a dictionary, e.g. {grid = [\"n\", 1, 1]}";
  Attribute gridAttr = dict.get("grid");
  if (!gridAttr)
    return success();
  auto grid = dyn_cast<ArrayAttr>(gridAttr);
  if (!grid || grid.size() != 3)
    return op->emitError() << "'" << kLaunchAttrName
                           << "' grid must list exactly 3 dimensions (x, y, z)";
  for (Attribute dim : grid) {
    if (auto size = dyn_cast<IntegerAttr>(dim)) {
      if (size.getInt() < 1)
        return op->emitError()
               << "'" << kLaunchAttrName
               << "' grid sizes must be at least 1, got " << size.getInt();
      continue;
    }
    auto name = dyn_cast<StringAttr>(dim);
    if (!name || name.getValue().empty())
      return op->emitError()
             << "'" << kLaunchAttrName
             << "' grid entries must be integers or problem-quantity names";
  }
  return success();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kLaunchAttrName)
    return verifyLaunchAttr(op, attr.getValue());
  return op->emitError() << "unknown tile dialect attribute '"
                         << attr.getName().getValue() << "'";
}
