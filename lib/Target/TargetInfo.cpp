//===- TargetInfo.cpp - What the compiler knows about each chip -----------===//

#include "mla/Target/TargetInfo.h"

using namespace mla;

llvm::ArrayRef<TargetInfo> mla::getTargets() {
  // The host object is built for baseline x86-64 so that it runs on any
  // machine it is copied to. sm_90 code is sm_90a's (H100/H200), whose
  // warpgroup products (wgmma) no other architecture runs.
  static const TargetInfo targets[] = {
      {"host", TargetKind::Host, "x86_64-unknown-linux-gnu", "", "x86-64", ""},
      {"gfx950", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx950", "gfx950",
       ""},
      {"gfx942", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx942", "gfx942",
       ""},
      {"sm_90", TargetKind::NVPTX, "nvptx64-nvidia-cuda", "sm_90", "sm_90a",
       "+ptx80"},
      {"gfx950-emu", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx950",
       "gfx950", "", /*emulated=*/true},
      {"gfx942-emu", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx942",
       "gfx942", "", /*emulated=*/true},
  };
  return targets;
}

const TargetInfo *mla::lookupTarget(llvm::StringRef name) {
  for (const TargetInfo &target : getTargets())
    if (target.name == name)
      return &target;
  return nullptr;
}
