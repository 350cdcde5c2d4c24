//===- AMDGPUBackend.cpp - Code objects for AMD Instinct chips ------------===//

#include "Backends.h"

#include "mla/Target/GpuCodegen.h"
#include "mla/Target/LLVMCodegen.h"

using namespace mlir;
using namespace mla;

/// A code object is the kernels' objects linked by ld.lld alone.
static const LinkCommand kCodeObjectLink = {MLA_LLD_PATH, {"-shared"}, {}};

/// The manifest reports what the backend gave each kernel: registers, LDS,
/// spills (docs/amdgpu.md).
LogicalResult AMDGPUBackend::writeBinary(BinaryJob &job,
                                         std::string &error) const {
  return writeLinkedBinary(*this, job, kCodeObjectLink, inspectCodeObject,
                           error);
}

/// Without MachineLICM unless the command line says otherwise. The IR's
/// LICM already hoists what the KV loop does not change (the loop mix of
/// every kernel is within 1% either way), and leaves loops that hold a loop
/// alone (convert-gpu-kernels-to-llvm); MachineLICM then hoisted the lane
/// address arithmetic of a partial program's per-item steps out of its run
/// of work items, live across the KV loop where the kernels are at their
/// register limit: gfx950's bf16 kernel spilled 18 VGPRs to scratch.
void AMDGPUBackend::setCodegenDefaults() const {
  setLLVMFlagDefault("disable-machine-licm");
}

std::unique_ptr<TargetBackend> mla::createAMDGPUBackend(TargetInfo info) {
  return std::make_unique<AMDGPUBackend>(info);
}
