//===- Memory.cpp - LDS, its race detector, and global access checks ------===//
//
// Every load, store and atomic of the retargeted code goes through a check
// here before it touches memory: LDS accesses must stay inside the
// workgroup's allocation and are recorded in a byte-granular shadow, global
// accesses must stay inside the launch's buffers or the module's globals.
// A failed check abandons the workgroup before the access happens.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdio>
#include <cstring>

using namespace mla::emu;

void mla::emu::resetMemory(Context &context) {
  std::memset(context.lds, kLdsPoison, context.ldsBytes);
  context.numResources = 0;
}

static const char *accessVerb(uint32_t flags) {
  if (flags & MLA_EMU_ACCESS_ATOMIC)
    return "atomically updates";
  return flags & MLA_EMU_ACCESS_WRITE ? "writes" : "reads";
}

static void checkAlignment(Lane &lane, uintptr_t address, uint32_t flags,
                           uint32_t site) {
  uint64_t align = uint64_t(1) << (flags >> MLA_EMU_ACCESS_ALIGN_SHIFT & 63);
  if (address & (align - 1))
    laneFail(lane, site,
             "wave %u lane %u %s address 0x%llx, which is not aligned to the "
             "%llu bytes the access claims",
             lane.wave->index, lane.index, accessVerb(flags),
             static_cast<unsigned long long>(address),
             static_cast<unsigned long long>(align));
}

/// Reports a conflict between two waves on LDS byte `offset`: with no
/// barrier in between, or, when `crossedBarrier`, after a barrier the other
/// wave reached before its access completed.
[[noreturn]] static void raceFail(Lane &lane, uint32_t site, uint64_t offset,
                                  const char *earlier, unsigned otherWave,
                                  uint32_t otherSite, const char *now,
                                  bool crossedBarrier) {
  char first[512], second[512], between[320];
  describeSite(otherSite, first, sizeof(first));
  describeSite(site, second, sizeof(second));
  if (crossedBarrier)
    std::snprintf(between, sizeof(between),
                  "after a barrier that wave %u reached before that access "
                  "completed (LDS accesses complete at s_waitcnt lgkmcnt(0) "
                  "or a release of LDS at workgroup scope, a load to LDS at "
                  "its s_waitcnt vmcnt)",
                  otherWave);
  else
    std::snprintf(between, sizeof(between), "with no barrier in between");
  laneFail(lane, UINT32_MAX,
           "LDS race at offset %llu: wave %u %s it %s, and wave %u %s it %s, "
           "%s",
           static_cast<unsigned long long>(offset), otherWave, earlier, first,
           lane.wave->index, now, second, between);
}

/// Reports two lanes of one wave that communicate through LDS byte
/// `offset` with no collective between them: lanes run one after another
/// between collectives, so the emulator cannot honour the order.
[[noreturn]] static void intraWaveFail(Lane &lane, uint32_t site,
                                       uint64_t offset, unsigned otherLane,
                                       const char *earlier, const char *now) {
  laneFail(lane, site,
           "lanes %u and %u of wave %u exchange data through LDS offset %llu "
           "with no wave-level synchronization (barrier, fence or cross-lane "
           "operation) between lane %u's %s and lane %u's %s; the emulator "
           "runs lanes one after another in between",
           otherLane, lane.index, lane.wave->index,
           static_cast<unsigned long long>(offset), otherLane, earlier,
           lane.index, now);
}

/// The stamp of an LDS write that completes as `completion` says.
static uint32_t writeStamp(const Context &context, LdsCompletion completion) {
  switch (completion) {
  case LdsCompletion::AtLdsWait:
    return context.ldsClock;
  case LdsCompletion::AtLanding:
    return UINT32_MAX;
  case LdsCompletion::Complete:
    break;
  }
  return 0;
}

/// Whether the barriers since stamp `stamp` published wave `index`'s
/// accesses stamped then.
static bool published(const Context &context, unsigned index, uint32_t stamp) {
  return context.waves[index].ldsPublished > stamp;
}

/// Starts `entry` for the current epoch. The accesses it holds from an
/// earlier one are ordered before every access since by the barrier that
/// ended it, all but those their waves had not completed when they reached
/// that barrier or any barrier since: those stay, and race. Reads share
/// one stamp, the latest's, so they stay or go together: all stay when a
/// reader's wave reached the last barrier with reads in flight and may not
/// have completed this one (the strict side).
static void startEpoch(ShadowByte &entry, const Context &context) {
  ShadowByte old = entry;
  std::memset(&entry, 0, sizeof(entry));
  entry.epoch = context.epoch;
  entry.segmentWriter = -1;
  if (old.epoch < context.runEpoch)
    return;
  if (old.writer && !published(context, old.writer - 1u, old.writeStamp)) {
    entry.writer = old.writer;
    entry.writeSite = old.writeSite;
    entry.writeStamp = old.writeStamp;
    entry.writeCrossedBarrier = true;
  }
  for (uint16_t rest = old.readers; rest; rest &= rest - 1) {
    unsigned reader = static_cast<unsigned>(__builtin_ctz(rest));
    if (!context.waves[reader].ldsReadsCrossedBarrier ||
        published(context, reader, old.readStamp))
      continue;
    entry.readers = entry.crossedReaders = old.readers;
    entry.lowReadSite = old.lowReadSite;
    entry.highReadSite = old.highReadSite;
    entry.readStamp = old.readStamp;
    break;
  }
}

/// Records an access of `lane` to LDS bytes [offset, offset + bytes) and
/// fails on a race with another wave since the last barrier, or with a
/// write that barrier did not publish.
static void trackLds(Lane &lane, Context &context, uint64_t offset,
                     uint64_t bytes, uint32_t flags, uint32_t site,
                     LdsCompletion completion) {
  Wave &wave = *lane.wave;
  auto self = static_cast<uint8_t>(wave.index + 1);
  uint16_t waveBit = static_cast<uint16_t>(1u << wave.index);
  uint64_t laneBit = uint64_t(1) << lane.index;
  bool reads = flags & MLA_EMU_ACCESS_READ;
  bool writes = flags & MLA_EMU_ACCESS_WRITE;
  for (uint64_t b = offset; b < offset + bytes; ++b) {
    ShadowByte &entry = context.shadow[b];
    if (entry.epoch != context.epoch)
      startEpoch(entry, context);
    if (entry.segment != wave.segment) {
      entry.segment = wave.segment;
      entry.segmentReaders = 0;
      entry.segmentWriter = -1;
    }
    if (reads) {
      if (entry.writer && entry.writer != self)
        raceFail(lane, site, b, "wrote", entry.writer - 1u, entry.writeSite,
                 "reads", entry.writeCrossedBarrier);
      if (entry.segmentWriter >= 0 &&
          unsigned(entry.segmentWriter) != lane.index)
        intraWaveFail(lane, site, b, unsigned(entry.segmentWriter), "write",
                      "read");
    }
    if (writes) {
      if (entry.writer && entry.writer != self)
        raceFail(lane, site, b, "wrote", entry.writer - 1u, entry.writeSite,
                 "writes", entry.writeCrossedBarrier);
      if (entry.readers & ~waveBit) {
        unsigned low = static_cast<unsigned>(__builtin_ctz(entry.readers));
        unsigned high =
            15 - static_cast<unsigned>(__builtin_clz(entry.readers) - 16);
        unsigned other = low != wave.index ? low : high;
        raceFail(lane, site, b, "read", other,
                 other == low ? entry.lowReadSite : entry.highReadSite,
                 "writes", entry.crossedReaders >> other & 1);
      }
      if (uint64_t others = entry.segmentReaders & ~laneBit)
        intraWaveFail(lane, site, b,
                      static_cast<unsigned>(__builtin_ctzll(others)), "read",
                      "write");
    }
    if (reads) {
      if (!entry.readers || waveBit <= (entry.readers & -entry.readers))
        entry.lowReadSite = site;
      if (uint32_t(waveBit) * 2 > entry.readers)
        entry.highReadSite = site;
      entry.readers |= waveBit;
      entry.crossedReaders &= ~waveBit;
      entry.readStamp = wave.lastLdsRead = context.ldsClock;
      entry.segmentReaders |= laneBit;
    }
    if (writes) {
      entry.writer = self;
      entry.writeSite = site;
      entry.writeStamp = writeStamp(context, completion);
      entry.writeCrossedBarrier = false;
      entry.segmentWriter = static_cast<int8_t>(lane.index);
    }
  }
}

void *mla::emu::checkLds(Lane &lane, void *pointer, uint64_t bytes,
                         uint32_t flags, uint32_t site,
                         LdsCompletion completion) {
  Context &context = contextOf(lane);
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  uint64_t offset = address - reinterpret_cast<uintptr_t>(context.lds);
  if (bytes > context.ldsBytes || offset > context.ldsBytes - bytes)
    laneFail(lane, site,
             "wave %u lane %u %s LDS bytes [%lld, %lld), outside the "
             "workgroup's allocation of %u bytes",
             lane.wave->index, lane.index, accessVerb(flags),
             static_cast<long long>(offset),
             static_cast<long long>(offset + bytes), context.ldsBytes);
  checkAlignment(lane, address, flags, site);
  if (!(flags & MLA_EMU_ACCESS_ATOMIC))
    trackLds(lane, context, offset, bytes, flags, site, completion);
  return pointer;
}

static void completeWaveLdsAccesses(Wave &wave, uint64_t) {
  wave.ldsCompleted = ++wave.context->ldsClock;
}

void mla::emu::completeLdsAccesses(Lane &lane, uint32_t site) {
  arrive(lane, site, completeWaveLdsAccesses);
}

/// SIInsertWaitcnts makes the wave wait for its loads to LDS before an LDS
/// access, unless the instruction's alias metadata may prove them apart:
/// then the emulator assumes it does, the strict side.
void *mla::emu::accessLds(Lane &lane, void *pointer, uint64_t bytes,
                          uint32_t flags, uint32_t site) {
  if (lane.numLdsLoads && !(flags & MLA_EMU_ACCESS_ALIAS_METADATA))
    waitForLdsLoads(lane, 0);
  return checkLds(lane, pointer, bytes, flags, site, LdsCompletion::AtLdsWait);
}

MLA_EMU_RT void *__mla_emu_check_lds(void *pointer, uint64_t bytes,
                                     uint32_t flags, uint32_t site) {
  return accessLds(currentLane(), pointer, bytes, flags, site);
}

static bool inside(uintptr_t address, uint64_t bytes, uintptr_t begin,
                   uintptr_t end) {
  return address >= begin && address <= end && bytes <= end - address;
}

/// The launch buffer with the largest begin <= address, or null.
static const MlaEmuBuffer *bufferBelow(const MlaEmuLaunch &launch,
                                       uintptr_t address) {
  const MlaEmuBuffer *found = nullptr;
  uint32_t low = 0, high = launch.numBuffers;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    if (launch.buffers[mid].begin <= address) {
      found = &launch.buffers[mid];
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return found;
}

[[noreturn]] static void globalFail(Lane &lane, Context &context,
                                    uintptr_t address, uint64_t bytes,
                                    uint32_t flags, uint32_t site) {
  char near[256] = "";
  if (const MlaEmuBuffer *below = bufferBelow(*context.launch, address))
    std::snprintf(near, sizeof(near),
                  " (byte %llu of argument '%s', which has %llu bytes)",
                  static_cast<unsigned long long>(address - below->begin),
                  below->name,
                  static_cast<unsigned long long>(below->end - below->begin));
  laneFail(lane, site,
           "wave %u lane %u %s %llu bytes at 0x%llx, outside the kernel's "
           "buffers%s",
           lane.wave->index, lane.index, accessVerb(flags),
           static_cast<unsigned long long>(bytes),
           static_cast<unsigned long long>(address), near);
}

void *mla::emu::checkGlobal(Lane &lane, void *pointer, uint64_t bytes,
                            uint32_t flags, uint32_t site) {
  if (bytes == 0)
    return pointer;
  Context &context = contextOf(lane);
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  // Flat pointers reach LDS and the lane's private memory too.
  uintptr_t lds = reinterpret_cast<uintptr_t>(context.lds);
  if (address - lds < context.ldsCapacity)
    return accessLds(lane, pointer, bytes, flags, site);
  checkAlignment(lane, address, flags, site);
  uintptr_t stack = reinterpret_cast<uintptr_t>(context.stacks) +
                    uintptr_t(lane.flatId) * kLaneStackBytes;
  if (inside(address, bytes, stack, stack + kLaneStackBytes))
    return pointer;
  if (const MlaEmuBuffer *buffer = bufferBelow(*context.launch, address))
    if (inside(address, bytes, buffer->begin, buffer->end))
      return pointer;
  for (uint32_t i = 0; i < mla_emu_module.numGlobals; ++i) {
    uintptr_t begin =
        reinterpret_cast<uintptr_t>(mla_emu_module.globals[i].begin);
    if (inside(address, bytes, begin, begin + mla_emu_module.globals[i].bytes))
      return pointer;
  }
  // The launch blocks are read-only, as on the chip.
  if (!(flags & (MLA_EMU_ACCESS_WRITE | MLA_EMU_ACCESS_ATOMIC))) {
    uintptr_t packet = reinterpret_cast<uintptr_t>(context.dispatchPacket);
    uintptr_t implicit = reinterpret_cast<uintptr_t>(context.implicitArgs);
    if (inside(address, bytes, packet,
               packet + sizeof(context.dispatchPacket)) ||
        inside(address, bytes, implicit,
               implicit + sizeof(context.implicitArgs)))
      return pointer;
  }
  globalFail(lane, context, address, bytes, flags, site);
}

/// Global, constant and flat accesses. Flat ones count towards vmcnt even
/// when they reach LDS, as on the chip.
MLA_EMU_RT void *__mla_emu_check_global(void *pointer, uint64_t bytes,
                                        uint32_t flags, uint32_t site) {
  Lane &lane = currentLane();
  if (!(flags & MLA_EMU_ACCESS_SCALAR))
    ++lane.vectorMemoryOps;
  return checkGlobal(lane, pointer, bytes, flags, site);
}

MLA_EMU_RT void *__mla_emu_lds_base(uint32_t) {
  return contextOf(currentLane()).lds;
}

/// Dynamic LDS starts after the kernel's static LDS, aligned as the
/// dynamic variables require.
MLA_EMU_RT void *__mla_emu_dynamic_lds_base(uint32_t align, uint32_t) {
  Lane &lane = currentLane();
  Context &context = contextOf(lane);
  uint32_t offset = context.launch->kernel->staticLdsBytes;
  offset = (offset + align - 1) / align * align;
  return context.lds + offset;
}

/// LDS pointers are 32-bit offsets on the chip; the retargeted code holds
/// host pointers and converts where the IR turns them into integers.
MLA_EMU_RT uint32_t __mla_emu_lds_offset(void *pointer, uint32_t) {
  return static_cast<uint32_t>(
      reinterpret_cast<uintptr_t>(pointer) -
      reinterpret_cast<uintptr_t>(contextOf(currentLane()).lds));
}

MLA_EMU_RT void *__mla_emu_lds_pointer(uint32_t offset, uint32_t) {
  return contextOf(currentLane()).lds + offset;
}
