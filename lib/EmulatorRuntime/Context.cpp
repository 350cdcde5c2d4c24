//===- Context.cpp - Contexts and launch checks ---------------------------===//

#include "Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace mla::emu;

#define MLA_EMU_API extern "C" __attribute__((visibility("default")))

MLA_EMU_API const char *mla_emu_check_launch(const MlaEmuLaunch *launch) {
  static thread_local char message[512];
  const MlaEmuKernel &kernel = *launch->kernel;
  uint64_t size = uint64_t(launch->workgroupSize[0]) *
                  launch->workgroupSize[1] * launch->workgroupSize[2];
  if (size == 0 || size > kMaxWorkgroupSize) {
    std::snprintf(message, sizeof(message),
                  "kernel '%s': workgroup size %ux%ux%u is not between 1 and "
                  "%u work-items",
                  kernel.name, launch->workgroupSize[0],
                  launch->workgroupSize[1], launch->workgroupSize[2],
                  kMaxWorkgroupSize);
    return message;
  }
  const uint32_t *required = kernel.requiredWorkgroupSize;
  if (required[0] && (required[0] != launch->workgroupSize[0] ||
                      required[1] != launch->workgroupSize[1] ||
                      required[2] != launch->workgroupSize[2])) {
    std::snprintf(message, sizeof(message),
                  "kernel '%s' requires workgroup size %ux%ux%u, launched "
                  "with %ux%ux%u",
                  kernel.name, required[0], required[1], required[2],
                  launch->workgroupSize[0], launch->workgroupSize[1],
                  launch->workgroupSize[2]);
    return message;
  }
  uint64_t lds = uint64_t(kernel.staticLdsBytes) + launch->dynamicLdsBytes;
  if (lds > mla_emu_module.ldsLimit) {
    std::snprintf(message, sizeof(message),
                  "kernel '%s' needs %llu bytes of LDS; gfx%u has %u per "
                  "workgroup",
                  kernel.name, static_cast<unsigned long long>(lds),
                  mla_emu_module.chip, mla_emu_module.ldsLimit);
    return message;
  }
  return nullptr;
}

MLA_EMU_API void mla_emu_context_destroy(MlaEmuContext *context) {
  if (!context)
    return;
  if (context->stackRegion)
    munmap(context->stackRegion, context->stackRegionBytes);
  if (context->shadow)
    munmap(context->shadow, context->shadowBytes);
  std::free(context->lds);
  std::free(context);
}

MLA_EMU_API MlaEmuContext *mla_emu_context_create(void) {
  auto *context =
      static_cast<MlaEmuContext *>(std::calloc(1, sizeof(MlaEmuContext)));
  if (!context)
    return nullptr;
  // Lane stacks: one aligned block per possible work-item. Each block starts
  // with a page holding its lane's address, then a guard page; the stack
  // grows down from the block's end towards the guard.
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  context->stackRegionBytes = (kMaxWorkgroupSize + 1) * kLaneStackBytes;
  void *region =
      mmap(nullptr, context->stackRegionBytes, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) {
    std::free(context);
    return nullptr;
  }
  context->stackRegion = static_cast<char *>(region);
  uintptr_t aligned =
      (reinterpret_cast<uintptr_t>(region) + kLaneStackBytes - 1) &
      ~uintptr_t(kLaneStackBytes - 1);
  context->stacks = reinterpret_cast<char *>(aligned);
  for (unsigned i = 0; i < kMaxWorkgroupSize; ++i)
    if (mprotect(context->stacks + i * kLaneStackBytes + page, page,
                 PROT_NONE) != 0) {
      mla_emu_context_destroy(context);
      return nullptr;
    }

  context->ldsCapacity = mla_emu_module.ldsLimit;
  context->lds = static_cast<uint8_t *>(
      std::aligned_alloc(64, (context->ldsCapacity + 63) / 64 * 64 + 64));
  context->shadowBytes = size_t(context->ldsCapacity) * sizeof(ShadowByte);
  void *shadow = mmap(nullptr, context->shadowBytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  context->shadow =
      shadow == MAP_FAILED ? nullptr : static_cast<ShadowByte *>(shadow);
  if (!context->lds || !context->shadow) {
    mla_emu_context_destroy(context);
    return nullptr;
  }
  return context;
}

MLA_EMU_API const char *mla_emu_context_error(const MlaEmuContext *context) {
  return context->error;
}
