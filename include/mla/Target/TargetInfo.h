//===- TargetInfo.h - What LLVM is told about a target ----------*- C++ -*-===//
//
// The facts of a target: its name and what its backend (TargetBackend.h)
// hands to LLVM and to the GPU lowering. How a target behaves is its
// backend's.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_TARGETINFO_H
#define MLA_TARGET_TARGETINFO_H

#include "llvm/ADT/StringRef.h"

namespace mla {

struct TargetInfo {
  /// The name users pass to --target.
  llvm::StringRef name;
  /// One line for --help.
  llvm::StringRef description;
  llvm::StringRef triple;
  /// The chip the GPU lowering chooses layouts and instructions for
  /// (tilegpu::ChipInfo); empty for the host.
  llvm::StringRef chip;
  /// LLVM's name of the processor code is generated for.
  llvm::StringRef cpu;
  llvm::StringRef features;
};

} // namespace mla

#endif // MLA_TARGET_TARGETINFO_H
