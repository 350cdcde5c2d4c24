//===- Passes.h - Layout passes for tiles on GPUs ---------------*- C++ -*-===//

#ifndef MLA_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
#define MLA_DIALECT_TILEGPU_TRANSFORMS_PASSES_H

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mla::tilegpu {

#define GEN_PASS_DECL
#include "mla/Dialect/TileGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mla/Dialect/TileGPU/Transforms/Passes.h.inc"

} // namespace mla::tilegpu

#endif // MLA_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
