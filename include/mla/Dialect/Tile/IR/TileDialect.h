//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//

#ifndef MLA_DIALECT_TILE_IR_TILEDIALECT_H
#define MLA_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "mla/Dialect/Tile/IR/TileDialect.h.inc"

#endif // MLA_DIALECT_TILE_IR_TILEDIALECT_H
