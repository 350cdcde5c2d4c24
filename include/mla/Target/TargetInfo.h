//===- TargetInfo.h - What the compiler knows about each chip ---*- C++ -*-===//
//
// Chip differences are looked up here rather than tested by name in
// patterns and tools.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_TARGETINFO_H
#define MLA_TARGET_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mla {

enum class TargetKind { Host, AMDGPU, NVPTX };

struct TargetInfo {
  /// The name users pass to --target.
  llvm::StringRef name;
  TargetKind kind;
  llvm::StringRef triple;
  /// The chip the GPU lowering chooses layouts and instructions for
  /// (tilegpu::ChipInfo); empty for the host.
  llvm::StringRef chip;
  /// LLVM's name of the processor code is generated for.
  llvm::StringRef cpu;
  llvm::StringRef features;
  /// An emulation target (gfx950-emu, gfx942-emu) lowers as its chip
  /// (`cpu`) does; its binary is that LLVM IR module retargeted to the host
  /// (docs/emulation.md).
  bool emulated = false;
};

/// Every target the project knows, in the order help texts list them.
llvm::ArrayRef<TargetInfo> getTargets();

/// The target called `name`, or null.
const TargetInfo *lookupTarget(llvm::StringRef name);

} // namespace mla

#endif // MLA_TARGET_TARGETINFO_H
