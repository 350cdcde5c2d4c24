//===- AbiRecord.h - The ABI record a binary carries ------------*- C++ -*-===//
//
// Every binary mla-compile writes carries what a launcher relies on for
// each kernel, so that mla-run can refuse a manifest that does not match
// it (docs/ABI.md, "ABI record"; mla/Runtime/AbiRecord.h reads it).
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_ABIRECORD_H
#define MLA_TARGET_ABIRECORD_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mla {

/// Adds the ABI record of `manifest`'s kernels to `module`, which defines
/// them: a constant global `__mla_abi` holding, as NUL-terminated JSON, the
/// manifest's target and each kernel's symbol, arguments, launch object and
/// workgroup size. A kernel whose function declares its workgroup size
/// (reqd_work_group_size, or NVVM's reqntid) has that size in both the
/// record and `manifest`; otherwise the record takes the manifest's. The
/// global lives in the address space GPU runtimes read globals from (1 on
/// AMDGPU and NVPTX). Call it once, on the module the binary is made from.
llvm::Error addAbiRecord(llvm::Module &module, llvm::json::Value &manifest);

} // namespace mla

#endif // MLA_TARGET_ABIRECORD_H
