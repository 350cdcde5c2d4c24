//===- TileGPUTypes.cpp - LDS buffers -------------------------------------===//

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mla::tilegpu;

/// `64x576xbf16`: a static shape and an element type.
static ParseResult parseTileShape(AsmParser &parser,
                                  SmallVector<int64_t> &shape,
                                  Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printTileShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                           Type elementType) {
  for (int64_t d : shape)
    printer << d << 'x';
  printer << elementType;
}

#define GET_TYPEDEF_CLASSES
#include "mla/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"

void TileGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "mla/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"
      >();
}
