//===- ParallelCodegen.h - Kernels compiled side by side --------*- C++ -*-===//
//
// A program's kernels share nothing but the helpers they call, which are
// internal to the module: each kernel can be optimized and compiled on its
// own, in an LLVM context and a target machine of its own, on its own
// thread. One object per kernel, in the module's kernel order, each the
// same whatever the number of threads, so the linked binary does not
// depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_PARALLELCODEGEN_H
#define MLA_TARGET_PARALLELCODEGEN_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"

#include <string>
#include <vector>

namespace mla {

class TargetBackend;

/// Optimizes (O2) and compiles each of `kernels`, functions of `module`,
/// into an object of its own for `target`, on up to `jobs` threads (0, or
/// more than the machine has: one per hardware thread). Each object holds
/// its kernel and the internal helpers and globals it uses; the first also
/// holds `module`'s other external definitions (the ABI record). `module`
/// must be translated but not yet optimized: inlining happens per kernel.
/// With `progress`, a line per kernel says when it is compiled. `type`
/// asks for assembly instead (NVPTX's PTX, whose parts mergePtxParts joins).
mlir::LogicalResult compileKernelsApart(
    const TargetBackend &backend, const llvm::Module &module,
    llvm::ArrayRef<std::string> kernels, unsigned jobs,
    std::vector<llvm::SmallString<0>> &objects, std::string &error,
    llvm::raw_ostream *progress = nullptr,
    llvm::CodeGenFileType type = llvm::CodeGenFileType::ObjectFile);

} // namespace mla

#endif // MLA_TARGET_PARALLELCODEGEN_H
