//===- ChipInfo.cpp - What layout decisions need to know about a chip -----===//

#include "mla/Dialect/TileGPU/IR/ChipInfo.h"

using namespace mla::tilegpu;

llvm::ArrayRef<ChipInfo> mla::tilegpu::getChips() {
  // gfx950 has the CDNA4 bf16 MFMA of K = 32; gfx942's bf16 MFMA of that
  // shape is 16x16x16 (the "_1k" form). LDS: 160 KiB on gfx950, 64 KiB on
  // gfx942 (shared/AMD.md). sm_90: mma.sync m16n8k16 and up to 227 KiB of
  // shared memory per block, and (sm_90a) wgmma for products of 64-row
  // blocks. Copies into LDS: buffer_load ... lds of 1 to
  // 16 bytes per lane on gfx950 and 1 to 4 on gfx942; cp.async of 4 to 16
  // on sm_90.
  static const ChipInfo chips[] = {
      {"gfx950", ChipFamily::CDNA4, 64, 160 * 1024, MmaKind::mfma, 16, 16, 32,
       1, 16},
      {"gfx942", ChipFamily::CDNA3, 64, 64 * 1024, MmaKind::mfma, 16, 16, 16, 1,
       4},
      {"sm_90", ChipFamily::Hopper, 32, 227 * 1024, MmaKind::mma_sync, 16, 8,
       16, 4, 16, /*warpgroupMma=*/true},
  };
  return chips;
}

const ChipInfo *mla::tilegpu::lookupChip(llvm::StringRef name) {
  for (const ChipInfo &chip : getChips())
    if (chip.name == name)
      return &chip;
  return nullptr;
}
