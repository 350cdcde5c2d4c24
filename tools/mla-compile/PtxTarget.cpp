//===- PtxTarget.cpp - mla-compile's sm_90 binaries -----------------------===//

#include "PtxTarget.h"

#include "mla/Target/LLVMCodegen.h"
#include "mla/Target/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mla;

static int fail(const llvm::Twine &message) {
  llvm::errs() << "mla-compile: error: " << message << "\n";
  return 1;
}

/// A temporary next to `path` holding `manifest`.
static std::unique_ptr<TemporaryFile>
writeManifest(llvm::StringRef path, const llvm::json::Value &manifest,
              std::string &error) {
  std::unique_ptr<TemporaryFile> file =
      TemporaryFile::createFor((path + ".json").str(), error);
  if (file)
    file->os() << llvm::formatv("{0:2}", manifest) << "\n";
  return file;
}

int mla::writePtxModule(const TargetInfo &target, llvm::TargetMachine &machine,
                        llvm::Module &llvmModule,
                        llvm::ArrayRef<PtxKernel> kernels,
                        llvm::json::Value manifest, llvm::StringRef outputPath,
                        llvm::StringRef ptxas) {
  // -o X.cubin asks for the cubin alone; -o X.ptx (any other name) for the
  // PTX, and the cubin next to it where ptxas is.
  bool cubinOnly = llvm::sys::path::extension(outputPath) == ".cubin";
  llvm::SmallString<128> cubinPath(outputPath);
  if (!cubinOnly)
    llvm::sys::path::replace_extension(cubinPath, "cubin");
  if (cubinOnly && ptxas.empty())
    return fail("-o: '" + outputPath +
                "' is a cubin, which ptxas makes, and none was found "
                "(--ptxas=PATH; -o FILE.ptx writes the PTX alone)");
  std::vector<std::string> external = externalFunctions(llvmModule);
  if (!external.empty())
    return fail("the kernels call " + llvm::join(external, ", ") +
                ", which no library provides on " + target.name);
  for (const PtxKernel &kernel : kernels)
    if (kernel.staticSharedBytes > kMaxStaticSharedBytes)
      return fail("kernel '" + kernel.symbol + "' needs " +
                  llvm::Twine(kernel.staticSharedBytes) +
                  " bytes of shared memory; " + target.name +
                  " kernels declare at most " +
                  llvm::Twine(kMaxStaticSharedBytes) + " statically");

  std::string error;
  std::unique_ptr<TemporaryFile> ptx =
      cubinOnly ? TemporaryFile::createScratch("mla-compile", "ptx", error)
                : TemporaryFile::createFor(outputPath, error);
  if (!ptx ||
      failed(emitMachineCode(llvmModule, machine,
                             llvm::CodeGenFileType::AssemblyFile, ptx->os(),
                             error)) ||
      failed(ptx->close(error)))
    return fail(error);

  std::unique_ptr<TemporaryFile> cubin;
  std::vector<PtxasResources> resources;
  if (!ptxas.empty()) {
    cubin = TemporaryFile::createFor(cubinPath, error);
    if (!cubin || failed(cubin->close(error)))
      return fail(error);
    if (failed(assemblePtx(ptxas, target.cpu, ptx->getPath(), cubin->getPath(),
                           resources, error)))
      return fail("assembling " + outputPath + ": " + error);
    addPtxKernelInfo(manifest, kernels, llvm::ArrayRef(resources));
  } else {
    addPtxKernelInfo(manifest, kernels, std::nullopt);
  }

  if (!cubinOnly) {
    std::unique_ptr<TemporaryFile> ptxManifest =
        writeManifest(outputPath, manifest, error);
    if (!ptxManifest ||
        failed(publishModule(*ptx, *ptxManifest, outputPath, error)))
      return fail(error);
  }
  if (!cubin) {
    // A cubin left from an earlier compilation would no longer match.
    llvm::sys::fs::remove(cubinPath + ".json");
    llvm::sys::fs::remove(cubinPath);
    return 0;
  }
  (*manifest.getAsObject())["binary"] =
      llvm::sys::path::filename(cubinPath).str();
  std::unique_ptr<TemporaryFile> cubinManifest =
      writeManifest(cubinPath, manifest, error);
  if (!cubinManifest ||
      failed(publishModule(*cubin, *cubinManifest, cubinPath, error)))
    return fail(error);
  return 0;
}
