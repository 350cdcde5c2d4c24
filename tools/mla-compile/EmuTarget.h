//===- EmuTarget.h - mla-compile's gfx950-emu and gfx942-emu ----*- C++ -*-===//

#ifndef MLA_TOOLS_MLACOMPILE_EMUTARGET_H
#define MLA_TOOLS_MLACOMPILE_EMUTARGET_H

#include "mla/Target/TargetInfo.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"

namespace mla {

/// Writes the emulated module for `target` (an emulated target) from
/// `chipModule`, the chip's optimized LLVM IR, to `outputPath`, with its
/// ABI record, and its manifest (`manifest` with each kernel's LDS size and
/// required workgroup size filled in by the emulator) next to it, through
/// temporaries published as docs/ABI.md says. Returns the exit status;
/// prints one error line on failure and leaves no output behind.
int writeEmulatedModule(const TargetInfo &target, llvm::Module &chipModule,
                        llvm::json::Value manifest, llvm::StringRef outputPath);

} // namespace mla

#endif // MLA_TOOLS_MLACOMPILE_EMUTARGET_H
