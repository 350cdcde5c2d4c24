//===- Backends.h - The target backends the registry holds ------*- C++ -*-===//

#ifndef MLA_LIB_TARGET_BACKENDS_BACKENDS_H
#define MLA_LIB_TARGET_BACKENDS_BACKENDS_H

#include "mla/Target/TargetBackend.h"

namespace mla {

/// What the GPU targets share: the tile-to-GPU pipeline for the chip, and
/// translation of the kernels' gpu.modules alone.
class GpuBackend : public TargetBackend {
public:
  using TargetBackend::TargetBackend;
  llvm::StringRef getInstanceChip() const override { return info.chip; }
  void buildPipeline(mlir::OpPassManager &pm) const override;
  std::unique_ptr<llvm::Module>
  translate(mlir::ModuleOp lowered, llvm::LLVMContext &context,
            llvm::TargetMachine &machine,
            llvm::ArrayRef<std::string> kernels) const override;
};

/// Code objects (.hsaco) for an AMD Instinct chip.
class AMDGPUBackend : public GpuBackend {
public:
  using GpuBackend::GpuBackend;
  llvm::StringRef getBinaryExtension() const override { return "hsaco"; }
  mlir::LogicalResult writeBinary(BinaryJob &job,
                                  std::string &error) const override;

protected:
  void setCodegenDefaults() const override;
};

/// Shared objects for the machine mla-compile runs on.
std::unique_ptr<TargetBackend> createHostBackend(TargetInfo info);

std::unique_ptr<TargetBackend> createAMDGPUBackend(TargetInfo info);

/// PTX, and through ptxas a cubin, for an NVIDIA chip.
std::unique_ptr<TargetBackend> createNVPTXBackend(TargetInfo info);

/// An AMD chip's lowering, executed on the host (docs/emulation.md).
std::unique_ptr<TargetBackend> createEmulatedAMDBackend(TargetInfo info);

/// How a target links kernel objects into its binary: `program` run with
/// `flags`, -o OUTPUT, the objects, then `libraries`.
struct LinkCommand {
  llvm::StringRef program;
  std::vector<llvm::StringRef> flags;
  std::vector<llvm::StringRef> libraries;
};

/// Writes a binary the way Host and AMDGPU do: the ABI record added, each
/// kernel optimized and compiled apart on job.jobs threads, the objects
/// linked by `link` into a temporary, then `inspect` (if given) completing
/// the manifest from it, and binary and manifest published together.
mlir::LogicalResult writeLinkedBinary(
    const TargetBackend &backend, BinaryJob &job, const LinkCommand &link,
    llvm::function_ref<mlir::LogicalResult(llvm::StringRef binaryPath,
                                           llvm::json::Value &manifest,
                                           std::string &error)>
        inspect,
    std::string &error);

} // namespace mla

#endif // MLA_LIB_TARGET_BACKENDS_BACKENDS_H
