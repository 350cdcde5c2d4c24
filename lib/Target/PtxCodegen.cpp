//===- PtxCodegen.cpp - NVIDIA kernels as PTX and cubin -------------------===//

#include "mla/Target/PtxCodegen.h"
#include "mla/Dialect/Tile/IR/TileTypes.h"
#include "mla/Target/OutputFile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mla;

std::vector<PtxKernel> mla::describePtxKernels(ModuleOp module) {
  std::vector<PtxKernel> kernels;
  for (auto gpuModule : module.getOps<mlir::gpu::GPUModuleOp>()) {
    for (auto func : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
      if (!func->hasAttr("nvvm.kernel"))
        continue;
      PtxKernel kernel;
      kernel.symbol = func.getName().str();
      if (auto maxntid =
              func->getAttrOfType<DenseI32ArrayAttr>("nvvm.maxntid")) {
        kernel.threads = 1;
        for (int32_t extent : maxntid.asArrayRef())
          kernel.threads *= extent;
      }
      llvm::SetVector<LLVM::GlobalOp> shared;
      SymbolTableCollection symbols;
      func.walk([&](LLVM::AddressOfOp address) {
        LLVM::GlobalOp global = address.getGlobal(symbols);
        if (global && global.getAddrSpace() == 3)
          shared.insert(global);
      });
      const DataLayout &layout = DataLayout::closest(func);
      for (LLVM::GlobalOp global : shared) {
        if (auto dynamic = global->getAttrOfType<IntegerAttr>(
                tile::kDynamicLdsBytesAttrName))
          kernel.dynamicSharedBytes += dynamic.getInt();
        else
          kernel.staticSharedBytes +=
              layout.getTypeSize(global.getGlobalType());
      }
      kernels.push_back(std::move(kernel));
    }
  }
  return kernels;
}

/// The directives every PTX module opens with, once each.
static bool isPtxHeader(llvm::StringRef line) {
  return line.starts_with(".version") || line.starts_with(".target") ||
         line.starts_with(".address_size");
}

LogicalResult mla::mergePtxParts(llvm::ArrayRef<llvm::SmallString<0>> parts,
                                 std::string &merged, std::string &error) {
  // A definition opens a line: `.visible .entry NAME(`, `.func NAME(`,
  // `.func (.param .b32 func_retval0) NAME(`, `.global .align 4 .b8
  // NAME[...]`; declarations are `.extern`.
  llvm::Regex definition(
      "^(\\.visible |\\.weak )?(\\.entry|\\.func|\\.global|\\.shared|\\.const)"
      "( *\\([^)]*\\))?[^(;]*[ )]([A-Za-z_$%][A-Za-z0-9_$]*)"
      "( *\\(|\\[| *;| *=|$)");
  llvm::Regex externFunction(
      "^\\.extern \\.func *(\\([^)]*\\))? *([A-Za-z_$%][A-Za-z0-9_$]*)");
  llvm::StringSet<> defined;
  llvm::SetVector<llvm::StringRef> undefined;
  std::string header;
  llvm::raw_string_ostream os(merged);
  for (auto [index, part] : llvm::enumerate(parts)) {
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(part).split(lines, '\n');
    // The first part's preamble (comments, header) opens the module; the
    // others' must repeat its header.
    std::string partHeader;
    bool body = false;
    for (llvm::StringRef line : lines) {
      if (!body &&
          (line.empty() || line.starts_with("//") || isPtxHeader(line))) {
        if (isPtxHeader(line))
          partHeader += line.str() + "\n";
        if (index == 0)
          os << line << "\n";
        continue;
      }
      if (!body) {
        body = true;
        if (index == 0)
          header = partHeader;
        else if (partHeader != header) {
          error = "the kernels' PTX parts disagree on their header (" +
                  llvm::StringRef(partHeader).trim().str() + " against " +
                  llvm::StringRef(header).trim().str() + ")";
          return failure();
        }
      }
      // Only directives open a line; instructions are indented.
      llvm::SmallVector<llvm::StringRef> m;
      if (!line.starts_with(".")) {
        os << line << "\n";
        continue;
      }
      if (definition.match(line, &m) && !defined.insert(m[4]).second) {
        error = ("two kernels' PTX parts both define '" + m[4] + "'").str();
        return failure();
      }
      if (externFunction.match(line, &m))
        undefined.insert(m[2]);
      os << line << "\n";
    }
  }
  std::vector<std::string> missing;
  for (llvm::StringRef name : undefined)
    if (!defined.contains(name))
      missing.push_back(name.str());
  if (!missing.empty()) {
    error = "the kernels call " + llvm::join(missing, ", ") +
            ", which no library provides";
    return failure();
  }
  return success();
}

/// Decimal group `index` of `matches`.
static int64_t number(llvm::ArrayRef<llvm::StringRef> matches, unsigned index) {
  int64_t value = 0;
  matches[index].getAsInteger(10, value);
  return value;
}

LogicalResult mla::parsePtxasReport(llvm::StringRef report,
                                    std::vector<PtxasResources> &kernels,
                                    std::string &error) {
  // ptxas info    : Compiling entry function 'NAME' for 'sm_90'
  // ptxas info    : Function properties for NAME
  //     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  // ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex properties("Function properties for ([^ ]+)$");
  llvm::Regex frame("([0-9]+) bytes stack frame, ([0-9]+) bytes spill "
                    "stores, ([0-9]+) bytes spill loads");
  llvm::Regex used("Used ([0-9]+) registers");
  llvm::Regex barriers("used ([0-9]+) barriers");
  llvm::Regex smem("([0-9]+) bytes smem");
  size_t first = kernels.size();
  PtxasResources *current = nullptr;
  std::string propertiesOf;
  llvm::SmallVector<llvm::StringRef> lines;
  report.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> m;
    if (entry.match(line, &m)) {
      kernels.push_back({});
      kernels.back().symbol = m[1].str();
      current = &kernels.back();
      continue;
    }
    if (properties.match(line, &m)) {
      propertiesOf = m[1].trim().str();
      continue;
    }
    if (frame.match(line, &m)) {
      // Device functions have properties too; only entries are recorded.
      for (size_t i = first; i < kernels.size(); ++i) {
        if (kernels[i].symbol != propertiesOf)
          continue;
        kernels[i].stackFrameBytes = number(m, 1);
        kernels[i].spillStoreBytes = number(m, 2);
        kernels[i].spillLoadBytes = number(m, 3);
      }
      continue;
    }
    if (current && used.match(line, &m)) {
      current->registers = number(m, 1);
      if (barriers.match(line, &m))
        current->barriers = number(m, 1);
      if (smem.match(line, &m))
        current->sharedBytes = number(m, 1);
    }
  }
  if (kernels.size() == first) {
    error = "ptxas reported no entry function";
    return failure();
  }
  return success();
}

std::string mla::findPtxas(llvm::StringRef requested) {
  if (requested == "none")
    return "";
  if (!requested.empty())
    return requested.str();
  if (auto onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  if (auto inToolkit =
          llvm::sys::findProgramByName("ptxas", {"/usr/local/cuda/bin"}))
    return *inToolkit;
  return "";
}

/// The first line of ptxas's output that says what went wrong.
static std::string firstError(llvm::StringRef output) {
  llvm::SmallVector<llvm::StringRef> lines;
  output.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines)
    if (line.contains("error") || line.contains("fatal"))
      return line.trim().str();
  return lines.empty() ? "" : lines.front().trim().str();
}

/// Whether this ptxas takes --split-compile (older ones do not).
static bool takesSplitCompile(llvm::StringRef ptxas) {
  std::string error;
  std::unique_ptr<TemporaryFile> help =
      TemporaryFile::createScratch("mla-ptxas-help", "txt", error);
  if (!help || failed(help->close(error)))
    return false;
  llvm::StringRef args[] = {ptxas, "--help"};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, help->getPath(),
                                                help->getPath()};
  if (llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt, redirects) !=
      0)
    return false;
  auto text = llvm::MemoryBuffer::getFile(help->getPath());
  return text && (*text)->getBuffer().contains("--split-compile");
}

LogicalResult mla::assemblePtx(llvm::StringRef ptxas, llvm::StringRef chip,
                               llvm::StringRef ptxPath,
                               llvm::StringRef cubinPath,
                               std::vector<PtxasResources> &kernels,
                               std::string &error) {
  std::unique_ptr<TemporaryFile> log =
      TemporaryFile::createScratch("mla-ptxas", "log", error);
  if (!log || failed(log->close(error)))
    return failure();
  std::string arch = ("-arch=" + chip).str();
  llvm::SmallVector<llvm::StringRef> args = {ptxas, arch, "-v"};
  // ptxas optimizes the kernels on every CPU; the code is the same as with
  // one thread. The count is fixed because the cubin records the command
  // line, and its bytes must not depend on --jobs.
  if (takesSplitCompile(ptxas))
    args.push_back("--split-compile=0");
  args.append({"-o", cubinPath, ptxPath});
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log->getPath(),
                                                log->getPath()};
  std::string runError;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt,
                                         redirects, /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &runError);
  auto text = llvm::MemoryBuffer::getFile(log->getPath());
  llvm::StringRef report = text ? (*text)->getBuffer() : "";
  if (status != 0) {
    std::string detail = firstError(report);
    if (detail.empty())
      detail = runError.empty() ? "exited with status " + std::to_string(status)
                                : runError;
    error = ptxas.str() + ": " + detail;
    return failure();
  }
  if (failed(parsePtxasReport(report, kernels, error))) {
    error = ptxas.str() + ": " + error;
    return failure();
  }
  return success();
}

void mla::addPtxKernelInfo(
    llvm::json::Value &manifest, llvm::ArrayRef<PtxKernel> kernels,
    std::optional<llvm::ArrayRef<PtxasResources>> resources) {
  llvm::json::Array *entries = manifest.getAsObject()->getArray("kernels");
  for (llvm::json::Value &entry : *entries) {
    llvm::json::Object &object = *entry.getAsObject();
    std::optional<llvm::StringRef> symbol = object.getString("symbol");
    int64_t dynamicBytes = 0;
    for (const PtxKernel &kernel : kernels) {
      if (!symbol || kernel.symbol != *symbol)
        continue;
      dynamicBytes = kernel.dynamicSharedBytes;
      object["workgroup_size"] = llvm::json::Array{kernel.threads, 1, 1};
      object["lds_bytes"] = kernel.staticSharedBytes + dynamicBytes;
      if (dynamicBytes > 0)
        object["dynamic_lds_bytes"] = dynamicBytes;
    }
    if (!resources)
      continue;
    for (const PtxasResources &r : *resources) {
      if (!symbol || r.symbol != *symbol)
        continue;
      // ptxas counts the static .shared bytes only.
      object["lds_bytes"] = r.sharedBytes + dynamicBytes;
      object["registers"] = r.registers;
      object["spills"] = r.spillStoreBytes;
      object["resources"] = llvm::json::Object{
          {"registers", r.registers},
          {"shared_bytes", r.sharedBytes},
          {"barriers", r.barriers},
          {"stack_frame_bytes", r.stackFrameBytes},
          {"spill_store_bytes", r.spillStoreBytes},
          {"spill_load_bytes", r.spillLoadBytes},
      };
    }
  }
}
