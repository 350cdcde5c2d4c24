//===- Buffers.cpp - Buffer resources and loads to LDS --------------------===//
//
// A raw buffer access reads or writes base + soffset + voffset with a bound
// check of voffset against num_records (bytes; soffset is not checked, as
// the intrinsics document): entirely out of range, a load returns 0 and a
// store is dropped. An access that is only partly in range behaves
// differently between chips, so the emulator reports it instead of picking
// one behaviour. In-range bytes must lie inside the kernel's buffers.
// Loads to LDS read their source here and land later (LdsLoads.cpp).
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstring>

using namespace mla::emu;

/// make.buffer.rsrc: the kernel holds a pointer to an interned record,
/// valid for the rest of the workgroup's run.
MLA_EMU_RT void *__mla_emu_make_buffer_rsrc(void *base, uint32_t stride,
                                            uint64_t numRecords, uint32_t flags,
                                            uint32_t site) {
  Lane &lane = currentLane();
  Context &context = contextOf(lane);
  uintptr_t address = reinterpret_cast<uintptr_t>(base);
  for (uint32_t i = context.numResources; i-- > 0;) {
    BufferResource &resource = context.resources[i];
    if (resource.base == address && resource.numRecords == numRecords &&
        resource.stride == stride && resource.flags == flags)
      return &resource;
  }
  if (context.numResources == kMaxResources)
    laneFail(lane, site,
             "more than %u distinct buffer resources in one workgroup",
             kMaxResources);
  BufferResource &resource = context.resources[context.numResources++];
  resource = {address, numRecords, stride & 0x3FFF, flags};
  return &resource;
}

/// The address of an access of `bytes` bytes at voffset, or null when it
/// is entirely out of range.
static void *bufferAddress(Lane &lane, const void *handle, uint32_t voffset,
                           uint32_t soffset, uint64_t bytes, uint32_t flags,
                           uint32_t site) {
  const auto *resource = static_cast<const BufferResource *>(handle);
  if (!resource)
    laneFail(lane, site, "wave %u lane %u accesses a null buffer resource",
             lane.wave->index, lane.index);
  if (resource->stride != 0)
    laneFail(lane, site, "buffer resources with a stride (%u) are not emulated",
             resource->stride);
  uint64_t end = uint64_t(voffset) + bytes;
  if (voffset >= resource->numRecords)
    return nullptr;
  if (end > resource->numRecords)
    laneFail(lane, site,
             "wave %u lane %u %s buffer bytes [%u, %llu), partly beyond "
             "num_records %llu: the hardware's result depends on the chip",
             lane.wave->index, lane.index,
             flags & MLA_EMU_ACCESS_WRITE ? "writes" : "reads", voffset,
             static_cast<unsigned long long>(end),
             static_cast<unsigned long long>(resource->numRecords));
  void *address = reinterpret_cast<void *>(resource->base + soffset + voffset);
  return checkGlobal(lane, address, bytes, flags, site);
}

MLA_EMU_RT void __mla_emu_buffer_load(void *out, const void *resource,
                                      uint32_t voffset, uint32_t soffset,
                                      uint32_t bytes, uint32_t site) {
  Lane &lane = currentLane();
  ++lane.vectorMemoryOps;
  void *address = bufferAddress(lane, resource, voffset, soffset, bytes,
                                MLA_EMU_ACCESS_READ, site);
  if (address)
    std::memcpy(out, address, bytes);
  else
    std::memset(out, 0, bytes);
}

MLA_EMU_RT void __mla_emu_buffer_store(const void *in, const void *resource,
                                       uint32_t voffset, uint32_t soffset,
                                       uint32_t bytes, uint32_t site) {
  Lane &lane = currentLane();
  ++lane.vectorMemoryOps;
  if (void *address = bufferAddress(lane, resource, voffset, soffset, bytes,
                                    MLA_EMU_ACCESS_WRITE, site))
    std::memcpy(address, in, bytes);
}

/// The LDS destination of a load to LDS: the wave-uniform base plus the
/// instruction offset plus the lane's slot of `bytes` bytes. It is checked
/// as written at issue, a write that completes when the load lands, so that
/// another wave's access before the landing and a barrier is a race.
static void *ldsSlot(Lane &lane, void *ldsBase, uint32_t offset, uint32_t bytes,
                     uint32_t site) {
  char *slot =
      static_cast<char *>(ldsBase) + offset + uint64_t(lane.index) * bytes;
  return checkLds(lane, slot, bytes,
                  MLA_EMU_ACCESS_WRITE | __builtin_ctz(bytes | 16)
                                             << MLA_EMU_ACCESS_ALIGN_SHIFT,
                  site, LdsCompletion::AtLanding);
}

MLA_EMU_RT void __mla_emu_buffer_load_lds(const void *resource, void *ldsBase,
                                          uint32_t bytes, uint32_t voffset,
                                          uint32_t soffset, uint32_t offset,
                                          uint32_t site) {
  Lane &lane = currentLane();
  void *destination = ldsSlot(lane, ldsBase, offset, bytes, site);
  void *source = bufferAddress(lane, resource, voffset + offset, soffset, bytes,
                               MLA_EMU_ACCESS_READ, site);
  issueLdsLoad(lane, destination, source, bytes, site);
}

MLA_EMU_RT void __mla_emu_global_load_lds(const void *global, void *ldsBase,
                                          uint32_t bytes, uint32_t offset,
                                          uint32_t site) {
  Lane &lane = currentLane();
  void *destination = ldsSlot(lane, ldsBase, offset, bytes, site);
  void *source = checkGlobal(
      lane, const_cast<char *>(static_cast<const char *>(global)) + offset,
      bytes, MLA_EMU_ACCESS_READ, site);
  issueLdsLoad(lane, destination, source, bytes, site);
}
