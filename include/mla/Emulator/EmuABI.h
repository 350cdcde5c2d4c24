/*===- EmuABI.h - Interface of an emulated AMD module -------------*- C -*-===//
 *
 * An emulated module (`mla-compile --target=gfx950-emu`) is a host shared
 * object holding the retargeted kernels and the emulation runtime. This
 * header is the whole interface between it and its loader (mla-run's emu
 * backend), and between the retargeted code and the runtime's descriptor
 * reader: plain C, no LLVM. lib/Emulator generates `mla_emu_module` with
 * exactly these layouts.
 *
 *===----------------------------------------------------------------------===*/

#ifndef MLA_EMULATOR_EMUABI_H
#define MLA_EMULATOR_EMUABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped whenever a layout below changes. */
#define MLA_EMU_ABI_VERSION 1

/** The chips an emulated module can be built for. */
enum { MLA_EMU_CHIP_GFX942 = 942, MLA_EMU_CHIP_GFX950 = 950 };

/** MlaEmuKernel::flags: f32 denormals are flushed (the kernel's
 *  "denormal-fp-math-f32" is preserve-sign). */
#define MLA_EMU_FLUSH_F32_DENORMALS 1u

/** One lane of a kernel: the kernel body run by one work-item, taking the
 *  argument array of docs/ABI.md. */
typedef void (*MlaEmuLaneEntry)(void **args);

/** An instruction the runtime may report: an instrumented memory access, an
 *  emulated intrinsic call or a fence. */
typedef struct MlaEmuSite {
  /** The IR function holding the instruction. */
  const char *function;
  /** FILE:LINE:COL from the IR's debug location, or the instruction's text
   *  when it has none. */
  const char *location;
} MlaEmuSite;

typedef struct MlaEmuKernel {
  const char *name;
  MlaEmuLaneEntry entry;
  /** LDS the kernel's module variables take, in bytes. */
  uint32_t staticLdsBytes;
  /** reqd_work_group_size, or zeros when the kernel has none. */
  uint32_t requiredWorkgroupSize[3];
  uint32_t flags;
  uint32_t numArgs;
} MlaEmuKernel;

/** Memory the module itself defines (its non-LDS globals), which kernels
 *  may access besides their buffers. */
typedef struct MlaEmuGlobal {
  const void *begin;
  uint64_t bytes;
} MlaEmuGlobal;

typedef struct MlaEmuModule {
  uint32_t abiVersion;
  /** MLA_EMU_CHIP_*. */
  uint32_t chip;
  /** The chip's LDS per workgroup, in bytes. */
  uint32_t ldsLimit;
  uint32_t numKernels;
  const MlaEmuKernel *kernels;
  uint32_t numSites;
  const MlaEmuSite *sites;
  uint32_t numGlobals;
  const MlaEmuGlobal *globals;
} MlaEmuModule;

/** A buffer a launch passes to the kernel: kernels may access these bytes
 *  (and the module's globals) and no other memory. */
typedef struct MlaEmuBuffer {
  uintptr_t begin;
  uintptr_t end;
  /** The kernel argument it is bound to, for reports. */
  const char *name;
} MlaEmuBuffer;

typedef struct MlaEmuLaunch {
  const MlaEmuKernel *kernel;
  void **args;
  /** Workgroups per dimension. */
  uint32_t grid[3];
  uint32_t workgroupSize[3];
  uint32_t dynamicLdsBytes;
  uint32_t numBuffers;
  /** Sorted by `begin`, not overlapping. */
  const MlaEmuBuffer *buffers;
} MlaEmuLaunch;

/** The per-thread state of the runtime (lane stacks, LDS and its shadow):
 *  one context runs one workgroup at a time. */
typedef struct MlaEmuContext MlaEmuContext;

/** How a memory access the retargeted code checks uses the memory (the
 *  `flags` of the runtime's access checks); bits 8-15 hold log2 of the
 *  alignment the access claims. */
#define MLA_EMU_ACCESS_READ 1u
#define MLA_EMU_ACCESS_WRITE 2u
#define MLA_EMU_ACCESS_ATOMIC 4u
/** The instruction carries alias metadata (!tbaa, !alias.scope, !noalias):
 *  the backend then waits before an LDS access only for the loads to LDS it
 *  cannot prove apart, not for all of the wave's. */
#define MLA_EMU_ACCESS_ALIAS_METADATA 8u
/** A load from the constant address space, which the backend makes a
 *  scalar load: not a vector-memory operation (vmcnt does not count it). */
#define MLA_EMU_ACCESS_SCALAR 16u
#define MLA_EMU_ACCESS_ALIGN_SHIFT 8

/** Name of the module descriptor every emulated module defines. */
#define MLA_EMU_MODULE_SYMBOL "mla_emu_module"

/* Exported by every emulated module (the runtime part). */

/** Checks `launch` against its kernel and the chip (workgroup size, LDS);
 *  returns NULL when it can run, otherwise a message valid until the next
 *  call. */
const char *mla_emu_check_launch(const MlaEmuLaunch *launch);

/** A new context, or NULL when memory runs out. */
MlaEmuContext *mla_emu_context_create(void);
void mla_emu_context_destroy(MlaEmuContext *context);

/** Runs workgroup `id` of a checked launch to completion. Returns 0, or 1
 *  when the run found a hazard (see mla_emu_context_error); the workgroup's
 *  remaining work is abandoned then. */
int mla_emu_run_workgroup(MlaEmuContext *context, const MlaEmuLaunch *launch,
                          const uint32_t id[3]);

/** The report of the last failed run of `context`. */
const char *mla_emu_context_error(const MlaEmuContext *context);

typedef const char *(*MlaEmuCheckLaunchFn)(const MlaEmuLaunch *);
typedef MlaEmuContext *(*MlaEmuContextCreateFn)(void);
typedef void (*MlaEmuContextDestroyFn)(MlaEmuContext *);
typedef int (*MlaEmuRunWorkgroupFn)(MlaEmuContext *, const MlaEmuLaunch *,
                                    const uint32_t[3]);
typedef const char *(*MlaEmuContextErrorFn)(const MlaEmuContext *);

#ifdef __cplusplus
}
#endif

#endif /* MLA_EMULATOR_EMUABI_H */
