//===- EmuTarget.cpp - mla-compile's gfx950-emu and gfx942-emu ------------===//

#include "EmuTarget.h"

#include "mla/Emulator/EmulatedBinary.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
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
  std::string binaryTemp = (outputPath + ".tmp").str();
  std::string manifestTemp = (outputPath + ".json.tmp").str();
  llvm::FileRemover removeBinary(binaryTemp), removeManifest(manifestTemp);
  std::vector<emu::KernelSummary> kernels;
  if (llvm::Error error = emu::compileEmulatedModule(
          chipModule, *emu::lookupChip(target.cpu), binaryTemp, kernels))
    return fail("emulating " + outputPath + ": " +
                llvm::toString(std::move(error)));
  completeManifest(manifest, kernels);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(manifestTemp, ec);
    if (ec)
      return fail(manifestTemp + ": " + ec.message());
    os << llvm::formatv("{0:2}", manifest) << "\n";
  }
  if (std::error_code ec = llvm::sys::fs::rename(binaryTemp, outputPath))
    return fail(outputPath + ": " + ec.message());
  if (std::error_code ec =
          llvm::sys::fs::rename(manifestTemp, outputPath + ".json"))
    return fail(outputPath + ".json: " + ec.message());
  return 0;
}
