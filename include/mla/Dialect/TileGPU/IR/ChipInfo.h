//===- ChipInfo.h - What layout decisions need to know about a chip -*- C++
//-*-===//
//
// The facts of a GPU that decide layouts and LDS use: warp size, LDS size,
// the matrix-core instruction per operand type. Code emission differences
// live in the lowering's target interface (Conversion/TileToGPU).
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DIALECT_TILEGPU_IR_CHIPINFO_H
#define MLA_DIALECT_TILEGPU_IR_CHIPINFO_H

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mla::tilegpu {

enum class ChipFamily { CDNA3, CDNA4, Hopper };

/// The widest global memory access of one lane on every known chip, bytes.
constexpr int64_t kMaxAccessBytes = 16;

struct ChipInfo {
  llvm::StringRef name;
  ChipFamily family;
  unsigned waveSize;
  /// LDS (shared memory) one program may use, in bytes.
  int64_t ldsBytes;
  /// The matrix-core instruction for bf16/f16 operands with f32 results.
  MmaKind mmaKind;
  unsigned mmaM, mmaN, mmaK;
  /// The narrowest and widest per-lane copies from global memory straight
  /// into LDS, in bytes (the powers of two between); 0 when there are none.
  unsigned minLdsCopyBytes, maxLdsCopyBytes;
  /// Whether 64-row products of 16-bit operands run on whole warpgroups
  /// (sm_90a's wgmma, operands read from shared memory).
  bool warpgroupMma = false;

  bool isAMD() const { return family != ChipFamily::Hopper; }
  /// Whether a copy into LDS moves as many bytes per lane as a global load
  /// into registers can: only then does prefetching through copies cost no
  /// instruction width.
  bool copiesAsWideAsLoads() const {
    return maxLdsCopyBytes >= kMaxAccessBytes;
  }
};

/// The chip called `name` (gfx950, gfx942, sm_90), if known.
const ChipInfo *lookupChip(llvm::StringRef name);

/// Every known chip, for help texts.
llvm::ArrayRef<ChipInfo> getChips();

} // namespace mla::tilegpu

#endif // MLA_DIALECT_TILEGPU_IR_CHIPINFO_H
