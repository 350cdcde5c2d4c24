//===- TargetInfo.cpp - What the compiler knows about each chip -----------===//

#include "mla/Target/TargetInfo.h"

using namespace mla;

llvm::ArrayRef<TargetInfo> mla::getTargets() {
  // The host object is built for baseline x86-64 so that it runs on any
  // machine it is copied to.
  static const TargetInfo targets[] = {
      {"host", TargetKind::Host, "x86_64-unknown-linux-gnu", "x86-64", "",
       /*hasLowering=*/true},
      {"gfx950", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx950", "",
       /*hasLowering=*/true},
      {"gfx942", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx942", "",
       /*hasLowering=*/true},
      {"sm_90", TargetKind::NVPTX, "nvptx64-nvidia-cuda", "sm_90", "+ptx80",
       /*hasLowering=*/true},
      {"gfx950-emu", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx950", "",
       /*hasLowering=*/true, /*emulated=*/true},
      {"gfx942-emu", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx942", "",
       /*hasLowering=*/true, /*emulated=*/true},
  };
  return targets;
}

const TargetInfo *mla::lookupTarget(llvm::StringRef name) {
  for (const TargetInfo &target : getTargets())
    if (target.name == name)
      return &target;
  return nullptr;
}
