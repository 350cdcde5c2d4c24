//===- Registry.cpp - The targets mla-compile knows by name ---------------===//

#include "Backends.h"

using namespace mla;

llvm::ArrayRef<const TargetBackend *> mla::getTargetBackends() {
  // The host object is built for baseline x86-64 so that it runs on any
  // machine it is copied to. sm_90 code is sm_90a's (H100/H200), whose
  // warpgroup products (wgmma) no other architecture runs.
  using Factory = std::unique_ptr<TargetBackend> (*)(TargetInfo);
  static const std::pair<Factory, TargetInfo> table[] = {
      {createHostBackend,
       {"host", "x86-64 shared object, for any Linux machine (.so)",
        "x86_64-unknown-linux-gnu", "", "x86-64", ""}},
      {createAMDGPUBackend,
       {"gfx950", "AMD Instinct MI355X code object (.hsaco)",
        "amdgcn-amd-amdhsa", "gfx950", "gfx950", ""}},
      {createAMDGPUBackend,
       {"gfx942", "AMD Instinct MI300X code object (.hsaco)",
        "amdgcn-amd-amdhsa", "gfx942", "gfx942", ""}},
      {createNVPTXBackend,
       {"sm_90", "NVIDIA H100/H200 PTX, and a cubin where ptxas is",
        "nvptx64-nvidia-cuda", "sm_90", "sm_90a", "+ptx80"}},
      {createEmulatedAMDBackend,
       {"gfx950-emu",
        "gfx950's lowering, executed on the host by mla-run (.so)",
        "amdgcn-amd-amdhsa", "gfx950", "gfx950", ""}},
      {createEmulatedAMDBackend,
       {"gfx942-emu",
        "gfx942's lowering, executed on the host by mla-run (.so)",
        "amdgcn-amd-amdhsa", "gfx942", "gfx942", ""}},
  };
  static const std::vector<std::unique_ptr<TargetBackend>> owned = [] {
    std::vector<std::unique_ptr<TargetBackend>> backends;
    for (const auto &[create, info] : table)
      backends.push_back(create(info));
    return backends;
  }();
  static const std::vector<const TargetBackend *> backends = [] {
    std::vector<const TargetBackend *> pointers;
    for (const auto &backend : owned)
      pointers.push_back(backend.get());
    return pointers;
  }();
  return backends;
}

const TargetBackend *mla::lookupTargetBackend(llvm::StringRef name) {
  for (const TargetBackend *backend : getTargetBackends())
    if (backend->getName() == name)
      return backend;
  return nullptr;
}
