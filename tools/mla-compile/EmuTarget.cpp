//===- EmuTarget.cpp - mla-compile's gfx950-emu and gfx942-emu ------------===//

#include "EmuTarget.h"

#include "mla/Emulator/EmulatedBinary.h"
#include "mla/Target/AbiRecord.h"
#include "mla/Target/OutputFile.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mla;

static int fail(const llvm::Twine &message) {
  llvm::errs() << "mla-compile: error: " << message << "\n";
  return 1;
}

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

int mla::writeEmulatedModule(const TargetInfo &target, llvm::Module &chipModule,
                             llvm::json::Value manifest,
                             llvm::StringRef outputPath) {
  auto error = [&](llvm::Error error) {
    return fail("emulating " + outputPath + ": " +
                llvm::toString(std::move(error)));
  };
  auto machine = emu::createHostMachine();
  if (!machine)
    return error(machine.takeError());
  std::vector<emu::KernelSummary> kernels;
  auto host = emu::retargetForHost(chipModule, *emu::lookupChip(target.cpu),
                                   **machine, kernels);
  if (!host)
    return error(host.takeError());
  completeManifest(manifest, kernels);
  // The retargeted module is the binary's: the record goes there, next to
  // the lane entries mla-run finds kernels by.
  if (llvm::Error recordError = addAbiRecord(**host, manifest))
    return error(std::move(recordError));

  std::string message;
  std::unique_ptr<TemporaryFile> binary =
      TemporaryFile::createFor(outputPath, message);
  if (!binary || failed(binary->close(message)))
    return fail(message);
  if (llvm::Error writeError =
          emu::writeEmulatedBinary(**host, **machine, binary->getPath()))
    return error(std::move(writeError));
  std::unique_ptr<TemporaryFile> manifestFile =
      TemporaryFile::createFor(outputPath.str() + ".json", message);
  if (!manifestFile)
    return fail(message);
  manifestFile->os() << llvm::formatv("{0:2}", manifest) << "\n";
  if (failed(publishModule(*binary, *manifestFile, outputPath, message)))
    return fail(message);
  return 0;
}
