//===- Manifest.h - The kernel manifest next to each binary -----*- C++ -*-===//

#ifndef MLA_TARGET_MANIFEST_H
#define MLA_TARGET_MANIFEST_H

#include "mla/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace mla {

/// The manifest of docs/ABI.md for the `tile.kernel`s of `module`, which
/// must still be in the tile dialect: argument names, kinds and types and
/// launch rules are read from the kernels before lowering erases them.
llvm::json::Value buildManifest(mlir::ModuleOp module, const TargetInfo &target,
                                llvm::StringRef binaryName);

struct KernelResources;

/// Fills each kernel's workgroup size, LDS bytes, register and spill counts
/// of `manifest` from what the backend reported; `resources` names the
/// kernels by symbol.
void addKernelResources(llvm::json::Value &manifest,
                        llvm::ArrayRef<KernelResources> resources);

} // namespace mla

#endif // MLA_TARGET_MANIFEST_H
