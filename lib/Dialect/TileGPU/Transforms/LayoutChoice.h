//===- LayoutChoice.h - Default layouts for tiles on a chip -----*- C++ -*-===//

#ifndef MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTCHOICE_H
#define MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTCHOICE_H

#include "mla/Dialect/TileGPU/IR/ChipInfo.h"
#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

namespace mla::tilegpu {

/// A blocked layout for a tile of `shape` and `elementBits`-bit elements
/// whose dimension `contiguousDim` is contiguous in memory: 16 bytes per
/// lane along it where the shape allows, lanes then warps spread over the
/// tile from the contiguous dimension outwards.
BlockedAttr chooseBlocked(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                          unsigned elementBits, unsigned contiguousDim,
                          unsigned waveSize, unsigned numWarps);

/// The matrix-core result layout for an [m, n] product on `chip`: the warp
/// grid whose warps read the fewest operand rows and columns, each warp
/// taking at most two instruction rows.
MmaAttr chooseMma(mlir::MLIRContext *ctx, const ChipInfo &chip, int64_t m,
                  int64_t n, unsigned numWarps);

/// `mma` with the instruction K for a product of contraction length `k`:
/// the chip's, or where that does not divide `k`, the half-K instruction
/// that CDNA4 keeps from CDNA3 (K = 16 against gfx950's 32). The result
/// layouts of the two are the same.
MmaAttr withInstrKFor(MmaAttr mma, const ChipInfo &chip, int64_t k);

/// `type` with a leading dimension of `count` buffers (a
/// tilegpu.local_buffer's type), the new dimension the slowest.
MemDescType bufferArrayOf(MemDescType type, int64_t count);

} // namespace mla::tilegpu

#endif // MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTCHOICE_H
