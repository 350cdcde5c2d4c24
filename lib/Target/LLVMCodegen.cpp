//===- LLVMCodegen.cpp - LLVM dialect to machine code ---------------------===//

#include "mla/Target/LLVMCodegen.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"

#ifndef MLA_LLD_PATH
#define MLA_LLD_PATH "ld.lld"
#endif
#ifndef MLA_CLANG_PATH
#define MLA_CLANG_PATH "clang"
#endif

using namespace mlir;
using namespace mla;

/// Sets the boolean LLVM option `name` to true unless the command line set
/// it. Called before any target machine is created, from one thread.
static void setDefaultFlag(llvm::StringRef name) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find(name);
  if (found == options.end() || found->second->getNumOccurrences())
    return;
  static_cast<llvm::cl::opt<bool> *>(found->second)->setValue(true);
}

/// NVPTX addresses shared memory with 32-bit pointers (the backend's
/// nvptx-short-ptr, which decides the target machine's data layout) unless
/// the command line says otherwise: shared memory is at most 228 KiB, and a
/// 64-bit address costs two registers and a conversion per access. With
/// double-buffered fp8 tiles the 64-bit addresses took 255 registers and
/// spilled; 32-bit ones take 164.
static void useShortSharedPointers() { setDefaultFlag("nvptx-short-ptr"); }

/// AMDGPU kernels run without MachineLICM unless the command line says
/// otherwise. The IR's LICM already hoists what the KV loop does not change
/// (the loop mix of every kernel is within 1% either way), and leaves loops
/// that hold a loop alone (convert-gpu-kernels-to-llvm); MachineLICM then
/// hoisted the lane address arithmetic of a partial program's per-item
/// steps out of its run of work items, live across the KV loop where the
/// kernels are at their register limit: gfx950's bf16 kernel spilled 18
/// VGPRs to scratch.
static void keepMachineInvariantsInPlace() {
  setDefaultFlag("disable-machine-licm");
}

std::unique_ptr<llvm::TargetMachine>
mla::createTargetMachine(const TargetInfo &target, std::string &error) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  llvm::Triple triple(target.triple);
  if (triple.isNVPTX())
    useShortSharedPointers();
  if (triple.isAMDGPU())
    keepMachineInvariantsInPlace();
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return nullptr;
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target.cpu, target.features, llvm::TargetOptions(),
      llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    error = ("LLVM cannot create a target machine for " + target.name).str();
  return machine;
}

std::unique_ptr<llvm::Module>
mla::translateToLLVM(ModuleOp module, llvm::LLVMContext &context,
                     llvm::TargetMachine &machine,
                     llvm::ArrayRef<std::string> exported) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule) {
    module.emitError("translation to LLVM IR failed");
    return nullptr;
  }
  // Only the kernels are the module's interface; helpers the lowering made
  // stay private, so that they can be inlined and never clash.
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration() &&
        !llvm::is_contained(exported, function.getName()))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());
  return llvmModule;
}

LogicalResult mla::optimizeModule(llvm::Module &module,
                                  llvm::TargetMachine &machine,
                                  std::string &error) {
  auto optimize =
      makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0, &machine);
  if (llvm::Error err = optimize(&module)) {
    error = "LLVM optimization failed: " + llvm::toString(std::move(err));
    return failure();
  }
  return success();
}

LogicalResult mla::emitMachineCode(llvm::Module &module,
                                   llvm::TargetMachine &machine,
                                   llvm::CodeGenFileType type,
                                   llvm::raw_pwrite_stream &os,
                                   std::string &error) {
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, nullptr, type)) {
    error = "the target cannot emit this file type";
    return failure();
  }
  passes.run(module);
  return success();
}

/// Runs `program` with `args` (args[0] is the program), reporting failure
/// on `error`.
static LogicalResult run(llvm::StringRef program,
                         llvm::ArrayRef<llvm::StringRef> args,
                         std::string &error) {
  int status = llvm::sys::ExecuteAndWait(program, args, /*Env=*/std::nullopt,
                                         /*Redirects=*/{}, /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &error);
  if (status != 0 && error.empty())
    error = (program + " exited with status " + llvm::Twine(status)).str();
  return success(status == 0);
}

LogicalResult mla::linkSharedObject(const TargetInfo &target,
                                    llvm::ArrayRef<std::string> objectPaths,
                                    llvm::StringRef outputPath,
                                    std::string &error) {
  std::vector<llvm::StringRef> args;
  std::string linker;
  if (target.kind == TargetKind::Host) {
    // The clang driver links with lld against libc and libm and pulls the
    // compiler-runtime helpers the x86 backend calls for bf16 (without
    // exporting them). Every symbol must resolve at link time, so a module
    // that cannot load fails here rather than in dlopen.
    linker = MLA_CLANG_PATH;
    args = {linker,         "-shared",           "-nostartfiles",
            "-fuse-ld=lld", "--rtlib=compiler-rt", "-Wl,-z,defs",
            "-Wl,--exclude-libs,ALL"};
  } else {
    linker = MLA_LLD_PATH;
    args = {linker, "-shared"};
  }
  args.push_back("-o");
  args.push_back(outputPath);
  for (const std::string &object : objectPaths)
    args.push_back(object);
  if (target.kind == TargetKind::Host)
    args.push_back("-lm");
  return run(linker, args, error);
}
