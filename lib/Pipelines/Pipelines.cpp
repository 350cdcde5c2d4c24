//===- Pipelines.cpp - Named pass pipelines -------------------------------===//

#include "mla/Pipelines/Pipelines.h"
#include "mla/Conversion/Passes.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"
#include "mla/Dialect/TileGPU/Transforms/Passes.h"
#include "mla/Support/Chips.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

void mla::addSpecializePass(OpPassManager &pm,
                            ArrayRef<std::string> instanceSets,
                            StringRef target) {
  tile::TileSpecializeOptions options;
  options.instances = llvm::join(instanceSets, ";");
  options.target = target.str();
  pm.addPass(tile::createTileSpecialize(options));
}

void mla::buildTileToPrimitivesPipeline(OpPassManager &pm,
                                        Specialize specialize,
                                        bool keepScaledFp4) {
  // Every later pass sees ordinary kernels with static tiles.
  if (specialize == Specialize::Yes)
    addSpecializePass(pm);
  pm.addPass(createCanonicalizerPass());
  tile::TileDecomposeOptions decompose;
  decompose.keepScaledFp4 = keepScaledFp4;
  pm.addPass(tile::createTileDecompose(decompose));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
}

void mla::buildHostPipeline(OpPassManager &pm, Specialize specialize) {
  buildTileToPrimitivesPipeline(pm, specialize);
  pm.addPass(createConvertTileToHost());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Tensors to buffers to loops.
  pm.addPass(createConvertElementwiseToLinalgPass());
  // Loop-carried tiles (softmax state) are new values every iteration.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());

  // Everything to the LLVM dialect. bf16 conversions become integer code so
  // the object needs no compiler runtime.
  pm.addPass(createHostExpandArith());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

/// Canonicalization and CSE of the lowered kernels, each kernel on its own
/// thread: past the GPU lowering each is in a gpu.module of its own, and
/// each is as large as the rest of the pipeline's work on it.
static void addKernelCleanup(OpPassManager &kernels) {
  OpPassManager &kernel = kernels.nestAny();
  // Without region simplification: on the lowered kernels' large loops its
  // dead-code walks took four fifths of the canonicalizer's time, and the
  // flagship's PTX and code objects are the same bytes without it.
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  kernel.addPass(createCanonicalizerPass(config));
  kernel.addPass(createCSEPass());
}

void mla::buildTileToGpuPipeline(OpPassManager &pm,
                                 const GpuPipelineOptions &options,
                                 Specialize specialize) {
  const Chip *chip = lookupChip(options.chip.getValue());
  buildTileToPrimitivesPipeline(pm, specialize, chip && chip->scaledFp4Mma);
  // Not on the host: its buffer deallocation refuses ops whose memory
  // effects it does not know, llvm.intr.assume among them.
  pm.addPass(tile::createTileAssumeRequirements());
  pm.addPass(tile::createTileDeferLoopSums());
  pm.addPass(createCanonicalizerPass());
  tilegpu::TileGPUAssignLayoutsOptions layouts;
  layouts.chip = options.chip;
  layouts.numWarps = options.numWarps;
  pm.addPass(tilegpu::createTileGPUAssignLayouts(layouts));
  pm.addPass(tilegpu::createTileGPUStageOperands());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(tilegpu::createTileGPUWarpgroupDots());
  tilegpu::TileGPUPipelineLoadsOptions pipelining;
  pipelining.chip = options.chip;
  pm.addPass(tilegpu::createTileGPUPipelineLoads(pipelining));
  ConvertTileToGPUOptions lowering;
  lowering.chip = options.chip;
  pm.addPass(createConvertTileToGPU(lowering));
  addKernelCleanup(pm.nest<gpu::GPUModuleOp>());
}

void mla::buildTileToGpuLLVMPipeline(OpPassManager &pm,
                                     const GpuPipelineOptions &options,
                                     Specialize specialize) {
  buildTileToGpuPipeline(pm, options, specialize);
  // The pass manager merges this nest with the cleanup's before it: a
  // thread takes a kernel's gpu.module through all of these passes at once.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  ConvertGPUKernelsToLLVMOptions llvm;
  llvm.chip = options.chip;
  kernels.addPass(createConvertGPUKernelsToLLVM(llvm));
  kernels.nestAny().addPass(createReconcileUnrealizedCastsPass());
  // No canonicalization after it: LLVM's optimizer folds the same, and the
  // flagship's PTX and code objects are the same bytes without one.
}

void mla::registerPipelines() {
  PassPipelineRegistration<GpuPipelineOptions>(
      "tile-to-gpu",
      "Lower tile programs to GPU kernels over lanes (layouts, LDS, the "
      "chip's matrix-core ops)",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        buildTileToGpuPipeline(pm, options);
      });
  PassPipelineRegistration<GpuPipelineOptions>(
      "tile-to-gpu-llvm",
      "Lower tile programs to the LLVM dialect for a GPU chip (ROCDL or "
      "NVVM kernels)",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        buildTileToGpuLLVMPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "tile-to-primitives",
      "Specialize parameterized kernels, canonicalize and decompose "
      "high-level tile ops into primitives",
      [](OpPassManager &pm) { buildTileToPrimitivesPipeline(pm); });
  PassPipelineRegistration<>(
      "tile-to-host-llvm",
      "Lower tile programs to the LLVM dialect for the host target",
      [](OpPassManager &pm) { buildHostPipeline(pm); });
}
