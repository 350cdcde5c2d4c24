//===- LlvmSetup.h - Target machines and pass pipelines --------*- C++ -*-===//

#ifndef MLA_LIB_EMULATOR_LLVMSETUP_H
#define MLA_LIB_EMULATOR_LLVMSETUP_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

namespace mla::emu {

/// A target machine for `cpu` of `triple`, after registering LLVM's targets.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef triple, llvm::StringRef cpu,
                    std::optional<llvm::Reloc::Model> relocation);

/// Runs the new pass manager's textual `pipeline` ("default<O2>") on
/// `module`, with `machine`'s target analyses.
llvm::Error runPassPipeline(llvm::Module &module, llvm::TargetMachine &machine,
                            llvm::StringRef pipeline);

} // namespace mla::emu

#endif // MLA_LIB_EMULATOR_LLVMSETUP_H
