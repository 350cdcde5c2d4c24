//===- GpuCodegen.cpp - GPU kernels to code objects -----------------------===//

#include "mla/Target/GpuCodegen.h"
#include "mla/Target/LLVMCodegen.h"
#include "mla/Target/Manifest.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mla;

std::unique_ptr<llvm::Module>
mla::translateGpuKernels(ModuleOp module, llvm::LLVMContext &context,
                         llvm::TargetMachine &machine) {
  std::unique_ptr<llvm::Module> linked;
  for (auto gpuModule : module.getOps<mlir::gpu::GPUModuleOp>()) {
    // The kernels alone, in a module of their own: that is the device code.
    OwningOpRef<ModuleOp> device = ModuleOp::create(module.getLoc());
    OpBuilder b = OpBuilder::atBlockEnd(device->getBody());
    std::vector<std::string> kernels;
    for (Operation &op : gpuModule.getBody()->without_terminator()) {
      b.clone(op);
      if (op.hasAttr("rocdl.kernel") || op.hasAttr("nvvm.kernel"))
        kernels.push_back(cast<SymbolOpInterface>(op).getName().str());
    }
    std::unique_ptr<llvm::Module> part =
        translateToLLVM(*device, context, machine, kernels);
    if (!part)
      return nullptr;
    if (!linked) {
      linked = std::move(part);
      continue;
    }
    // One declaration of what several kernels use; private helpers of the
    // same name are renamed apart.
    if (llvm::Linker::linkModules(*linked, std::move(part))) {
      gpuModule.emitError("linking its LLVM IR to the other kernels' failed");
      return nullptr;
    }
  }
  if (!linked)
    module.emitError("expected a gpu.module of lowered kernels");
  return linked;
}

LogicalResult mla::readAMDGPUResources(llvm::MemoryBufferRef codeObject,
                                       std::vector<KernelResources> &kernels,
                                       std::string &error) {
  auto file = llvm::object::ELF64LEObjectFile::create(codeObject);
  if (!file) {
    error = llvm::toString(file.takeError());
    return failure();
  }
  const auto &elf = file->getELFFile();
  auto headers = elf.program_headers();
  if (!headers) {
    error = llvm::toString(headers.takeError());
    return failure();
  }
  for (const auto &header : *headers) {
    if (header.p_type != llvm::ELF::PT_NOTE)
      continue;
    llvm::Error noteError = llvm::Error::success();
    for (const auto &note : elf.notes(header, noteError)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      llvm::msgpack::Document doc;
      llvm::ArrayRef<uint8_t> desc = note.getDesc(header.p_align);
      if (!doc.readFromBlob(
              llvm::StringRef(reinterpret_cast<const char *>(desc.data()),
                              desc.size()),
              /*Multi=*/false)) {
        error = "malformed AMDGPU metadata";
        return failure();
      }
      auto &root = doc.getRoot().getMap();
      auto found = root.find(llvm::StringRef("amdhsa.kernels"));
      if (found == root.end())
        continue;
      for (auto &entry : found->second.getArray()) {
        auto &map = entry.getMap();
        auto integer = [&](llvm::StringRef key) -> int64_t {
          auto it = map.find(key);
          if (it == map.end())
            return 0;
          return it->second.getKind() == llvm::msgpack::Type::Int
                     ? it->second.getInt()
                     : static_cast<int64_t>(it->second.getUInt());
        };
        KernelResources kernel;
        auto name = map.find(llvm::StringRef(".name"));
        if (name != map.end())
          kernel.symbol = name->second.getString().str();
        kernel.vgprs = integer(".vgpr_count");
        kernel.agprs = integer(".agpr_count");
        kernel.sgprs = integer(".sgpr_count");
        kernel.ldsBytes = integer(".group_segment_fixed_size");
        kernel.scratchBytes = integer(".private_segment_fixed_size");
        kernel.vgprSpills = integer(".vgpr_spill_count");
        kernel.sgprSpills = integer(".sgpr_spill_count");
        kernel.waveSize = integer(".wavefront_size");
        kernel.maxWorkgroupSize = integer(".max_flat_workgroup_size");
        kernels.push_back(kernel);
      }
    }
    if (noteError) {
      error = llvm::toString(std::move(noteError));
      return failure();
    }
  }
  if (kernels.empty()) {
    error = "the code object has no AMDGPU kernel metadata";
    return failure();
  }
  return success();
}

LogicalResult mla::undefinedSymbols(llvm::MemoryBufferRef object,
                                    std::vector<std::string> &symbols,
                                    std::string &error) {
  auto file = llvm::object::ELF64LEObjectFile::create(object);
  if (!file) {
    error = llvm::toString(file.takeError());
    return failure();
  }
  for (const auto &symbol : file->getDynamicSymbolIterators()) {
    auto flags = symbol.getFlags();
    if (!flags) {
      error = llvm::toString(flags.takeError());
      return failure();
    }
    if (!(*flags & llvm::object::SymbolRef::SF_Undefined))
      continue;
    auto name = symbol.getName();
    if (!name) {
      error = llvm::toString(name.takeError());
      return failure();
    }
    if (!name->empty())
      symbols.push_back(name->str());
  }
  return success();
}

LogicalResult mla::inspectCodeObject(llvm::StringRef path,
                                     llvm::json::Value &manifest,
                                     std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = path.str() + ": " + buffer.getError().message();
    return failure();
  }
  std::vector<std::string> undefined;
  if (failed(undefinedSymbols((*buffer)->getMemBufferRef(), undefined, error)))
    return failure();
  if (!undefined.empty()) {
    error = "the code object needs symbols no GPU provides: " +
            llvm::join(undefined, ", ");
    return failure();
  }
  std::vector<KernelResources> kernels;
  if (failed(readAMDGPUResources((*buffer)->getMemBufferRef(), kernels, error)))
    return failure();
  for (const KernelResources &kernel : kernels) {
    // Name only what the kernel does: SGPRs spill to VGPR lanes, not to
    // scratch, so "0 bytes of scratch" beside SGPR spills reads as a
    // contradiction.
    llvm::SmallVector<std::string> excess;
    if (kernel.vgprSpills)
      excess.push_back(std::to_string(kernel.vgprSpills) + " VGPRs spilled");
    if (kernel.sgprSpills)
      excess.push_back(std::to_string(kernel.sgprSpills) +
                       " SGPRs spilled (to VGPR lanes)");
    if (kernel.scratchBytes)
      excess.push_back(std::to_string(kernel.scratchBytes) +
                       " bytes of scratch per lane");
    if (!excess.empty()) {
      error = "kernel '" + kernel.symbol +
              "' does not fit in registers: " + llvm::join(excess, ", ") +
              " (code objects must not spill)";
      return failure();
    }
  }
  addKernelResources(manifest, kernels);
  return success();
}
