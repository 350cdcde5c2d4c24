//===- GpuBackend.cpp - What the GPU targets share ------------------------===//

#include "Backends.h"

#include "mla/Pipelines/Pipelines.h"
#include "mla/Target/GpuCodegen.h"

using namespace mlir;
using namespace mla;

void GpuBackend::buildPipeline(OpPassManager &pm) const {
  GpuPipelineOptions options;
  options.chip = info.chip.str();
  buildTileToGpuLLVMPipeline(pm, options, Specialize::No);
}

std::unique_ptr<llvm::Module>
GpuBackend::translate(ModuleOp lowered, llvm::LLVMContext &context,
                      llvm::TargetMachine &machine,
                      llvm::ArrayRef<std::string> kernels) const {
  return translateGpuKernels(lowered, context, machine);
}
