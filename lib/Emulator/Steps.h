//===- Steps.h - The steps of retargeting a module --------------*- C++ -*-===//
//
// retargetModule (Retarget.cpp) runs these in order on the AMDGPU module:
// lay out and replace LDS variables, rewrite every function's instructions
// into checked accesses and runtime calls, then clone the result into a host
// module with host pointers.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_EMULATOR_STEPS_H
#define MLA_LIB_EMULATOR_STEPS_H

#include "RuntimeCalls.h"
#include "mla/Emulator/Retarget.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"

namespace mla::emu {

/// A kernel of the module and what its descriptor says about it.
struct KernelInfo {
  llvm::Function *function;
  uint32_t staticLdsBytes = 0;
  std::array<uint32_t, 3> requiredWorkgroupSize = {0, 0, 0};
  /// MLA_EMU_* kernel flags.
  uint32_t flags = 0;
};

/// Gives every addrspace(3) variable an offset in the LDS block of each
/// kernel that uses it (variables functions other than kernels use come
/// first, at the same offset in every kernel), replaces its uses by offsets
/// from the runtime's LDS base, and erases it. Records each kernel's static
/// LDS size and fails when it exceeds the chip's.
llvm::Error lowerLdsVariables(llvm::Module &module, Chip chip,
                              llvm::MutableArrayRef<KernelInfo> kernels,
                              RuntimeCalls &calls);

/// Rewrites the instructions of `function`: loads, stores and atomics go
/// through the runtime's access checks, fences synchronize the wave,
/// llvm.amdgcn.* calls become runtime calls, and what would trap or
/// silently differ on the host (division by zero, `unreachable`, LDS
/// pointer/integer casts) is made explicit. Fails on constructs that are
/// not emulated, including memory layouts that differ between the chip and
/// `hostLayout`.
llvm::Error rewriteFunction(llvm::Function &function, Chip chip,
                            const llvm::DataLayout &hostLayout,
                            RuntimeCalls &calls);

/// The host module for the rewritten `source`: every pointer in address
/// space 0, kernels as internal functions called by exported lane entries
/// `void NAME(void **args)`, and the module descriptor mla_emu_module.
llvm::Expected<std::unique_ptr<llvm::Module>>
buildHostModule(llvm::Module &source, Chip chip,
                llvm::ArrayRef<KernelInfo> kernels, const SiteTable &sites,
                llvm::StringRef hostTriple, const llvm::DataLayout &hostLayout);

} // namespace mla::emu

#endif // MLA_LIB_EMULATOR_STEPS_H
