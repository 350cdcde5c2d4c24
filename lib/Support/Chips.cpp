//===- Chips.cpp - The facts of each chip, one table ----------------------===//

#include "mla/Support/Chips.h"

#include <iterator>

using namespace mla;

// gfx950 (MI355X, CDNA4): bf16 MFMA 16x16x32, 160 KiB LDS, buffer_load ...
// lds of 1 to 16 bytes per lane, scaled MFMA of fp4 operands, OCP fp8, 256
// CUs. gfx942 (MI300X, CDNA3):
// bf16 MFMA 16x16x16 (the "_1k" form), 64 KiB LDS, copies into LDS of 1 to
// 4 bytes, FNUZ fp8, 304 CUs (shared/AMD.md). sm_90 (H100/H200): mma.sync
// m16n8k16 and, on sm_90a, wgmma for 64-row blocks; 227 KiB of shared
// memory per block; cp.async of 4 to 16 bytes; 132 SMs.
static const Chip kChips[] = {
    {"gfx950", ChipFamily::CDNA4, 64, 160 * 1024, 16, 16, 32, 1, 16,
     /*warpgroupMma=*/false, /*scaledFp4Mma=*/true, Fp8Encoding::OCP, 256},
    {"gfx942", ChipFamily::CDNA3, 64, 64 * 1024, 16, 16, 16, 1, 4,
     /*warpgroupMma=*/false, /*scaledFp4Mma=*/false, Fp8Encoding::FNUZ, 304},
    {"sm_90", ChipFamily::Hopper, 32, 227 * 1024, 16, 8, 16, 4, 16,
     /*warpgroupMma=*/true, /*scaledFp4Mma=*/false, Fp8Encoding::OCP, 132},
};

ChipRange mla::getChips() { return {std::begin(kChips), std::end(kChips)}; }

const Chip *mla::lookupChip(std::string_view name) {
  for (const Chip &chip : kChips)
    if (chip.name == name)
      return &chip;
  return nullptr;
}

std::string mla::listChips(bool (*accept)(const Chip &),
                           std::string_view suffix) {
  std::string names;
  const Chip *pending = nullptr;
  for (const Chip &chip : kChips) {
    if (!accept(chip))
      continue;
    if (pending) {
      if (!names.empty())
        names += ", ";
      names += pending->name;
      names += suffix;
    }
    pending = &chip;
  }
  if (!pending)
    return names;
  if (!names.empty())
    names += " or ";
  names += pending->name;
  names += suffix;
  return names;
}
