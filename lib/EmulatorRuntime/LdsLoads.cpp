//===- LdsLoads.cpp - Loads to LDS land at the issuing lane's waits -------===//
//
// A load to LDS is a vector-memory operation: on the chip its bytes reach
// LDS at some time before the wave's s_waitcnt vmcnt(N) lets it go on, N
// being how many of its most recent vector-memory operations may still be
// in flight. Each lane numbers its vector-memory operations in issue order
// (Memory.cpp and Buffers.cpp count them) and keeps its loads to LDS here
// until a wait lands them. Until then their destination holds the LDS
// poison, and landing records the write again in the race shadow: another
// wave that reads the bytes before the wait and a barrier is reported.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstring>

using namespace mla::emu;

void mla::emu::issueLdsLoad(Lane &lane, void *destination, const void *source,
                            uint32_t bytes, uint32_t site) {
  if (lane.numLdsLoads == kMaxLdsLoads)
    laneFail(lane, site,
             "wave %u lane %u issues a load to LDS with %u already in flight; "
             "the emulator keeps at most as many as vmcnt counts (wait with "
             "s_waitcnt vmcnt)",
             lane.wave->index, lane.index, kMaxLdsLoads);
  LdsLoad &load = lane.ldsLoads[lane.numLdsLoads++];
  load.number = lane.vectorMemoryOps++;
  load.offset = static_cast<uint32_t>(static_cast<uint8_t *>(destination) -
                                      contextOf(lane).lds);
  load.bytes = bytes;
  load.site = site;
  if (source)
    std::memcpy(load.data, source, bytes);
  else
    std::memset(load.data, 0, bytes);
  std::memset(destination, kLdsPoison, bytes);
}

void mla::emu::waitForLdsLoads(Lane &lane, uint32_t outstanding) {
  uint32_t landed = 0;
  for (; landed < lane.numLdsLoads; ++landed) {
    const LdsLoad &load = lane.ldsLoads[landed];
    if (lane.vectorMemoryOps - load.number <= outstanding)
      break;
    uint8_t *destination = contextOf(lane).lds + load.offset;
    checkLds(lane, destination, load.bytes, MLA_EMU_ACCESS_WRITE, load.site,
             LdsCompletion::Complete);
    std::memcpy(destination, load.data, load.bytes);
  }
  lane.numLdsLoads -= landed;
  std::memmove(lane.ldsLoads, lane.ldsLoads + landed,
               lane.numLdsLoads * sizeof(LdsLoad));
}

void mla::emu::checkLdsLoadsWaited(Lane &lane) {
  if (lane.numLdsLoads == 0)
    return;
  char where[512];
  describeSite(lane.ldsLoads[0].site, where, sizeof(where));
  laneFail(lane, UINT32_MAX,
           "wave %u lane %u returned, but its load to LDS %s was never "
           "waited for (s_waitcnt vmcnt)",
           lane.wave->index, lane.index, where);
}

/// s_waitcnt: gfx9 encodes vmcnt in bits 3:0 and 15:14 of the immediate,
/// lgkmcnt in bits 11:8. The wait is the wave's, so its lanes synchronize
/// after landing their loads; lgkmcnt(0) also completes the wave's LDS
/// accesses. A larger lgkmcnt completes none: which LDS operations it
/// leaves in flight depends on the backend's instruction order.
MLA_EMU_RT void __mla_emu_s_waitcnt(uint32_t imm, uint32_t site) {
  Lane &lane = currentLane();
  waitForLdsLoads(lane, (imm & 0xF) | (imm >> 14 & 0x3) << 4);
  if ((imm >> 8 & 0xF) == 0)
    completeLdsAccesses(lane, site);
  else
    synchronizeWave(lane, site);
}
