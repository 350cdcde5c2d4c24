//===- TileGPUDialect.h - Tiles mapped onto a GPU ---------------*- C++ -*-===//

#ifndef MLA_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H
#define MLA_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H

#include "mla/Dialect/Tile/IR/TileDialect.h"
#include "mla/Dialect/Tile/IR/TileTypes.h"
#include "mla/Dialect/TileGPU/IR/LaneMap.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/TensorEncoding.h"

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h.inc"
#include "mla/Dialect/TileGPU/IR/TileGPUEnums.h.inc"

#include "mla/Dialect/TileGPU/IR/TileGPUAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mla/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mla/Dialect/TileGPU/IR/TileGPUTypes.h.inc"

namespace mla::tilegpu {

/// The distributed layout of a tile type, or null when it has none.
DistributedLayoutAttr getLayout(mlir::Type type);

/// The lane map of a tile type with a distributed layout; asserts that the
/// layout holds the shape (the verifier checked it).
LaneMap getLaneMap(mlir::RankedTensorType type);

} // namespace mla::tilegpu

#endif // MLA_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H
