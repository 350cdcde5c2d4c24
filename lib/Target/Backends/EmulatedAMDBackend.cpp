//===- EmulatedAMDBackend.cpp - AMD lowering executed on the host ---------===//
//
// gfx950-emu and gfx942-emu lower and optimize as their chip does; the
// binary is that LLVM IR retargeted to the host (docs/emulation.md).
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include "mla/Emulator/EmulatedBinary.h"
#include "mla/Emulator/Retarget.h"
#include "mla/Target/AbiRecord.h"
#include "mla/Target/LLVMCodegen.h"
#include "mla/Target/OutputFile.h"

using namespace mlir;
using namespace mla;

/// Fills in what only the emulator knows about each kernel.
static void completeManifest(llvm::json::Value &manifest,
                             llvm::ArrayRef<emu::KernelSummary> kernels) {
  llvm::json::Array *entries = manifest.getAsObject()->getArray("kernels");
  for (llvm::json::Value &entry : *entries) {
    llvm::json::Object &object = *entry.getAsObject();
    for (const emu::KernelSummary &kernel : kernels) {
      if (object.getString("symbol") != kernel.name)
        continue;
      object["lds_bytes"] = kernel.staticLdsBytes;
      if (const auto &size = kernel.requiredWorkgroupSize)
        object["workgroup_size"] =
            llvm::json::Array{(*size)[0], (*size)[1], (*size)[2]};
    }
  }
}

namespace {
class EmulatedAMDBackend : public AMDGPUBackend {
public:
  using AMDGPUBackend::AMDGPUBackend;

  llvm::StringRef getBinaryExtension() const override { return "so"; }

  std::string refuseStage(EmitStage stage) const override {
    if (stage == EmitStage::Submission)
      return (info.name + " modules run through mla-run only").str();
    return "";
  }

  /// The chip's module carries no ABI record: the retargeted one does.
  LogicalResult prepareForEmit(llvm::Module &module,
                               llvm::TargetMachine &machine,
                               llvm::json::Value &manifest,
                               std::string &error) const override {
    return optimizeModule(module, machine, error);
  }

  LogicalResult writeBinary(BinaryJob &job, std::string &error) const override;
};
} // namespace

LogicalResult EmulatedAMDBackend::writeBinary(BinaryJob &job,
                                              std::string &error) const {
  if (failed(optimizeModule(job.module, job.machine, error)))
    return failure();
  auto fail = [&](llvm::Error cause) {
    error =
        "emulating " + job.outputPath + ": " + llvm::toString(std::move(cause));
    return failure();
  };
  auto machine = emu::createHostMachine();
  if (!machine)
    return fail(machine.takeError());
  std::vector<emu::KernelSummary> kernels;
  auto host = emu::retargetForHost(job.module, *emu::lookupChip(info.cpu),
                                   **machine, kernels);
  if (!host)
    return fail(host.takeError());
  completeManifest(job.manifest, kernels);
  // The retargeted module is the binary's: the record goes there, next to
  // the lane entries mla-run finds kernels by.
  if (llvm::Error recordError = addAbiRecord(**host, job.manifest))
    return fail(std::move(recordError));
  std::unique_ptr<TemporaryFile> binary =
      TemporaryFile::createFor(job.outputPath, error);
  if (!binary || failed(binary->close(error)))
    return failure();
  if (llvm::Error writeError =
          emu::writeEmulatedBinary(**host, **machine, binary->getPath()))
    return fail(std::move(writeError));
  return publishModule(*binary, job.manifest, job.outputPath, error);
}

std::unique_ptr<TargetBackend> mla::createEmulatedAMDBackend(TargetInfo info) {
  return std::make_unique<EmulatedAMDBackend>(info);
}
