//===- LdsTransposeReads.cpp - gfx950's transposing LDS reads -------------===//
//
// ds_read_b64_tr_b16, _tr_b8 and _tr_b4: every lane reads the 8 bytes at its
// own LDS address, as ds_read_b64 would (checked and recorded by the race
// detector at issue), then the wave exchanges them between lanes by the
// rules of shared/AMD.md. Each rule works within aligned groups of lanes;
// a group with some lanes inactive has no defined result, so it fails.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstring>

using namespace mla::emu;

static uint64_t bytesOf(const Lane &lane) {
  return *static_cast<const uint64_t *>(lane.in[0]);
}

static void setResult(Lane &lane, uint64_t value) {
  std::memcpy(lane.out, &value, sizeof(value));
}

/// Fails unless every lane of each aligned `group`-lane block is active or
/// none is; returns whether the exchange may go on.
static bool wholeGroups(Wave &wave, uint64_t exec, unsigned group,
                        const char *instruction) {
  uint64_t mask = group == 64 ? ~uint64_t(0) : (uint64_t(1) << group) - 1;
  for (unsigned base = 0; base < kWaveSize; base += group) {
    uint64_t lanes = exec >> base & mask;
    if (lanes == 0 || lanes == mask)
      continue;
    waveFail(wave, wave.lanes[base + __builtin_ctzll(lanes)].site,
             "%s in wave %u runs with lanes %u-%u only partly active; its "
             "lanes exchange data in blocks of %u, so all of a block must run",
             instruction, wave.index, base, base + group - 1, group);
    return false;
  }
  return true;
}

static bool active(uint64_t exec, unsigned lane) { return exec >> lane & 1; }

/// Gives each active lane i the 8 bytes `transposed(i)`, once the active
/// lanes are whole groups of `groupSize`.
template <typename Fn>
static void transpose(Wave &wave, uint64_t exec, unsigned groupSize,
                      const char *what, Fn transposed) {
  if (!wholeGroups(wave, exec, groupSize, what))
    return;
  for (unsigned i = 0; i < kWaveSize; ++i)
    if (active(exec, i))
      setResult(wave.lanes[i], transposed(i));
}

/// tr_b16: in each 4-lane group, lane 4g + k gets halfword k of lanes
/// 4g .. 4g + 3 as its halfwords 0 .. 3.
static void transpose16(Wave &wave, uint64_t exec) {
  transpose(wave, exec, 4, "ds_read_b64_tr_b16", [&](unsigned i) {
    unsigned group = i & ~3u, k = i & 3u;
    uint64_t value = 0;
    for (unsigned from = 0; from < 4; ++from)
      value |= (bytesOf(wave.lanes[group + from]) >> (16 * k) & 0xFFFF)
               << (16 * from);
    return value;
  });
}

/// tr_b8: in each 16-lane block B, lane B + 8p + b gets byte b of lanes
/// B + 4p + 0..3 in its first dword and of lanes B + 8 + 4p + 0..3 in its
/// second (byte i from the i-th of those lanes).
static void transpose8(Wave &wave, uint64_t exec) {
  transpose(wave, exec, 16, "ds_read_b64_tr_b8", [&](unsigned i) {
    unsigned block = i & ~15u, p = i >> 3 & 1u, b = i & 7u;
    uint64_t value = 0;
    for (unsigned dword = 0; dword < 2; ++dword)
      for (unsigned from = 0; from < 4; ++from) {
        const Lane &source = wave.lanes[block + 8 * dword + 4 * p + from];
        value |= (bytesOf(source) >> (8 * b) & 0xFF) << (32 * dword + 8 * from);
      }
    return value;
  });
}

/// tr_b4: in each 32-lane half H, lane H + 16 (G & 1) + n gets nibble n of
/// the 8 lanes H + 8G .. H + 8G + 7 of group G (nibble i from the i-th) in
/// its dword G >> 1, for G = 0..3.
static void transpose4(Wave &wave, uint64_t exec) {
  transpose(wave, exec, 32, "ds_read_b64_tr_b4", [&](unsigned i) {
    unsigned half = i & ~31u, odd = i >> 4 & 1u, n = i & 15u;
    uint64_t value = 0;
    for (unsigned dword = 0; dword < 2; ++dword) {
      unsigned group = 2 * dword + odd;
      for (unsigned from = 0; from < 8; ++from) {
        const Lane &source = wave.lanes[half + 8 * group + from];
        value |= (bytesOf(source) >> (4 * n) & 0xF) << (32 * dword + 4 * from);
      }
    }
    return value;
  });
}

/// Reads the lane's 8 bytes (8-byte aligned) and runs `exchange`; `flags`
/// carries MLA_EMU_ACCESS_ALIAS_METADATA from the call.
static void readTransposed(void *out, void *lds, uint32_t flags, uint32_t site,
                           CollectiveFn exchange) {
  Lane &lane = currentLane();
  uint64_t bytes;
  std::memcpy(&bytes,
              accessLds(lane, lds, sizeof(bytes),
                        (flags & MLA_EMU_ACCESS_ALIAS_METADATA) |
                            MLA_EMU_ACCESS_READ |
                            3u << MLA_EMU_ACCESS_ALIGN_SHIFT,
                        site),
              sizeof(bytes));
  lane.in[0] = &bytes;
  lane.out = out;
  arrive(lane, site, exchange);
}

MLA_EMU_RT void __mla_emu_ds_read_tr16_b64(void *out, void *lds, uint32_t flags,
                                           uint32_t site) {
  readTransposed(out, lds, flags, site, transpose16);
}

MLA_EMU_RT void __mla_emu_ds_read_tr8_b64(void *out, void *lds, uint32_t flags,
                                          uint32_t site) {
  readTransposed(out, lds, flags, site, transpose8);
}

MLA_EMU_RT void __mla_emu_ds_read_tr4_b64(void *out, void *lds, uint32_t flags,
                                          uint32_t site) {
  readTransposed(out, lds, flags, site, transpose4);
}
