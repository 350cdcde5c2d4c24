//===- WorkItem.cpp - Work-item ids, launch sizes, lane masks -------------===//

#include "Runtime.h"

#include <cstring>

using namespace mla::emu;

template <typename T> static void put(uint8_t *block, size_t offset, T value) {
  std::memcpy(block + offset, &value, sizeof(T));
}

void mla::emu::fillLaunchBlocks(Context &context) {
  const MlaEmuLaunch &launch = *context.launch;
  unsigned dims = launch.grid[2] * launch.workgroupSize[2] > 1   ? 3
                  : launch.grid[1] * launch.workgroupSize[1] > 1 ? 2
                                                                 : 1;
  // hsa_kernel_dispatch_packet_t: setup holds the dimensions, sizes are in
  // work-items.
  uint8_t *packet = context.dispatchPacket;
  std::memset(packet, 0, sizeof(context.dispatchPacket));
  put<uint16_t>(packet, 2, static_cast<uint16_t>(dims));
  for (int d = 0; d < 3; ++d) {
    put<uint16_t>(packet, 4 + 2 * d,
                  static_cast<uint16_t>(launch.workgroupSize[d]));
    put<uint32_t>(packet, 12 + 4 * d, launch.grid[d] * launch.workgroupSize[d]);
  }
  put<uint32_t>(packet, 28, context.ldsBytes);
  // The implicit kernel arguments of code object v5: block counts, group
  // sizes, remainders (always 0: the grid is whole workgroups), global
  // offsets (0) and the number of dimensions.
  uint8_t *implicit = context.implicitArgs;
  std::memset(implicit, 0, sizeof(context.implicitArgs));
  for (int d = 0; d < 3; ++d) {
    put<uint32_t>(implicit, 4 * d, launch.grid[d]);
    put<uint16_t>(implicit, 12 + 2 * d,
                  static_cast<uint16_t>(launch.workgroupSize[d]));
  }
  put<uint16_t>(implicit, 64, static_cast<uint16_t>(dims));
}

/// Work-items are numbered x fastest; waves take 64 consecutive ones.
static uint32_t workitemId(const Lane &lane, int dim) {
  const uint32_t *size = contextOf(lane).launch->workgroupSize;
  uint32_t flat = lane.flatId;
  if (dim == 0)
    return flat % size[0];
  if (dim == 1)
    return flat / size[0] % size[1];
  return flat / (size[0] * size[1]);
}

MLA_EMU_RT uint32_t __mla_emu_workitem_id_x(uint32_t) {
  return workitemId(currentLane(), 0);
}
MLA_EMU_RT uint32_t __mla_emu_workitem_id_y(uint32_t) {
  return workitemId(currentLane(), 1);
}
MLA_EMU_RT uint32_t __mla_emu_workitem_id_z(uint32_t) {
  return workitemId(currentLane(), 2);
}
MLA_EMU_RT uint32_t __mla_emu_workgroup_id_x(uint32_t) {
  return contextOf(currentLane()).workgroupId[0];
}
MLA_EMU_RT uint32_t __mla_emu_workgroup_id_y(uint32_t) {
  return contextOf(currentLane()).workgroupId[1];
}
MLA_EMU_RT uint32_t __mla_emu_workgroup_id_z(uint32_t) {
  return contextOf(currentLane()).workgroupId[2];
}

MLA_EMU_RT void *__mla_emu_dispatch_ptr(uint32_t) {
  return contextOf(currentLane()).dispatchPacket;
}

MLA_EMU_RT void *__mla_emu_implicitarg_ptr(uint32_t) {
  return contextOf(currentLane()).implicitArgs;
}

MLA_EMU_RT uint32_t __mla_emu_groupstaticsize(uint32_t) {
  return contextOf(currentLane()).launch->kernel->staticLdsBytes;
}

/// v_mbcnt_lo_u32_b32: acc + the bits of mask set for lanes below this one
/// among lanes 0-31; v_mbcnt_hi_u32_b32 likewise for lanes 32-63.
MLA_EMU_RT uint32_t __mla_emu_mbcnt_lo(uint32_t mask, uint32_t acc, uint32_t) {
  unsigned lane = currentLane().index;
  uint32_t below = lane >= 32 ? ~0u : (1u << lane) - 1;
  return acc + static_cast<uint32_t>(__builtin_popcount(mask & below));
}

MLA_EMU_RT uint32_t __mla_emu_mbcnt_hi(uint32_t mask, uint32_t acc, uint32_t) {
  unsigned lane = currentLane().index;
  uint32_t below = lane < 32 ? 0u : (1u << (lane - 32)) - 1;
  return acc + static_cast<uint32_t>(__builtin_popcount(mask & below));
}
