//===- Chips.h - The facts of each chip, one table --------------*- C++ -*-===//
//
// What the compiler and the runtime need to know about a GPU: warp size,
// LDS, the 16-bit matrix-core shape, copy widths into LDS, the fp8 encoding
// its conversions speak and how many compute units run programs. Layout
// assignment (tilegpu::ChipInfo), the GPU lowering, the target registry and
// the runtime's HIP, CUDA and emulation backends all read this table; a new
// chip is one row here. Plain C++, like the rest of MLASupport.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_SUPPORT_CHIPS_H
#define MLA_SUPPORT_CHIPS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace mla {

enum class ChipFamily { CDNA3, CDNA4, Hopper };

/// The fp8 encodings a chip's conversion instructions read and write.
enum class Fp8Encoding {
  OCP,  // e4m3fn / e5m2 (gfx950, sm_90)
  FNUZ, // e4m3fnuz / e5m2fnuz (gfx942)
};

/// The widest global memory access of one lane on every known chip, bytes.
constexpr int64_t kMaxAccessBytes = 16;

struct Chip {
  std::string_view name;
  ChipFamily family;
  unsigned waveSize;
  /// LDS (shared memory) one program may use, in bytes.
  int64_t ldsBytes;
  /// The matrix-core instruction shape for bf16/f16 operands with f32
  /// results.
  unsigned mmaM, mmaN, mmaK;
  /// The narrowest and widest per-lane copies from global memory straight
  /// into LDS, in bytes (the powers of two between); 0 when there are none.
  unsigned minLdsCopyBytes, maxLdsCopyBytes;
  /// Whether 64-row products of 16-bit operands run on whole warpgroups
  /// (sm_90a's wgmma, operands read from shared memory).
  bool warpgroupMma;
  /// Whether the matrix cores multiply packed fp4 operands under E8M0
  /// block scales themselves (CDNA4's v_mfma_scale_f32_*_f8f6f4).
  bool scaledFp4Mma;
  Fp8Encoding fp8;
  /// Compute units (SMs) of the part the chip ships in; the HIP runtime
  /// plans with it because device property layouts vary across ROCm
  /// releases. CUDA asks the device instead.
  unsigned computeUnits;

  bool isAMD() const { return family != ChipFamily::Hopper; }
  /// Whether a copy into LDS moves as many bytes per lane as a global load
  /// into registers can: only then does prefetching through copies cost no
  /// instruction width.
  bool copiesAsWideAsLoads() const {
    return maxLdsCopyBytes >= kMaxAccessBytes;
  }
};

/// The known chips, in the order help texts list them.
struct ChipRange {
  const Chip *first, *last;
  const Chip *begin() const { return first; }
  const Chip *end() const { return last; }
};
ChipRange getChips();

/// The chip called `name` (gfx950, gfx942, sm_90), or null.
const Chip *lookupChip(std::string_view name);

/// The names of the known chips `accept` takes, each followed by `suffix`,
/// as "a, b or c", for messages that say what was expected.
std::string listChips(bool (*accept)(const Chip &),
                      std::string_view suffix = "");

} // namespace mla

#endif // MLA_SUPPORT_CHIPS_H
