//===- TileGPUDialect.cpp - Tiles mapped onto a GPU -----------------------===//

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mla::tilegpu;

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"
#include "mla/Dialect/TileGPU/IR/TileGPUEnums.cpp.inc"

namespace {
/// Layouts print once at the top of a module as `#blocked`, `#mma`, ...,
/// the way kernel engineers read them.
struct TileGPUAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedAttr>(attr))
      os << "blocked";
    else if (isa<MmaAttr>(attr))
      os << "mma";
    else if (isa<DotOperandAttr>(attr))
      os << "dot_op";
    else if (isa<SliceAttr>(attr))
      os << "slice";
    else if (isa<LinearAttr>(attr))
      os << "linear";
    else if (isa<SharedAttr>(attr))
      os << "shared";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TileGPUDialect::initialize() {
  addInterfaces<TileGPUAsmInterface>();
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "mla/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
}
