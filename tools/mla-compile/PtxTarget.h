//===- PtxTarget.h - mla-compile's sm_90 binaries ---------------*- C++ -*-===//

#ifndef MLA_TOOLS_MLACOMPILE_PTXTARGET_H
#define MLA_TOOLS_MLACOMPILE_PTXTARGET_H

#include "mla/Target/PtxCodegen.h"
#include "mla/Target/TargetInfo.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"
#include "llvm/Target/TargetMachine.h"

namespace mla {

/// Writes the PTX of `llvmModule` (the kernels' optimized LLVM IR) to
/// `outputPath` and its manifest to `outputPath`.json. With `ptxas` (a path;
/// empty for none) also the cubin, at `outputPath` with the extension
/// .cubin, and its own manifest; both manifests then carry the registers,
/// shared memory and spills ptxas reports. An `outputPath` ending in .cubin
/// asks for the cubin and its manifest alone, which needs `ptxas`. Returns the exit status; prints
/// one error line on failure and leaves no output behind.
int writePtxModule(const TargetInfo &target, llvm::TargetMachine &machine,
                   llvm::Module &llvmModule, llvm::ArrayRef<PtxKernel> kernels,
                   llvm::json::Value manifest, llvm::StringRef outputPath,
                   llvm::StringRef ptxas);

} // namespace mla

#endif // MLA_TOOLS_MLACOMPILE_PTXTARGET_H
