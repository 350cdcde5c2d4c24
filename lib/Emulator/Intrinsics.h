//===- Intrinsics.h - Emulation of llvm.amdgcn.* intrinsics -----*- C++ -*-===//

#ifndef MLA_LIB_EMULATOR_INTRINSICS_H
#define MLA_LIB_EMULATOR_INTRINSICS_H

#include "RuntimeCalls.h"
#include "mla/Emulator/Retarget.h"

#include "llvm/IR/Instructions.h"

#include <string>
#include <vector>

namespace mla::emu {

/// Replaces `call` of an llvm.amdgcn.* intrinsic by its emulation for
/// `chip` (a runtime call, or nothing for scheduling hints). Fails, naming
/// the intrinsic, when the emulator does not know it, the chip lacks it, or
/// an immediate operand selects a mode that is not emulated.
llvm::Error lowerAmdgcnIntrinsic(llvm::CallInst &call, Chip chip,
                                 RuntimeCalls &calls);

} // namespace mla::emu

#endif // MLA_LIB_EMULATOR_INTRINSICS_H
