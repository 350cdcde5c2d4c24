//===- Runtime.h - State of the emulation runtime ---------------*- C++ -*-===//
//
// The runtime executes one workgroup at a time per context. Every lane is a
// fiber with its own stack running the lane's native code; a lane suspends
// only at wave-collective operations (matrix ops, lane exchanges, fences)
// and at barriers. When every lane of a wave has suspended, the collective
// the earliest waiting lanes wait at runs for exactly those lanes (the
// wave's EXEC mask), and they resume.
//
// This library is linked into every emulated module: it uses the C library
// only (no C++ library, no exceptions), so that modules load anywhere the
// host target's modules do.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_EMULATORRUNTIME_RUNTIME_H
#define MLA_EMULATORRUNTIME_RUNTIME_H

#include "mla/Emulator/EmuABI.h"

#include <cstddef>
#include <cstdint>

/// Functions the retargeted code calls are C symbols with this prefix,
/// hidden inside the module.
#define MLA_EMU_RT extern "C" __attribute__((visibility("hidden")))

/// The descriptor the retargeter generates.
extern "C" const MlaEmuModule mla_emu_module;

struct MlaEmuContext;

namespace mla::emu {

constexpr unsigned kWaveSize = 64;
constexpr unsigned kMaxWorkgroupSize = 1024;
constexpr unsigned kMaxWaves = kMaxWorkgroupSize / kWaveSize;
/// Each lane's stack: a power of two, and stacks are aligned to it, so that
/// a lane finds its state from its stack pointer (see currentLane).
constexpr size_t kLaneStackBytes = size_t(64) << 10;

struct Wave;
using Context = MlaEmuContext;

/// Runs a collective for the lanes of `exec` of `wave`, each of which left
/// its operands in its Lane record.
using CollectiveFn = void (*)(Wave &wave, uint64_t exec);

enum class LaneState : uint8_t { Ready, Waiting, Done };

/// Loads to LDS one lane may have in flight: as many vector-memory
/// operations as gfx9's vmcnt counts.
constexpr unsigned kMaxLdsLoads = 63;

/// A load to LDS that has read its source but not yet written LDS.
struct LdsLoad {
  /// The lane's vector-memory operation number of the load.
  uint32_t number;
  uint32_t offset;
  uint32_t bytes;
  uint32_t site;
  uint8_t data[16];
};

struct Lane {
  /// The saved stack pointer while the lane is suspended.
  void *sp;
  Wave *wave;
  /// Index within the wave and within the workgroup.
  uint32_t index;
  uint32_t flatId;
  LaneState state;
  /// What a waiting lane waits at: a site and its collective (null for the
  /// workgroup barrier).
  uint32_t site;
  CollectiveFn collective;
  /// Operands of the pending collective, in the suspended lane's frame.
  const void *in[3];
  void *out;
  uint64_t imm[4];
  /// Vector-memory operations issued so far, which vmcnt counts.
  uint32_t vectorMemoryOps;
  /// Loads to LDS in flight, oldest first.
  uint32_t numLdsLoads;
  LdsLoad ldsLoads[kMaxLdsLoads];
};

struct Wave {
  Context *context;
  uint32_t index;
  uint32_t numLanes;
  /// Identifies the stretch of the wave's execution since its last
  /// collective; unique within a workgroup run. LDS accesses of two lanes of
  /// one wave in one segment have no order the emulator can honour.
  uint32_t segment;
  bool done;
  bool atBarrier;
  uint32_t barrierSite;
  uint64_t barrierLanes;
  /// The workgroup's LDS clock when the wave last waited for its LDS
  /// operations: its LDS accesses stamped before it are complete.
  uint32_t ldsCompleted;
  /// ldsCompleted as of the last barrier: the wave's LDS accesses stamped
  /// before it are ordered before every other wave's since.
  uint32_t ldsPublished;
  /// The workgroup's LDS clock at the wave's latest LDS read.
  uint32_t lastLdsRead;
  /// Whether the wave reached the last barrier with LDS reads in flight.
  bool ldsReadsCrossedBarrier;
  Lane lanes[kWaveSize];
};

/// When an LDS access becomes complete, to be published to the other waves
/// by the next barrier its wave reaches.
enum class LdsCompletion : uint8_t {
  /// An access of the kernel's code: at its wave's next wait for its LDS
  /// operations (s_waitcnt lgkmcnt(0), or a release of LDS at workgroup
  /// scope, which the backend makes that wait).
  AtLdsWait,
  /// A load to LDS in flight: when it lands.
  AtLanding,
  /// A load to LDS landing: now.
  Complete,
};

/// What the race detector knows about one byte of LDS.
struct ShadowByte {
  /// The barrier epoch the fields below belong to; older entries are empty
  /// but for accesses their waves had not completed at the barrier since.
  uint32_t epoch;
  uint32_t writeSite;
  /// The workgroup's LDS clock at the write (0: complete; UINT32_MAX: a
  /// load to LDS in flight).
  uint32_t writeStamp;
  /// A read by the lowest and by the highest wave that read the byte in
  /// this epoch: whichever wave writes it next, one of them is another
  /// wave's.
  uint32_t lowReadSite;
  uint32_t highReadSite;
  /// The workgroup's LDS clock at the latest of those reads.
  uint32_t readStamp;
  /// The wave segment the lane fields belong to.
  uint32_t segment;
  /// Lanes of that segment's wave that read the byte in it.
  uint64_t segmentReaders;
  /// Waves that read the byte in this epoch, one bit per wave.
  uint16_t readers;
  /// Those whose read comes from an earlier epoch: their waves reached the
  /// barrier since before completing it.
  uint16_t crossedReaders;
  /// 1 + the wave that last wrote the byte in this epoch; 0 for none.
  uint8_t writer;
  /// The lane that wrote the byte in `segment`, or -1.
  int8_t segmentWriter;
  /// Whether `writer`'s write comes from an earlier epoch: its wave reached
  /// the barrier since before completing it.
  bool writeCrossedBarrier;
};

/// A buffer resource (V#) made by make.buffer.rsrc; kernels hold pointers to
/// these interned records.
struct BufferResource {
  uintptr_t base;
  uint64_t numRecords;
  uint32_t stride;
  uint32_t flags;
};

constexpr unsigned kMaxResources = 256;

} // namespace mla::emu

/// One context: everything one workgroup run needs, reused run after run.
struct MlaEmuContext {
  // Memory owned by the context.
  char *stackRegion;
  size_t stackRegionBytes;
  /// The first lane stack, kLaneStackBytes-aligned.
  char *stacks;
  uint8_t *lds;
  uint32_t ldsCapacity;
  mla::emu::ShadowByte *shadow;
  size_t shadowBytes;
  void *schedulerSp;

  // The current run.
  const MlaEmuLaunch *launch;
  uint32_t workgroupId[3];
  uint32_t workgroupSize;
  uint32_t ldsBytes;
  uint32_t numWaves;
  uint32_t epoch;
  /// The epoch the current run started in: shadow entries of older epochs
  /// belong to earlier runs.
  uint32_t runEpoch;
  /// Advances at every wave's wait for its LDS operations; LDS writes are
  /// stamped with it (Wave::ldsCompleted).
  uint32_t ldsClock;
  uint32_t nextSegment;
  uint32_t mxcsr;
  bool failed;
  mla::emu::BufferResource resources[mla::emu::kMaxResources];
  uint32_t numResources;
  /// The HSA dispatch packet and the code object v5 implicit arguments,
  /// for kernels that read launch sizes through them.
  alignas(64) uint8_t dispatchPacket[64];
  alignas(64) uint8_t implicitArgs[256];
  char error[2048];
  mla::emu::Wave waves[mla::emu::kMaxWaves];
};

namespace mla::emu {

/// The lane whose stack the caller runs on. Only valid in code called from
/// a lane (every __mla_emu_* entry point).
inline Lane &currentLane() {
  char marker;
  uintptr_t base =
      reinterpret_cast<uintptr_t>(&marker) & ~uintptr_t(kLaneStackBytes - 1);
  return **reinterpret_cast<Lane **>(base);
}

inline Context &contextOf(const Lane &lane) { return *lane.wave->context; }

/// Suspends the calling lane at `site` until `collective` has run for it
/// (or, when null, until the workgroup barrier releases it).
void arrive(Lane &lane, uint32_t site, CollectiveFn collective);

/// Records a hazard found by `lane` at `site` (UINT32_MAX: none) and
/// abandons the workgroup: never returns.
[[noreturn]] void laneFail(Lane &lane, uint32_t site, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// Records a hazard found while running a collective of `wave` at `site`;
/// the scheduler abandons the workgroup when the collective returns.
void waveFail(Wave &wave, uint32_t site, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// "at LOCATION in @FUNCTION" for `site`.
void describeSite(uint32_t site, char *buffer, size_t size);

/// Checks an access of `lane` to `bytes` bytes at `pointer` through a
/// global, constant or flat pointer (see Memory.cpp); returns `pointer`.
void *checkGlobal(Lane &lane, void *pointer, uint64_t bytes, uint32_t flags,
                  uint32_t site);

/// Checks and records an access of `lane` to LDS, a write completing as
/// `completion` says (a read at the wave's next LDS wait); returns
/// `pointer`.
void *checkLds(Lane &lane, void *pointer, uint64_t bytes, uint32_t flags,
               uint32_t site, LdsCompletion completion);

/// An LDS access of the kernel's code: first waits for the lane's loads to
/// LDS unless `flags` says alias metadata may prove them apart (see
/// Memory.cpp), then checks it like checkLds.
void *accessLds(Lane &lane, void *pointer, uint64_t bytes, uint32_t flags,
                uint32_t site);

/// What uninitialized LDS holds: all ones, NaN in every float format, so
/// that reads of bytes nobody wrote show. Loads to LDS leave it in their
/// destination until they land.
constexpr uint8_t kLdsPoison = 0xFF;

/// Suspends `lane` until the rest of its wave has stopped too, then
/// completes the wave's LDS accesses (Memory.cpp): the wave waited for its
/// LDS operations.
void completeLdsAccesses(Lane &lane, uint32_t site);

/// Issues a load to LDS of `lane` (LdsLoads.cpp): reads `bytes` bytes at
/// `source` (zeros when null) now; `destination`, already checked as a
/// write, holds kLdsPoison until a wait lands the load.
void issueLdsLoad(Lane &lane, void *destination, const void *source,
                  uint32_t bytes, uint32_t site);

/// Lands the loads to LDS of `lane` that are older than its `outstanding`
/// most recent vector-memory operations.
void waitForLdsLoads(Lane &lane, uint32_t outstanding);

/// Fails the run when `lane` returns with loads to LDS in flight.
void checkLdsLoadsWaited(Lane &lane);

/// Suspends `lane` until the rest of its wave has stopped too, as
/// wave.barrier does: later LDS accesses of the wave follow the earlier
/// ones of every lane (LaneOps.cpp).
void synchronizeWave(Lane &lane, uint32_t site);

/// Resets the per-workgroup memory state (LDS contents and resources) at
/// the start of a run.
void resetMemory(Context &context);

/// Fills the dispatch packet and implicit arguments of the current run.
void fillLaunchBlocks(Context &context);

inline bool isGfx950() { return mla_emu_module.chip == MLA_EMU_CHIP_GFX950; }

} // namespace mla::emu

#endif // MLA_EMULATORRUNTIME_RUNTIME_H
