//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//
//
// Pipelines are built here once and used by both mla-opt (by name) and
// mla-compile.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_PIPELINES_PIPELINES_H
#define MLA_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mla {

/// Adds tile-specialize; `instanceSets` (each `KERNEL:PARAM=V1,V2[:...]`)
/// replace the instance sets of the kernels they name, and `target` picks
/// the kernels' tile.target_instances entries.
void addSpecializePass(mlir::OpPassManager &pm,
                       llvm::ArrayRef<std::string> instanceSets = {},
                       llvm::StringRef target = "");

/// Whether a pipeline starts with tile-specialize. mla-compile specializes
/// apart, before the manifest is built from the instances, and so runs the
/// pipelines without it.
enum class Specialize { Yes, No };

/// Specialize parameterized kernels, canonicalize, decompose high-level tile
/// ops into primitives, clean up. `keepScaledFp4` keeps the block-scaled fp4
/// products a chip multiplies itself.
void buildTileToPrimitivesPipeline(mlir::OpPassManager &pm,
                                   Specialize specialize = Specialize::Yes,
                                   bool keepScaledFp4 = false);

/// Everything from the tile dialect to the LLVM dialect for the host: one
/// C-callable function per kernel (docs/ABI.md).
void buildHostPipeline(mlir::OpPassManager &pm,
                       Specialize specialize = Specialize::Yes);

/// Options of the GPU pipelines.
struct GpuPipelineOptions : mlir::PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("gfx950, gfx942 or sm_90"),
                           llvm::cl::init("gfx950")};
  Option<unsigned> numWarps{
      *this, "num-warps",
      llvm::cl::desc("Warps per program of kernels that do not say"),
      llvm::cl::init(4)};
};

/// Tile programs to GPU kernels over lanes (gpu.func, vectors, the chip's
/// ops): primitives, layouts, convert-tile-to-gpu.
void buildTileToGpuPipeline(mlir::OpPassManager &pm,
                            const GpuPipelineOptions &options,
                            Specialize specialize = Specialize::Yes);

/// Tile programs to the LLVM dialect for a GPU: the GPU pipeline, then
/// ROCDL (AMD) or NVVM (NVIDIA) and LLVM.
void buildTileToGpuLLVMPipeline(mlir::OpPassManager &pm,
                                const GpuPipelineOptions &options,
                                Specialize specialize = Specialize::Yes);

/// Registers every named pipeline with the pass registry.
void registerPipelines();

} // namespace mla

#endif // MLA_PIPELINES_PIPELINES_H
