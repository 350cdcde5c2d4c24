//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//
//
// Pipelines are built here once and used by both mla-opt (by name) and
// mla-compile.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_PIPELINES_PIPELINES_H
#define MLA_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace mla {

/// Adds tile-specialize; `instanceSets` (each `KERNEL:PARAM=V1,V2[:...]`)
/// replace the instance sets of the kernels they name.
void addSpecializePass(mlir::OpPassManager &pm,
                       llvm::ArrayRef<std::string> instanceSets = {});

/// Specialize parameterized kernels, canonicalize, decompose high-level tile
/// ops into primitives, clean up.
void buildTileToPrimitivesPipeline(mlir::OpPassManager &pm);

/// Everything from the tile dialect to the LLVM dialect for the host: one
/// C-callable function per kernel (docs/ABI.md).
void buildHostPipeline(mlir::OpPassManager &pm);

/// Registers every named pipeline with the pass registry.
void registerPipelines();

} // namespace mla

#endif // MLA_PIPELINES_PIPELINES_H
