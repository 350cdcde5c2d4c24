//===- Faults.cpp - Undefined behaviour the kernel reaches ----------------===//
//
// What is undefined in LLVM IR and would trap or run wild on the host
// (reaching `unreachable`, dividing by zero) ends the workgroup with a
// report instead.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

using namespace mla::emu;

MLA_EMU_RT void __mla_emu_unreachable(uint32_t site) {
  Lane &lane = currentLane();
  laneFail(lane, site, "wave %u lane %u reached 'unreachable'",
           lane.wave->index, lane.index);
}

MLA_EMU_RT void __mla_emu_trap(uint32_t site) {
  Lane &lane = currentLane();
  laneFail(lane, site, "wave %u lane %u executed a trap", lane.wave->index,
           lane.index);
}

/// Called before every integer division whose divisor is not a constant;
/// `invalid` is set when the divisor is 0 or the division overflows.
MLA_EMU_RT void __mla_emu_check_division(uint32_t invalid, uint32_t site) {
  if (!invalid)
    return;
  Lane &lane = currentLane();
  laneFail(lane, site,
           "wave %u lane %u divides by zero (or INT_MIN by -1), which is "
           "undefined",
           lane.wave->index, lane.index);
}
