//===- Retarget.h - AMDGPU LLVM IR to host LLVM IR --------------*- C++ -*-===//
//
// The emulator executes the LLVM IR module the AMDGPU backend would compile
// (everything above instruction selection) on the host: kernels become host
// functions run once per lane, address spaces become host memory, and every
// llvm.amdgcn.* intrinsic becomes a call into the emulation runtime
// (lib/EmulatorRuntime). docs/emulation.md describes the mapping.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_EMULATOR_RETARGET_H
#define MLA_EMULATOR_RETARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mla::emu {

enum class Chip { Gfx942, Gfx950 };

/// The emulated chip called `name` ("gfx942" or "gfx950").
std::optional<Chip> lookupChip(llvm::StringRef name);
llvm::StringRef chipName(Chip chip);
/// LDS per workgroup, in bytes (the chip table's).
uint32_t ldsLimit(Chip chip);

/// What the manifest needs to know about a retargeted kernel.
struct KernelSummary {
  std::string name;
  uint32_t staticLdsBytes = 0;
  /// The kernel's reqd_work_group_size, when it has one.
  std::optional<std::array<uint32_t, 3>> requiredWorkgroupSize;
};

/// "llvm.amdgcn.NAME[.OVERLOAD] (chips)" for every emulated intrinsic, in
/// the order of the emulator's table.
std::vector<std::string> listEmulatedIntrinsics();

/// Rewrites `module`, an amdgcn-amd-amdhsa module for `chip`, in place into
/// calls of the emulation runtime, then returns its host counterpart (in
/// the same LLVMContext) for `hostTriple` and `hostLayout`. `module` is
/// left rewritten and must not be compiled for the chip afterwards. Fails
/// with one message naming what is not emulated and where.
llvm::Expected<std::unique_ptr<llvm::Module>>
retargetModule(llvm::Module &module, Chip chip, llvm::StringRef hostTriple,
               const llvm::DataLayout &hostLayout,
               std::vector<KernelSummary> &kernels);

} // namespace mla::emu

#endif // MLA_EMULATOR_RETARGET_H
