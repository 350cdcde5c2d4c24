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

using namespace mlir;
using namespace mla;

void mla::setLLVMFlagDefault(llvm::StringRef name) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find(name);
  if (found == options.end() || found->second->getNumOccurrences())
    return;
  static_cast<llvm::cl::opt<bool> *>(found->second)->setValue(true);
}

std::unique_ptr<llvm::TargetMachine>
mla::createTargetMachine(const TargetInfo &target, std::string &error) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  llvm::Triple triple(target.triple);
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

LogicalResult mla::runProgram(llvm::StringRef program,
                              llvm::ArrayRef<llvm::StringRef> args,
                              std::string &error) {
  int status = llvm::sys::ExecuteAndWait(program, args, /*Env=*/std::nullopt,
                                         /*Redirects=*/{}, /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &error);
  if (status != 0 && error.empty())
    error = (program + " exited with status " + llvm::Twine(status)).str();
  return success(status == 0);
}
