//===- ChipInfo.h - What layout decisions need to know about a chip -*- C++
//-*-===//
//
// The chip facts that decide layouts and LDS use come from the one chip
// table (mla/Support/Chips.h); this header names them in the dialect and
// adds what is dialect-specific, the matrix-core instruction kind. Code
// emission differences live in the lowering's target interface
// (Conversion/TileToGPU).
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DIALECT_TILEGPU_IR_CHIPINFO_H
#define MLA_DIALECT_TILEGPU_IR_CHIPINFO_H

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "mla/Support/Chips.h"

namespace mla::tilegpu {

using ChipInfo = mla::Chip;
using mla::ChipFamily;
using mla::getChips;
using mla::kMaxAccessBytes;
using mla::lookupChip;

/// The matrix-core instruction for bf16/f16 operands with f32 results.
inline MmaKind getMmaKind(const ChipInfo &chip) {
  return chip.isAMD() ? MmaKind::mfma : MmaKind::mma_sync;
}

} // namespace mla::tilegpu

#endif // MLA_DIALECT_TILEGPU_IR_CHIPINFO_H
