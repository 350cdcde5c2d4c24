//===- TileOps.h - Tile dialect operations ----------------------*- C++ -*-===//

#ifndef MLA_DIALECT_TILE_IR_TILEOPS_H
#define MLA_DIALECT_TILE_IR_TILEOPS_H

#include "mla/Dialect/Tile/IR/TileDialect.h"
#include "mla/Dialect/Tile/IR/TileTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define GET_OP_CLASSES
#include "mla/Dialect/Tile/IR/TileOps.h.inc"

#endif // MLA_DIALECT_TILE_IR_TILEOPS_H
