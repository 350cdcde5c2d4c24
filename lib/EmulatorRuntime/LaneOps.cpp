//===- LaneOps.cpp - Barriers and cross-lane operations of a wave ---------===//
//
// Each entry point stores its operands in the calling lane's record and
// suspends it; the collective runs once every lane of the wave has
// suspended, over the lanes waiting at the same instruction (EXEC). Values
// wider than 32 bits arrive as 32-bit words, one collective per word, as
// the hardware moves whole VGPRs.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

using namespace mla::emu;

static bool active(uint64_t exec, unsigned lane) { return exec >> lane & 1; }

static uint32_t in32(const Lane &lane, int operand) {
  return *static_cast<const uint32_t *>(lane.in[operand]);
}

static void out32(Lane &lane, uint32_t value) {
  *static_cast<uint32_t *>(lane.out) = value;
}

/// The lowest active lane.
static Lane &firstActive(Wave &wave, uint64_t exec) {
  return wave.lanes[__builtin_ctzll(exec)];
}

/// Fails unless imm[operand] is the same in every active lane; the ISA
/// reads such operands from a scalar register.
static bool checkUniform(Wave &wave, uint64_t exec, int operand,
                         const char *what) {
  Lane &first = firstActive(wave, exec);
  for (unsigned i = 0; i < kWaveSize; ++i) {
    if (!active(exec, i) || wave.lanes[i].imm[operand] == first.imm[operand])
      continue;
    waveFail(wave, first.site,
             "%s differs between lanes of wave %u (lane %u: %llu, lane %u: "
             "%llu); it must be uniform",
             what, wave.index, first.index,
             static_cast<unsigned long long>(first.imm[operand]), i,
             static_cast<unsigned long long>(wave.lanes[i].imm[operand]));
    return false;
  }
  return true;
}

static void noCollective(Wave &, uint64_t) {}

/// Runs `collective` over the lanes' word operands `first` and `second` and
/// (uniform) `immediate`, each collective reading those it takes; returns
/// the lane's 32-bit result.
static uint32_t collectWord(uint32_t first, uint32_t second, uint64_t immediate,
                            uint32_t site, CollectiveFn collective) {
  Lane &lane = currentLane();
  uint32_t result;
  lane.in[0] = &first;
  lane.in[1] = &second;
  lane.imm[0] = immediate;
  lane.out = &result;
  arrive(lane, site, collective);
  return result;
}

MLA_EMU_RT void __mla_emu_s_barrier(uint32_t site) {
  arrive(currentLane(), site, nullptr);
}

void mla::emu::synchronizeWave(Lane &lane, uint32_t site) {
  arrive(lane, site, noCollective);
}

/// wave.barrier and fences order the wave's memory accesses: the lanes
/// synchronize so that later accesses follow earlier ones of every lane.
MLA_EMU_RT void __mla_emu_wave_barrier(uint32_t site) {
  synchronizeWave(currentLane(), site);
}

/// `releasesLds`: the backend makes the wave wait for its LDS operations
/// and its loads to LDS before this fence (see Instrument.cpp).
MLA_EMU_RT void __mla_emu_fence(uint32_t releasesLds, uint32_t site) {
  Lane &lane = currentLane();
  if (!releasesLds)
    return synchronizeWave(lane, site);
  waitForLdsLoads(lane, 0);
  completeLdsAccesses(lane, site);
}

static void readlane(Wave &wave, uint64_t exec) {
  if (!checkUniform(wave, exec, 0, "the lane select of readlane"))
    return;
  Lane &first = firstActive(wave, exec);
  unsigned source = static_cast<unsigned>(first.imm[0] & (kWaveSize - 1));
  if (!active(exec, source)) {
    waveFail(wave, first.site,
             "readlane reads lane %u of wave %u, which is not active", source,
             wave.index);
    return;
  }
  uint32_t value = in32(wave.lanes[source], 0);
  for (unsigned i = 0; i < kWaveSize; ++i)
    if (active(exec, i))
      out32(wave.lanes[i], value);
}

MLA_EMU_RT uint32_t __mla_emu_readlane_b32(uint32_t value, uint32_t source,
                                           uint32_t site) {
  return collectWord(value, 0, source, site, readlane);
}

static void readfirstlane(Wave &wave, uint64_t exec) {
  uint32_t value = in32(firstActive(wave, exec), 0);
  for (unsigned i = 0; i < kWaveSize; ++i)
    if (active(exec, i))
      out32(wave.lanes[i], value);
}

MLA_EMU_RT uint32_t __mla_emu_readfirstlane_b32(uint32_t value, uint32_t site) {
  return collectWord(value, 0, 0, site, readfirstlane);
}

/// writelane needs no other lane: the selected lane returns the (uniform)
/// value, the others their own old value.
MLA_EMU_RT uint32_t __mla_emu_writelane_b32(uint32_t value, uint32_t target,
                                            uint32_t old, uint32_t) {
  return currentLane().index == (target & (kWaveSize - 1)) ? value : old;
}

static void ballot(Wave &wave, uint64_t exec) {
  uint64_t mask = 0;
  for (unsigned i = 0; i < kWaveSize; ++i)
    if (active(exec, i) && wave.lanes[i].imm[0])
      mask |= uint64_t(1) << i;
  for (unsigned i = 0; i < kWaveSize; ++i)
    if (active(exec, i))
      *static_cast<uint64_t *>(wave.lanes[i].out) = mask;
}

MLA_EMU_RT uint64_t __mla_emu_ballot_i64(uint32_t predicate, uint32_t site) {
  Lane &lane = currentLane();
  uint64_t result;
  lane.imm[0] = predicate & 1;
  lane.out = &result;
  arrive(lane, site, ballot);
  return result;
}

//===----------------------------------------------------------------------===//
// DPP (GFX9 data-parallel primitives)
//===----------------------------------------------------------------------===//

/// The lane `lane` reads under dpp_ctrl `control`, or -1 when the control
/// gives it no source (out of its row or of the wave). The controls are
/// those GFX9 has; the retargeter rejects others.
static int dppSource(unsigned control, unsigned lane) {
  unsigned row = lane & ~15u, inRow = lane & 15u;
  if (control <= 0xFF) // quad_perm
    return static_cast<int>((lane & ~3u) | (control >> (2 * (lane & 3)) & 3));
  if (control >= 0x101 && control <= 0x10F) { // row_shl
    unsigned n = control & 15;
    return inRow + n < 16 ? static_cast<int>(lane + n) : -1;
  }
  if (control >= 0x111 && control <= 0x11F) { // row_shr
    unsigned n = control & 15;
    return inRow >= n ? static_cast<int>(lane - n) : -1;
  }
  if (control >= 0x121 && control <= 0x12F) // row_ror
    return static_cast<int>(row | ((inRow - (control & 15)) & 15));
  switch (control) {
  case 0x130: // wave_shl:1
    return lane + 1 < kWaveSize ? static_cast<int>(lane + 1) : -1;
  case 0x134: // wave_rol:1
    return static_cast<int>((lane + 1) % kWaveSize);
  case 0x138: // wave_shr:1
    return lane > 0 ? static_cast<int>(lane - 1) : -1;
  case 0x13C: // wave_ror:1
    return static_cast<int>((lane + kWaveSize - 1) % kWaveSize);
  case 0x140: // row_mirror
    return static_cast<int>(row | (15 - inRow));
  case 0x141: // row_half_mirror
    return static_cast<int>((lane & ~7u) | (7 - (lane & 7)));
  case 0x142: // row_bcast:15, lane 15 of each row into the next row
    return row ? static_cast<int>(row - 1) : -1;
  case 0x143: // row_bcast:31, lane 31 into rows 2 and 3
    return lane >= 32 ? 31 : -1;
  default:
    return -1;
  }
}

/// imm: control, row mask, bank mask, bound_ctrl; in[0]: old, in[1]: src.
/// Lanes outside row_mask/bank_mask keep `old`; a lane whose source is
/// missing or inactive gets 0 with bound_ctrl, else keeps `old`.
static void dpp(Wave &wave, uint64_t exec) {
  Lane &first = firstActive(wave, exec);
  unsigned control = static_cast<unsigned>(first.imm[0]);
  unsigned rowMask = static_cast<unsigned>(first.imm[1]);
  unsigned bankMask = static_cast<unsigned>(first.imm[2]);
  bool boundCtrl = first.imm[3] != 0;
  for (unsigned i = 0; i < kWaveSize; ++i) {
    if (!active(exec, i))
      continue;
    Lane &lane = wave.lanes[i];
    uint32_t old = in32(lane, 0);
    if (!(rowMask >> (i / 16) & 1) || !(bankMask >> (i % 16 / 4) & 1)) {
      out32(lane, old);
      continue;
    }
    int source = dppSource(control, i);
    if (source >= 0 && active(exec, static_cast<unsigned>(source)))
      out32(lane, in32(wave.lanes[source], 1));
    else
      out32(lane, boundCtrl ? 0 : old);
  }
}

MLA_EMU_RT uint32_t __mla_emu_update_dpp_b32(uint32_t old, uint32_t source,
                                             uint32_t control, uint32_t rowMask,
                                             uint32_t bankMask,
                                             uint32_t boundCtrl,
                                             uint32_t site) {
  Lane &lane = currentLane();
  uint32_t result;
  lane.in[0] = &old;
  lane.in[1] = &source;
  lane.imm[0] = control;
  lane.imm[1] = rowMask;
  lane.imm[2] = bankMask;
  lane.imm[3] = boundCtrl;
  lane.out = &result;
  arrive(lane, site, dpp);
  return result;
}

/// mov.dpp leaves lanes it does not write undefined; they read as 0 here.
MLA_EMU_RT uint32_t __mla_emu_mov_dpp_b32(uint32_t source, uint32_t control,
                                          uint32_t rowMask, uint32_t bankMask,
                                          uint32_t boundCtrl, uint32_t site) {
  return __mla_emu_update_dpp_b32(0, source, control, rowMask, bankMask,
                                  boundCtrl, site);
}

//===----------------------------------------------------------------------===//
// LDS permutes and swizzles
//===----------------------------------------------------------------------===//

/// ds_bpermute_b32: each lane reads `data` of lane (addr / 4) % 64; an
/// inactive source reads as 0.
static void bpermute(Wave &wave, uint64_t exec) {
  for (unsigned i = 0; i < kWaveSize; ++i) {
    if (!active(exec, i))
      continue;
    unsigned source = in32(wave.lanes[i], 0) >> 2 & (kWaveSize - 1);
    out32(wave.lanes[i],
          active(exec, source) ? in32(wave.lanes[source], 1) : 0);
  }
}

/// ds_permute_b32: each lane writes its `data` to lane (addr / 4) % 64;
/// lanes nobody writes get 0, and of several writers the highest lane wins.
static void permute(Wave &wave, uint64_t exec) {
  uint32_t result[kWaveSize] = {};
  for (unsigned i = 0; i < kWaveSize; ++i)
    if (active(exec, i))
      result[in32(wave.lanes[i], 0) >> 2 & (kWaveSize - 1)] =
          in32(wave.lanes[i], 1);
  for (unsigned i = 0; i < kWaveSize; ++i)
    if (active(exec, i))
      out32(wave.lanes[i], result[i]);
}

MLA_EMU_RT uint32_t __mla_emu_ds_bpermute(uint32_t address, uint32_t data,
                                          uint32_t site) {
  return collectWord(address, data, 0, site, bpermute);
}

MLA_EMU_RT uint32_t __mla_emu_ds_permute(uint32_t address, uint32_t data,
                                         uint32_t site) {
  return collectWord(address, data, 0, site, permute);
}

/// ds_swizzle_b32 offset modes of GFX9: bit 15 set, a 4-lane quad
/// permutation; otherwise the bitmask mode within each 32 lanes, source =
/// ((lane & and) | or) ^ xor. An inactive source reads as 0.
static void swizzle(Wave &wave, uint64_t exec) {
  unsigned offset = static_cast<unsigned>(firstActive(wave, exec).imm[0]);
  for (unsigned i = 0; i < kWaveSize; ++i) {
    if (!active(exec, i))
      continue;
    unsigned source;
    if (offset & 0x8000) {
      source = (i & ~3u) | (offset >> (2 * (i & 3)) & 3);
    } else {
      unsigned andMask = offset & 0x1F, orMask = offset >> 5 & 0x1F,
               xorMask = offset >> 10 & 0x1F;
      source = (((i & andMask) | orMask) ^ xorMask) | (i & 32);
    }
    out32(wave.lanes[i],
          active(exec, source) ? in32(wave.lanes[source], 0) : 0);
  }
}

MLA_EMU_RT uint32_t __mla_emu_ds_swizzle(uint32_t data, uint32_t offset,
                                         uint32_t site) {
  return collectWord(data, 0, offset, site, swizzle);
}

//===----------------------------------------------------------------------===//
// gfx950 permlane swaps
//===----------------------------------------------------------------------===//

/// v_permlane{16,32}_swap_b32 vdst, vsrc: swaps vdst of the lanes of the
/// upper half of each (2 * distance)-lane group with vsrc of the lanes
/// `distance` below (16: odd rows of vdst with even rows of vsrc; 32: rows
/// 2-3 of vdst with rows 0-1 of vsrc). Results: {vdst', vsrc'}. A partner
/// that is not active leaves the value unchanged, or 0 with bound_ctrl.
template <unsigned Distance>
static void permlaneSwap(Wave &wave, uint64_t exec) {
  bool boundCtrl = firstActive(wave, exec).imm[1] != 0;
  for (unsigned i = 0; i < kWaveSize; ++i) {
    if (!active(exec, i))
      continue;
    Lane &lane = wave.lanes[i];
    auto *result = static_cast<uint32_t *>(lane.out);
    bool upper = i & Distance;
    unsigned partner = upper ? i - Distance : i + Distance;
    bool present = active(exec, partner);
    if (upper) {
      result[0] = present ? in32(wave.lanes[partner], 1)
                          : (boundCtrl ? 0 : in32(lane, 0));
      result[1] = in32(lane, 1);
    } else {
      result[0] = in32(lane, 0);
      result[1] = present ? in32(wave.lanes[partner], 0)
                          : (boundCtrl ? 0 : in32(lane, 1));
    }
  }
}

template <unsigned Distance>
static void permlaneSwapEntry(uint32_t *out, uint32_t vdst, uint32_t vsrc,
                              uint32_t boundCtrl, uint32_t site) {
  Lane &lane = currentLane();
  lane.in[0] = &vdst;
  lane.in[1] = &vsrc;
  lane.imm[1] = boundCtrl;
  lane.out = out;
  arrive(lane, site, permlaneSwap<Distance>);
}

MLA_EMU_RT void __mla_emu_permlane16_swap(uint32_t *out, uint32_t vdst,
                                          uint32_t vsrc, uint32_t,
                                          uint32_t boundCtrl, uint32_t site) {
  permlaneSwapEntry<16>(out, vdst, vsrc, boundCtrl, site);
}

MLA_EMU_RT void __mla_emu_permlane32_swap(uint32_t *out, uint32_t vdst,
                                          uint32_t vsrc, uint32_t,
                                          uint32_t boundCtrl, uint32_t site) {
  permlaneSwapEntry<32>(out, vdst, vsrc, boundCtrl, site);
}
