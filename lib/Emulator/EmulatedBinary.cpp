//===- EmulatedBinary.cpp - Emulated modules as host shared objects -------===//

#include "mla/Emulator/EmulatedBinary.h"
#include "LlvmSetup.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#ifndef MLA_CLANG_PATH
#define MLA_CLANG_PATH "clang"
#endif
#ifndef MLA_EMU_RUNTIME_PATH
#define MLA_EMU_RUNTIME_PATH "libMLAEmuRuntime.a"
#endif

using namespace llvm;
using namespace mla::emu;

Expected<std::unique_ptr<TargetMachine>> mla::emu::createHostMachine() {
  return createTargetMachine("x86_64-unknown-linux-gnu", "x86-64", Reloc::PIC_);
}

Expected<std::unique_ptr<Module>>
mla::emu::retargetForHost(Module &module, Chip chip, TargetMachine &machine,
                          std::vector<KernelSummary> &kernels) {
  return retargetModule(module, chip, machine.getTargetTriple().str(),
                        machine.createDataLayout(), kernels);
}

/// Runs `args` (args[0] is the program).
static Error run(ArrayRef<StringRef> args) {
  std::string error;
  int status = sys::ExecuteAndWait(args[0], args, /*Env=*/std::nullopt,
                                   /*Redirects=*/{}, /*SecondsToWait=*/0,
                                   /*MemoryLimit=*/0, &error);
  if (status == 0)
    return Error::success();
  if (error.empty())
    error = (args[0] + " exited with status " + Twine(status)).str();
  return createStringError(error);
}

Error mla::emu::writeEmulatedBinary(Module &hostModule, TargetMachine &machine,
                                    StringRef outputPath) {
  // The runtime calls' temporaries and the checks' address arithmetic are
  // new to the already optimized input.
  if (Error error = runPassPipeline(hostModule, machine, "default<O2>"))
    return error;

  SmallString<128> objectPath, scriptPath;
  int objectFd, scriptFd;
  if (sys::fs::createTemporaryFile("mla-emu", "o", objectFd, objectPath))
    return createStringError("cannot create a temporary object file");
  FileRemover removeObject(objectPath);
  if (sys::fs::createTemporaryFile("mla-emu", "map", scriptFd, scriptPath))
    return createStringError("cannot create a temporary version script");
  FileRemover removeScript(scriptPath);
  {
    raw_fd_ostream os(objectFd, /*shouldClose=*/true);
    legacy::PassManager passes;
    if (machine.addPassesToEmitFile(passes, os, nullptr,
                                    CodeGenFileType::ObjectFile))
      return createStringError("the host target cannot emit objects");
    passes.run(hostModule);
  }
  {
    // Only the lane entries, the descriptor and the runtime's interface
    // leave the module.
    raw_fd_ostream os(scriptFd, /*shouldClose=*/true);
    os << "{\n  global:\n    mla_emu_*;\n";
    for (GlobalValue &value : hostModule.global_values())
      if (!value.isDeclaration() && value.hasExternalLinkage())
        os << "    " << value.getName() << ";\n";
    os << "  local: *;\n};\n";
  }
  std::string clang = MLA_CLANG_PATH;
  std::string script = ("-Wl,--version-script=" + scriptPath).str();
  // The whole runtime: the loader calls its interface, which nothing in
  // the object references.
  return run({clang, "-shared", "-nostartfiles", "-fuse-ld=lld",
              "--rtlib=compiler-rt", "-Wl,-z,defs", script, "-o", outputPath,
              objectPath, "-Wl,--whole-archive", MLA_EMU_RUNTIME_PATH,
              "-Wl,--no-whole-archive", "-lm"});
}
