//===- Scheduler.cpp - Lanes as fibers, waves and barriers ----------------===//
//
// A lane runs on its own stack until it reaches a collective; a switch
// saves only what the System V ABI says a call preserves (rbx, rbp,
// r12-r15, the stack pointer, MXCSR and the x87 control word). ucontext
// would also save the signal mask with a system call on every switch.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <sys/mman.h>

using namespace mla::emu;

// mlaEmuSwitch(void **save, void *to): saves the caller's context on its
// stack, stores the stack pointer to *save and resumes the context at `to`.
// mlaEmuFiberStart: where a new lane starts, with the lane in r12 and the
// function to run in r13 (see initialStack).
asm(R"(
  .text
  .p2align 4
  .globl mlaEmuSwitch
  .hidden mlaEmuSwitch
  .type mlaEmuSwitch,@function
mlaEmuSwitch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  retq
  .size mlaEmuSwitch, .-mlaEmuSwitch

  .p2align 4
  .globl mlaEmuFiberStart
  .hidden mlaEmuFiberStart
  .type mlaEmuFiberStart,@function
mlaEmuFiberStart:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size mlaEmuFiberStart, .-mlaEmuFiberStart
)");

extern "C" void mlaEmuSwitch(void **save, void *to);
extern "C" void mlaEmuFiberStart();

/// The x87 control word every context starts with (the ABI's default).
constexpr uint64_t kX87ControlWord = 0x037F;
constexpr uint32_t kDefaultMxcsr = 0x1F80;
/// Flush-to-zero and denormals-are-zero.
constexpr uint32_t kFlushDenormalsMxcsr = kDefaultMxcsr | 0x8040;

/// The top of `lane`'s stack block.
static char *stackTop(Context &context, const Lane &lane) {
  size_t flat = lane.flatId;
  return context.stacks + (flat + 1) * kLaneStackBytes;
}

/// Passes control from `lane` to the next ready lane of its wave, or back
/// to the scheduler after the last: a round over the wave costs one switch
/// per lane.
static void yieldFrom(Lane &lane) {
  Wave &wave = *lane.wave;
  for (unsigned i = lane.index + 1; i < wave.numLanes; ++i) {
    if (wave.lanes[i].state == LaneState::Ready) {
      mlaEmuSwitch(&lane.sp, wave.lanes[i].sp);
      return;
    }
  }
  mlaEmuSwitch(&lane.sp, wave.context->schedulerSp);
}

[[noreturn]] static void laneMain(Lane *lane) {
  Context &context = contextOf(*lane);
  context.launch->kernel->entry(context.launch->args);
  checkLdsLoadsWaited(*lane);
  lane->state = LaneState::Done;
  yieldFrom(*lane);
  __builtin_unreachable();
}

/// A stack that mlaEmuSwitch resumes into mlaEmuFiberStart(lane).
static void *initialStack(Context &context, Lane &lane) {
  // Stacks start at different cache lines of a page: the lanes' frames
  // would otherwise all map to the same cache sets, and collectives read
  // the operands of all 64 lanes at once.
  uintptr_t top = reinterpret_cast<uintptr_t>(stackTop(context, lane)) -
                  64 * (lane.flatId % kWaveSize + 1);
  // The trampoline's call needs a 16-byte aligned stack.
  uint64_t *frame = reinterpret_cast<uint64_t *>(top & ~uintptr_t(15));
  frame[-1] = reinterpret_cast<uint64_t>(&mlaEmuFiberStart);
  frame[-2] = 0;                                     // rbp
  frame[-3] = 0;                                     // rbx
  frame[-4] = reinterpret_cast<uint64_t>(&lane);     // r12
  frame[-5] = reinterpret_cast<uint64_t>(&laneMain); // r13
  frame[-6] = 0;                                     // r14
  frame[-7] = 0;                                     // r15
  frame[-8] = context.mxcsr | kX87ControlWord << 32;
  return &frame[-8];
}

void mla::emu::arrive(Lane &lane, uint32_t site, CollectiveFn collective) {
  lane.site = site;
  lane.collective = collective;
  lane.state = LaneState::Waiting;
  yieldFrom(lane);
}

void mla::emu::describeSite(uint32_t site, char *buffer, size_t size) {
  if (site >= mla_emu_module.numSites) {
    std::snprintf(buffer, size, "at an unknown instruction");
    return;
  }
  const MlaEmuSite &s = mla_emu_module.sites[site];
  std::snprintf(buffer, size, "at %s in @%s", s.location, s.function);
}

/// Starts the report of `context`'s run: kernel and workgroup, then the
/// message, then where.
static void vrecord(Context &context, uint32_t site, const char *format,
                    va_list args) {
  if (context.failed)
    return;
  context.failed = true;
  char where[512];
  describeSite(site, where, sizeof(where));
  int used = std::snprintf(
      context.error, sizeof(context.error),
      "kernel '%s' workgroup (%u,%u,%u): ", context.launch->kernel->name,
      context.workgroupId[0], context.workgroupId[1], context.workgroupId[2]);
  if (used < 0 || size_t(used) >= sizeof(context.error))
    return;
  int more = std::vsnprintf(context.error + used, sizeof(context.error) - used,
                            format, args);
  if (more < 0 || size_t(used + more) >= sizeof(context.error))
    return;
  if (site != UINT32_MAX)
    std::snprintf(context.error + used + more,
                  sizeof(context.error) - used - more, " %s", where);
}

void mla::emu::laneFail(Lane &lane, uint32_t site, const char *format, ...) {
  Context &context = contextOf(lane);
  va_list args;
  va_start(args, format);
  vrecord(context, site, format, args);
  va_end(args);
  // The scheduler never resumes a lane of a failed run; its stack is reused
  // by the next run.
  mlaEmuSwitch(&lane.sp, context.schedulerSp);
  __builtin_unreachable();
}

void mla::emu::waveFail(Wave &wave, uint32_t site, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vrecord(*wave.context, site, format, args);
  va_end(args);
}

/// Runs `wave` until it waits at a barrier, finishes, or the run fails.
static void runWave(Context &context, Wave &wave) {
  for (;;) {
    // The ready lanes run one after another (see yieldFrom).
    for (Lane &lane : wave.lanes) {
      if (lane.state != LaneState::Ready || lane.index >= wave.numLanes)
        continue;
      mlaEmuSwitch(&context.schedulerSp, lane.sp);
      if (context.failed)
        return;
      break;
    }
    // Every lane waits or is done. Of the sites lanes wait at, the one
    // earliest in the module runs first: in structured code a branch's body
    // comes before its join, so the lanes inside it go first.
    uint32_t site = UINT32_MAX;
    for (unsigned i = 0; i < wave.numLanes; ++i)
      if (wave.lanes[i].state == LaneState::Waiting &&
          wave.lanes[i].site < site)
        site = wave.lanes[i].site;
    if (site == UINT32_MAX) {
      wave.done = true;
      return;
    }
    uint64_t exec = 0;
    CollectiveFn collective = nullptr;
    for (unsigned i = 0; i < wave.numLanes; ++i) {
      if (wave.lanes[i].state == LaneState::Waiting &&
          wave.lanes[i].site == site) {
        exec |= uint64_t(1) << i;
        collective = wave.lanes[i].collective;
      }
    }
    if (!collective) {
      wave.atBarrier = true;
      wave.barrierSite = site;
      wave.barrierLanes = exec;
      return;
    }
    collective(wave, exec);
    if (context.failed)
      return;
    wave.segment = ++context.nextSegment;
    for (unsigned i = 0; i < wave.numLanes; ++i)
      if (exec >> i & 1)
        wave.lanes[i].state = LaneState::Ready;
  }
}

/// Fails the run when a wave finished while others wait at a barrier: the
/// barrier can never complete on hardware that counts every wave.
static bool checkBarrierReached(Context &context) {
  const Wave *waiting = nullptr, *exited = nullptr;
  for (unsigned w = 0; w < context.numWaves; ++w) {
    const Wave &wave = context.waves[w];
    if (wave.atBarrier && !waiting)
      waiting = &wave;
    if (wave.done && !exited)
      exited = &wave;
  }
  if (!waiting || !exited)
    return true;
  char where[512];
  describeSite(waiting->barrierSite, where, sizeof(where));
  Wave &wave = context.waves[waiting->index];
  waveFail(wave, UINT32_MAX,
           "barrier not reached by every wave: wave %u waits at the barrier "
           "%s, but wave %u exited without reaching it",
           waiting->index, where, exited->index);
  return false;
}

static void startRun(Context &context, const MlaEmuLaunch &launch,
                     const uint32_t id[3]) {
  context.launch = &launch;
  for (int d = 0; d < 3; ++d)
    context.workgroupId[d] = id[d];
  context.workgroupSize = launch.workgroupSize[0] * launch.workgroupSize[1] *
                          launch.workgroupSize[2];
  context.ldsBytes = launch.kernel->staticLdsBytes + launch.dynamicLdsBytes;
  context.numWaves = (context.workgroupSize + kWaveSize - 1) / kWaveSize;
  context.failed = false;
  context.error[0] = 0;
  context.mxcsr = launch.kernel->flags & MLA_EMU_FLUSH_F32_DENORMALS
                      ? kFlushDenormalsMxcsr
                      : kDefaultMxcsr;
  // Epochs and segments only grow, so the LDS shadow never needs clearing;
  // on wrap-around it is cleared once.
  if (++context.epoch == 0) {
    std::memset(context.shadow, 0, context.shadowBytes);
    context.epoch = 1;
  }
  context.runEpoch = context.epoch;
  context.ldsClock = 1;
  resetMemory(context);
  fillLaunchBlocks(context);
  for (unsigned w = 0; w < context.numWaves; ++w) {
    Wave &wave = context.waves[w];
    wave.context = &context;
    wave.index = w;
    unsigned first = w * kWaveSize;
    wave.numLanes = context.workgroupSize - first < kWaveSize
                        ? context.workgroupSize - first
                        : kWaveSize;
    wave.segment = ++context.nextSegment;
    wave.done = false;
    wave.atBarrier = false;
    wave.ldsCompleted = wave.ldsPublished = context.ldsClock;
    wave.lastLdsRead = 0;
    wave.ldsReadsCrossedBarrier = false;
    for (unsigned i = 0; i < kWaveSize; ++i) {
      Lane &lane = wave.lanes[i];
      lane.wave = &wave;
      lane.index = i;
      lane.flatId = first + i;
      lane.state = i < wave.numLanes ? LaneState::Ready : LaneState::Done;
      lane.vectorMemoryOps = 0;
      lane.numLdsLoads = 0;
      if (i >= wave.numLanes)
        continue;
      // The stack block's first word leads back to the lane.
      *reinterpret_cast<Lane **>(context.stacks +
                                 size_t(lane.flatId) * kLaneStackBytes) = &lane;
      lane.sp = initialStack(context, lane);
    }
  }
}

extern "C" __attribute__((visibility("default"))) int
mla_emu_run_workgroup(MlaEmuContext *context, const MlaEmuLaunch *launch,
                      const uint32_t id[3]) {
  startRun(*context, *launch, id);
  for (;;) {
    for (unsigned w = 0; w < context->numWaves; ++w) {
      Wave &wave = context->waves[w];
      if (!wave.done && !wave.atBarrier)
        runWave(*context, wave);
      if (context->failed)
        return 1;
    }
    unsigned waiting = 0;
    for (unsigned w = 0; w < context->numWaves; ++w)
      waiting += context->waves[w].atBarrier;
    if (waiting == 0)
      return 0;
    if (!checkBarrierReached(*context))
      return 1;
    // Every wave is at a barrier: release them into a new epoch, which sees
    // the LDS writes each completed before it arrived.
    ++context->epoch;
    for (unsigned w = 0; w < context->numWaves; ++w) {
      Wave &wave = context->waves[w];
      wave.ldsPublished = wave.ldsCompleted;
      wave.ldsReadsCrossedBarrier = wave.lastLdsRead >= wave.ldsCompleted;
      wave.atBarrier = false;
      wave.segment = ++context->nextSegment;
      for (unsigned i = 0; i < wave.numLanes; ++i)
        if (wave.barrierLanes >> i & 1)
          wave.lanes[i].state = LaneState::Ready;
    }
  }
}
