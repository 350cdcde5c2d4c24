//===- EmulatedBinary.h - Emulated modules as host shared objects -*- C++ -*-=//

#ifndef MLA_EMULATOR_EMULATEDBINARY_H
#define MLA_EMULATOR_EMULATEDBINARY_H

#include "mla/Emulator/Retarget.h"

#include "llvm/Target/TargetMachine.h"

namespace mla::emu {

/// The machine emulated modules run on: baseline x86-64, position
/// independent (the host target's choice, so that they run wherever host
/// modules do).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createHostMachine();

/// Retargets `module` (see retargetModule) for `machine`.
llvm::Expected<std::unique_ptr<llvm::Module>>
retargetForHost(llvm::Module &module, Chip chip, llvm::TargetMachine &machine,
                std::vector<KernelSummary> &kernels);

/// Compiles `hostModule` for `machine` and links it with the emulation
/// runtime into the shared object `outputPath`.
llvm::Error writeEmulatedBinary(llvm::Module &hostModule,
                                llvm::TargetMachine &machine,
                                llvm::StringRef outputPath);

} // namespace mla::emu

#endif // MLA_EMULATOR_EMULATEDBINARY_H
