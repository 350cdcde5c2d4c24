//===- LayoutChoice.h - Default layouts for tiles on a chip -----*- C++ -*-===//

#ifndef MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTCHOICE_H
#define MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTCHOICE_H

#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/ChipInfo.h"
#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

namespace mla::tilegpu {

/// A blocked layout for a tile of `shape` and `elementBits`-bit elements
/// whose dimension `contiguousDim` is contiguous in memory: 16 bytes per
/// lane along it where the shape allows, lanes then warps spread over the
/// tile from the contiguous dimension outwards. Warps stay off the
/// dimensions of `reducedDims` (bit d: the tile is reduced along d) where
/// the others can take them, or can take them for some of their lanes, so
/// that a reduction along one adds within each warp instead of exchanging
/// through LDS behind a barrier.
BlockedAttr chooseBlocked(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                          unsigned elementBits, unsigned contiguousDim,
                          unsigned waveSize, unsigned numWarps,
                          unsigned reducedDims = 0);

/// Where a product's operands come from and where its result goes, as far
/// as the choice of its layout cares.
struct ProductUse {
  /// The left operand is a tile loaded from memory, not one computed in
  /// registers.
  bool lhsLoaded = false;
  /// The accumulator is a loop's carried value: the product adds to it
  /// once per iteration.
  bool accumulatesInLoop = false;
};

/// The matrix-core result layout for an [m, n] product over K = `k` of
/// `element` operands on `chip`: on a chip with warpgroup products, whole
/// 64-row instructions per warpgroup where the rows and warps allow; for
/// one instruction row of at most 4 instruction columns over a long K,
/// warps that split K, unless the product accumulates in a loop (the
/// groups' parts would be summed every iteration); otherwise the warp grid
/// whose warps read the fewest operand rows and columns, each warp taking
/// at most two instruction rows (four on AMD chips where the left operand
/// is loaded).
MmaAttr chooseMma(mlir::MLIRContext *ctx, const ChipInfo &chip, int64_t m,
                  int64_t n, int64_t k, unsigned numWarps, mlir::Type element,
                  ProductUse use);

/// `mma` with the instruction K for a product of contraction length `k`:
/// the chip's, or where that does not divide `k`, the half-K instruction
/// that CDNA4 keeps from CDNA3 (K = 16 against gfx950's 32). The result
/// layouts of the two are the same.
MmaAttr withInstrKFor(MmaAttr mma, const ChipInfo &chip, int64_t k);

/// `mma` (an MFMA layout) with CDNA4's scaled instruction of its shape,
/// which multiplies packed fp4 operands under E8M0 block scales: 16x16x128
/// or 32x32x64, 32 values of K per lane. Warps that split `mma`'s K take
/// columns instead (the scaled product never splits K), so the result
/// layout is the same up to those warps.
MmaAttr scaledFp4Mma(MmaAttr mma);

/// Whether `mma`'s instruction is a scaled fp4 one (scaledFp4Mma).
bool isScaledFp4Mma(MmaAttr mma);

/// The canonical swizzled layout that warpgroup products read a [rows,
/// cols] tile of 16-bit elements in (PTX ISA, "Shared Memory Matrix
/// Layout"): 16-byte groups in atoms of the widest of 128, 64 or 32 bytes
/// that divides a row, the groups of each 1024 bytes of an atom XORed with
/// the row within. Null for other tiles.
SharedAttr chooseWarpgroupShared(mlir::MLIRContext *ctx,
                                 mlir::RankedTensorType type);

/// `type` with a leading dimension of `count` buffers (a
/// tilegpu.local_buffer's type), the new dimension the slowest.
MemDescType bufferArrayOf(MemDescType type, int64_t count);

/// Makes `load` produce `type` (another layout of its tile), with its mask,
/// if any, converted right before it to the layout that masks `type`: the
/// same, or slices of it for a mask of lower rank.
void setLoadLayout(tile::LoadOp load, mlir::RankedTensorType type);

} // namespace mla::tilegpu

#endif // MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTCHOICE_H
