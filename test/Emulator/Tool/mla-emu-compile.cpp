//===- mla-emu-compile.cpp - Emulate hand-written AMDGPU LLVM IR ----------===//
//
//   mla-emu-compile IN.ll --chip=gfx950|gfx942 -o OUT.so
//       [--arg-type=NAME=TYPE,...] [--workgroup-size=X,Y,Z]
//       [--emit=bin|host-llvm]
//   mla-emu-compile --list-intrinsics
//
// A test tool: it runs the emulator's retargeting on an AMDGPU LLVM IR
// module (as `mla-compile --emit=llvm` writes for gfx950/gfx942, or as
// mlir-translate writes from the ROCDL dialect) and writes OUT.so plus the
// manifest OUT.so.json of docs/ABI.md with target gfxNNN-emu, so that
// `mla-run --target emu --kernel` runs single instructions. IR carries no
// element types for pointers and no launch sizes: --arg-type gives the
// pointee type of pointer arguments (by argument name, or argN for unnamed
// ones, optionally qualified by the kernel: KERNEL.NAME), --workgroup-size
// the size of kernels without reqd_work_group_size.
//
//===----------------------------------------------------------------------===//

#include "mla/Emulator/EmulatedBinary.h"
#include "mla/Target/AbiRecord.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace mla;

namespace {
enum class Emit { Bin, HostLLVM };
} // namespace

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .ll>"));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("path"));
static cl::opt<std::string> chipOption("chip", cl::desc("gfx950 or gfx942"),
                                       cl::init("gfx950"));
static cl::list<std::string>
    argTypes("arg-type", cl::CommaSeparated,
             cl::desc("NAME=TYPE or KERNEL.NAME=TYPE: the element type of "
                      "pointer argument NAME (of every kernel, or of one)"));
static cl::opt<std::string>
    workgroupSize("workgroup-size",
                  cl::desc("X,Y,Z for kernels without reqd_work_group_size"));
static cl::opt<Emit>
    emit("emit", cl::desc("What to write"), cl::init(Emit::Bin),
         cl::values(clEnumValN(Emit::Bin, "bin", "the module and its manifest"),
                    clEnumValN(Emit::HostLLVM, "host-llvm",
                               "the retargeted host LLVM IR")));
static cl::opt<bool> listIntrinsics("list-intrinsics",
                                    cl::desc("List the emulated intrinsics"));

static int fail(const Twine &message) {
  errs() << "mla-emu-compile: error: " << message << "\n";
  return 1;
}

/// The manifest's argument list of `kernel`, before retargeting rewrites
/// it.
static Expected<json::Array> describeArgs(const Function &kernel,
                                          const StringMap<std::string> &types) {
  json::Array args;
  for (const Argument &arg : kernel.args()) {
    std::string name = arg.hasName() ? arg.getName().str()
                                     : formatv("arg{0}", arg.getArgNo()).str();
    Type *type = arg.getType();
    std::string kind = "scalar", element;
    if (type->isPointerTy()) {
      kind = "ptr";
      auto found = types.find((kernel.getName() + "." + name).str());
      if (found == types.end())
        found = types.find(name);
      if (found == types.end())
        return createStringError("argument '" + name + "' of kernel '" +
                                 kernel.getName() +
                                 "' is a pointer: give its element type with "
                                 "--arg-type=" +
                                 name + "=TYPE");
      element = found->second;
    } else if (type->isIntegerTy(32)) {
      element = "i32";
    } else if (type->isIntegerTy(64)) {
      element = "i64";
    } else if (type->isFloatTy()) {
      element = "f32";
    } else {
      // The retargeter names the problem.
      element = "unsupported";
    }
    args.push_back(
        json::Object{{"name", name}, {"kind", kind}, {"type", element}});
  }
  return args;
}

static Expected<std::array<uint32_t, 3>> parseSize(StringRef text) {
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  std::array<uint32_t, 3> size = {1, 1, 1};
  if (parts.size() > 3)
    return createStringError("--workgroup-size: more than three dimensions");
  for (auto [i, part] : llvm::enumerate(parts))
    if (part.getAsInteger(10, size[i]) || size[i] == 0)
      return createStringError("--workgroup-size: '" + part +
                               "' is not a positive integer");
  return size;
}

/// Writes `text` to `path` through a temporary renamed into place.
static Error writeAtomically(StringRef path, StringRef text) {
  std::string temporary = (path + ".tmp").str();
  {
    std::error_code ec;
    raw_fd_ostream os(temporary, ec);
    if (ec)
      return createStringError(temporary + ": " + ec.message());
    os << text;
  }
  if (std::error_code ec = sys::fs::rename(temporary, path))
    return createStringError(path + ": " + ec.message());
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "Emulate AMDGPU LLVM IR on the host\n");
  if (listIntrinsics) {
    for (const std::string &name : emu::listEmulatedIntrinsics())
      outs() << name << "\n";
    return 0;
  }
  if (inputFile.empty() || outputFile.empty())
    return fail("an input file and -o are required");
  std::optional<emu::Chip> chip = emu::lookupChip(chipOption);
  if (!chip)
    return fail("--chip: '" + chipOption + "' is not gfx950 or gfx942");
  StringMap<std::string> types;
  for (StringRef entry : argTypes) {
    auto [name, type] = entry.split('=');
    if (name.empty() || type.empty())
      return fail("--arg-type: '" + entry + "' is not NAME=TYPE");
    types[name] = type.str();
  }
  std::optional<std::array<uint32_t, 3>> defaultSize;
  if (!workgroupSize.empty()) {
    auto size = parseSize(workgroupSize);
    if (!size)
      return fail(toString(size.takeError()));
    defaultSize = *size;
  }

  LLVMContext context;
  SMDiagnostic diagnostic;
  std::unique_ptr<Module> module = parseIRFile(inputFile, diagnostic, context);
  if (!module) {
    diagnostic.print("mla-emu-compile", errs());
    return 1;
  }
  // mlir-translate leaves the triple unset.
  if (module->getTargetTriple().empty())
    module->setTargetTriple(Triple("amdgcn-amd-amdhsa"));

  StringMap<json::Array> kernelArgs;
  if (emit == Emit::Bin) {
    for (const Function &function : *module) {
      if (function.getCallingConv() != CallingConv::AMDGPU_KERNEL ||
          function.isDeclaration())
        continue;
      auto args = describeArgs(function, types);
      if (!args)
        return fail(toString(args.takeError()));
      kernelArgs[function.getName()] = std::move(*args);
    }
  }

  auto machine = emu::createHostMachine();
  if (!machine)
    return fail(toString(machine.takeError()));
  std::vector<emu::KernelSummary> kernels;
  auto host = emu::retargetForHost(*module, *chip, **machine, kernels);
  if (!host)
    return fail(toString(host.takeError()));

  if (emit == Emit::HostLLVM) {
    std::error_code ec;
    ToolOutputFile out(outputFile, ec, sys::fs::OF_Text);
    if (ec)
      return fail(outputFile + ": " + ec.message());
    (*host)->print(out.os(), nullptr);
    out.keep();
    return 0;
  }

  json::Array entries;
  for (const emu::KernelSummary &kernel : kernels) {
    std::array<uint32_t, 3> size;
    if (kernel.requiredWorkgroupSize)
      size = *kernel.requiredWorkgroupSize;
    else if (defaultSize)
      size = *defaultSize;
    else
      return fail("kernel '" + kernel.name +
                  "' has no reqd_work_group_size: give --workgroup-size");
    entries.push_back(
        json::Object{{"symbol", kernel.name},
                     {"args", std::move(kernelArgs[kernel.name])},
                     {"workgroup_size", json::Array{size[0], size[1], size[2]}},
                     {"lds_bytes", kernel.staticLdsBytes},
                     {"registers", nullptr},
                     {"spills", nullptr}});
  }
  json::Value manifest =
      json::Object{{"target", (emu::chipName(*chip) + "-emu").str()},
                   {"binary", sys::path::filename(outputFile).str()},
                   {"kernels", std::move(entries)}};

  if (Error error = addAbiRecord(**host, manifest))
    return fail(toString(std::move(error)));

  std::string binaryTemp = outputFile + ".bin.tmp";
  FileRemover removeBinary(binaryTemp);
  if (Error error = emu::writeEmulatedBinary(**host, **machine, binaryTemp))
    return fail("linking " + outputFile + ": " + toString(std::move(error)));
  if (Error error = writeAtomically(outputFile + ".json",
                                    formatv("{0:2}\n", manifest).str()))
    return fail(toString(std::move(error)));
  if (std::error_code ec = sys::fs::rename(binaryTemp, outputFile))
    return fail(outputFile + ": " + ec.message());
  return 0;
}
