//===- TileGPUOps.h - Layout conversions and LDS ----------------*- C++ -*-===//

#ifndef MLA_DIALECT_TILEGPU_IR_TILEGPUOPS_H
#define MLA_DIALECT_TILEGPU_IR_TILEGPUOPS_H

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h.inc"

#endif // MLA_DIALECT_TILEGPU_IR_TILEGPUOPS_H
