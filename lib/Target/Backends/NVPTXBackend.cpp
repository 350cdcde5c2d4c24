//===- NVPTXBackend.cpp - PTX and cubins for NVIDIA chips -----------------===//
//
// -o X.ptx (any name but .cubin) writes the PTX and its manifest, and the
// cubin next to it (X.cubin) where ptxas is; -o X.cubin writes the cubin
// alone, which needs ptxas. Both manifests then carry the registers, shared
// memory and spills ptxas reports.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include "mla/Target/AbiRecord.h"
#include "mla/Target/LLVMCodegen.h"
#include "mla/Target/OutputFile.h"
#include "mla/Target/ParallelCodegen.h"
#include "mla/Target/PtxCodegen.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mla;

static llvm::cl::opt<std::string> ptxasPath(
    "ptxas",
    llvm::cl::desc("ptxas that assembles sm_90 PTX into a cubin (default: "
                   "ptxas on PATH, else in /usr/local/cuda/bin; 'none': PTX "
                   "only)"),
    llvm::cl::value_desc("path"), llvm::cl::cat(getTargetOptionCategory()));

/// `path` with the extension .cubin.
static std::string cubinPathFor(llvm::StringRef path) {
  llvm::SmallString<128> cubin(path);
  llvm::sys::path::replace_extension(cubin, "cubin");
  return cubin.str().str();
}

namespace {
class NVPTXBackend : public GpuBackend {
public:
  using GpuBackend::GpuBackend;

  llvm::StringRef getBinaryExtension() const override { return "ptx"; }

  std::string refuseStage(EmitStage stage) const override {
    if (stage == EmitStage::Obj)
      return (info.name + " has no object stage; --emit=asm writes the PTX")
          .str();
    return "";
  }

  /// The cubin where ptxas made one: it needs no JIT.
  std::string getSubmittedBinary(llvm::StringRef outputPath) const override {
    std::string cubin = cubinPathFor(outputPath);
    return llvm::sys::fs::exists(cubin) ? cubin : outputPath.str();
  }

  LogicalResult writeBinary(BinaryJob &job, std::string &error) const override;

  /// The PTX, and the cubin next to it, each with its manifest.
  std::vector<std::string> getOutputFiles(llvm::StringRef outputPath,
                                          EmitStage stage) const override {
    std::vector<std::string> files =
        GpuBackend::getOutputFiles(outputPath, stage);
    if (stage == EmitStage::Bin && cubinPathFor(outputPath) != outputPath) {
      std::string cubin = cubinPathFor(outputPath);
      files.push_back(cubin);
      files.push_back(cubin + ".json");
    }
    return files;
  }

  /// ptxas makes the cubin: which one, and which build of it.
  std::string describeOutsideTools() const override {
    std::string ptxas = findPtxas(ptxasPath);
    if (ptxas.empty())
      return "ptxas: none";
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(ptxas, status))
      return "ptxas: " + ptxas + " (missing)";
    return llvm::formatv(
               "ptxas: {0} {1} {2}", ptxas, status.getSize(),
               status.getLastModificationTime().time_since_epoch().count())
        .str();
  }

protected:
  /// Shared memory is addressed with 32-bit pointers (the backend's
  /// nvptx-short-ptr, which decides the target machine's data layout)
  /// unless the command line says otherwise: shared memory is at most
  /// 228 KiB, and a 64-bit address costs two registers and a conversion per
  /// access. With double-buffered fp8 tiles the 64-bit addresses took 255
  /// registers and spilled; 32-bit ones take 164.
  void setCodegenDefaults() const override {
    setLLVMFlagDefault("nvptx-short-ptr");
  }
};
} // namespace

LogicalResult NVPTXBackend::writeBinary(BinaryJob &job,
                                        std::string &error) const {
  llvm::StringRef outputPath = job.outputPath;
  std::string ptxas = findPtxas(ptxasPath);
  bool cubinOnly = llvm::sys::path::extension(outputPath) == ".cubin";
  std::string cubinPath = cubinPathFor(outputPath);
  if (cubinOnly && ptxas.empty()) {
    error = ("-o: '" + outputPath +
             "' is a cubin, which ptxas makes, and none was found "
             "(--ptxas=PATH; -o FILE.ptx writes the PTX alone)")
                .str();
    return failure();
  }
  std::vector<PtxKernel> kernels = describePtxKernels(job.lowered);
  for (const PtxKernel &kernel : kernels)
    if (kernel.staticSharedBytes > kMaxStaticSharedBytes) {
      error =
          ("kernel '" + kernel.symbol + "' needs " +
           llvm::Twine(kernel.staticSharedBytes) + " bytes of shared memory; " +
           info.name + " kernels declare at most " +
           llvm::Twine(kMaxStaticSharedBytes) + " statically")
              .str();
      return failure();
    }

  // Each kernel is optimized and compiled to PTX apart, side by side, and
  // the parts joined into the one module the driver loads.
  if (llvm::Error recordError = addAbiRecord(job.module, job.manifest)) {
    error = llvm::toString(std::move(recordError));
    return failure();
  }
  std::vector<llvm::SmallString<0>> parts;
  std::string text;
  if (failed(compileKernelsApart(*this, job.module, job.kernels, job.jobs,
                                 parts, error, job.progress,
                                 llvm::CodeGenFileType::AssemblyFile)))
    return failure();
  if (failed(mergePtxParts(parts, text, error))) {
    error += " on " + info.name.str();
    return failure();
  }
  std::unique_ptr<TemporaryFile> ptx =
      cubinOnly ? TemporaryFile::createScratch("mla-compile", "ptx", error)
                : TemporaryFile::createFor(outputPath, error);
  if (!ptx)
    return failure();
  ptx->os() << text;
  if (failed(ptx->close(error)))
    return failure();

  std::unique_ptr<TemporaryFile> cubin;
  std::vector<PtxasResources> resources;
  if (!ptxas.empty()) {
    cubin = TemporaryFile::createFor(cubinPath, error);
    if (!cubin || failed(cubin->close(error)))
      return failure();
    if (job.progress) {
      *job.progress << "mla-compile: assembling " << cubinPath << " with "
                    << ptxas << "\n";
      job.progress->flush();
    }
    if (failed(assemblePtx(ptxas, info.cpu, ptx->getPath(), cubin->getPath(),
                           resources, error))) {
      error = ("assembling " + outputPath + ": " + error).str();
      return failure();
    }
    addPtxKernelInfo(job.manifest, kernels, llvm::ArrayRef(resources));
  } else {
    addPtxKernelInfo(job.manifest, kernels, std::nullopt);
  }

  if (!cubinOnly &&
      failed(publishModule(*ptx, job.manifest, outputPath, error)))
    return failure();
  if (!cubin) {
    // A cubin left from an earlier compilation would no longer match.
    llvm::sys::fs::remove(cubinPath + ".json");
    llvm::sys::fs::remove(cubinPath);
    return success();
  }
  (*job.manifest.getAsObject())["binary"] =
      llvm::sys::path::filename(cubinPath).str();
  return publishModule(*cubin, job.manifest, cubinPath, error);
}

std::unique_ptr<TargetBackend> mla::createNVPTXBackend(TargetInfo info) {
  return std::make_unique<NVPTXBackend>(info);
}
