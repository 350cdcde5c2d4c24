//===- GpuTarget.h - What the GPU lowering asks of a chip -------*- C++ -*-===//
//
// The shared GPU lowering (convert-tile-to-gpu) emits everything that is the
// same on every GPU itself and asks this interface for the rest: matrix-core
// instructions, cross-lane exchange, bounds-checked global access, and the
// ids a program runs with. One implementation per vendor; chip differences
// within a vendor come from the ChipInfo it is made with.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_CONVERSION_TILETOGPU_GPUTARGET_H
#define MLA_CONVERSION_TILETOGPU_GPUTARGET_H

#include "mla/Dialect/TileGPU/IR/ChipInfo.h"

#include "mlir/IR/Builders.h"

#include <memory>

namespace mla {

class GpuTarget {
public:
  explicit GpuTarget(const tilegpu::ChipInfo &chip) : info(chip) {}
  virtual ~GpuTarget() = default;

  const tilegpu::ChipInfo &chip() const { return info; }

  /// The warp (wave) index of `threadId`, made uniform where the chip can
  /// say so (a scalar register on AMD).
  virtual mlir::Value warpId(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value threadId) const = 0;

  /// The number of programs along grid axis `axis` (0..2), as index.
  virtual mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc,
                                  unsigned axis,
                                  int64_t threadsPerProgram) const = 0;

  /// `value` (a 32-bit scalar) of the lane whose id is this lane's xor
  /// `mask` (a power of two). `uniformBelow` (a power of two) says that
  /// lanes whose ids differ only below it hold the same value, as in the
  /// later steps of a butterfly reduction: then any lane of the partner's
  /// group will do, which some chips reach more cheaply.
  virtual mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value value, unsigned mask,
                                 unsigned uniformBelow = 1) const;

  /// Whether the chip has the instructions of `mma` for operands of
  /// `element`.
  virtual bool hasMma(tilegpu::MmaAttr mma, mlir::Type element) const = 0;

  /// One matrix-core instruction: `acc + a * b` for the operand and
  /// accumulator registers of one lane, laid out as `mma` says.
  virtual mlir::Value mma(mlir::OpBuilder &b, mlir::Location loc,
                          tilegpu::MmaAttr mma, mlir::Value a, mlir::Value bv,
                          mlir::Value acc) const = 0;

  /// One scaled matrix-core instruction (`hasMma` for f4E2M1FN operands):
  /// `acc + (a * 2^aScale) * (b * 2^bScale)` for one lane's 32 fp4 values
  /// of each operand (`vector<32xf4E2M1FN>`) and their E8M0 scales.
  virtual mlir::Value scaledMma(mlir::OpBuilder &b, mlir::Location loc,
                                tilegpu::MmaAttr mma, mlir::Value a,
                                mlir::Value aScale, mlir::Value bv,
                                mlir::Value bScale, mlir::Value acc) const;

  /// Global memory through a base pointer (`!llvm.ptr<1>`) whose first
  /// `numBytes` bytes may be accessed.
  ///
  /// A target with bounds-checked buffer access returns a resource that
  /// loadGlobal/storeGlobal use; others return `base`.
  virtual mlir::Value globalResource(mlir::OpBuilder &b, mlir::Location loc,
                                     mlir::Value base,
                                     mlir::Value numBytes) const = 0;
  /// Loads `type` at `byteOffset` (i32) of `resource`. Where `valid` (i1)
  /// is false the access must not fault and reads zero bits (tile loads
  /// rely on it for their default padding).
  virtual mlir::Value loadGlobal(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Type type, mlir::Value resource,
                                 mlir::Value byteOffset, mlir::Value valid,
                                 mlir::Value numBytes) const = 0;
  /// Whether every access through a resource of globalResource at or past
  /// its `numBytes` reads zero (and a store there is dropped) with no check
  /// in the code: a bounded buffer descriptor. Then an access that is
  /// invalid only because it lies past the view's last byte needs no
  /// `valid` of its own.
  virtual bool boundsAccesses() const { return false; }
  /// Stores `value` unless `valid` is false.
  virtual void storeGlobal(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value, mlir::Value resource,
                           mlir::Value byteOffset, mlir::Value valid,
                           mlir::Value numBytes) const = 0;
  /// i1: whether a vector access of `bytes` bytes at `byteOffset` of
  /// `resource` may be made as one access; where it may not, the lowering
  /// accesses the elements one by one. Null when the chip takes vector
  /// accesses at any address.
  virtual mlir::Value isAlignedForVector(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Value resource,
                                         mlir::Value byteOffset,
                                         int64_t bytes) const;

  /// Starts copying `bytes` bytes (a size between `chip().minLdsCopyBytes`
  /// and `maxLdsCopyBytes`) from `byteOffset` (i32) of `resource` straight
  /// into LDS, at `ldsBase` (`!llvm.ptr<3>`, the same in every lane of the
  /// warp) plus `lane` (index) times `bytes`. Where `valid` is false the
  /// lane copies zero. The data is there after `waitForCopies` covers it.
  virtual void copyToLds(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value resource, mlir::Value byteOffset,
                         mlir::Value valid, mlir::Value numBytes,
                         mlir::Value ldsBase, mlir::Value lane,
                         int64_t bytes) const;

  /// Ends the copies into LDS of one `tilegpu.async_copy`.
  virtual void commitCopies(mlir::OpBuilder &b, mlir::Location loc) const {}

  /// Waits until at most the `pendingCopies` most recent `async_copy` ops,
  /// `pendingInstructions` copy instructions of this warp's, are in flight.
  virtual void waitForCopies(mlir::OpBuilder &b, mlir::Location loc,
                             int64_t pendingCopies,
                             int64_t pendingInstructions) const;

  /// Whether loadMatrices can read 8x8 matrices of 16-bit elements.
  virtual bool hasMatrixLoads() const { return false; }
  /// Reads `count` (1, 2 or 4) 8x8 matrices of 16-bit elements from LDS,
  /// every lane of the warp taking part: lane 8i + j gives at `rowAddress`
  /// (`!llvm.ptr<3>`, 16-byte aligned) row j of matrix i, 8 contiguous
  /// elements. Returns one i32 per matrix: lane t holds elements
  /// (t / 4, 2 (t % 4)) and (t / 4, 2 (t % 4) + 1) of it, or with
  /// `transposed` (2 (t % 4), t / 4) and (2 (t % 4) + 1, t / 4), the first
  /// in the low half.
  virtual llvm::SmallVector<mlir::Value>
  loadMatrices(mlir::OpBuilder &b, mlir::Location loc, mlir::Value rowAddress,
               unsigned count, bool transposed) const;

  /// Whether loadTransposed can read 4x4 blocks of 16-bit elements.
  virtual bool hasTransposedLoads() const { return false; }
  /// Reads 8 bytes (four 16-bit elements) at `address` (`!llvm.ptr<3>`,
  /// 8-byte aligned) in every lane of the wave, then exchanges them within
  /// each aligned group of 4 lanes: lane 4g + k receives element k of lanes
  /// 4g .. 4g + 3, in that order. Returns the lane's vector<4xi16>.
  virtual mlir::Value loadTransposed(mlir::OpBuilder &b, mlir::Location loc,
                                     mlir::Value address) const;

  /// One operand of a warpgroup product in LDS, as the chip's matrix
  /// descriptors see it: the address of its first element (`!llvm.ptr<3>`,
  /// uniform), and in bytes the swizzle width (32, 64 or 128) and the
  /// strides between its 8-row groups (`stride`) and, for MN-major
  /// operands, between its atoms along M or N (`leading`).
  struct SharedMatrix {
    mlir::Value address;
    int64_t swizzleBytes;
    int64_t strideBytes;
    int64_t leadingBytes;
    /// M (N) contiguous instead of K.
    bool mnMajor;
  };
  /// One warpgroup instruction of `mma` (wgmma): `acc + a * b`, `acc` the
  /// lane's instrN / 2 accumulator registers (vector<f32>), in the order of
  /// the `wgmma` lane map. Issued between beginWarpgroupProduct and
  /// endWarpgroupProduct, which waits for it where `wait` says, else
  /// leaves it in flight for waitForWarpgroupProducts.
  virtual mlir::Value warpgroupMma(mlir::OpBuilder &b, mlir::Location loc,
                                   tilegpu::MmaAttr mma, mlir::Type element,
                                   const SharedMatrix &a,
                                   const SharedMatrix &bm,
                                   mlir::Value acc) const;
  virtual void beginWarpgroupProduct(mlir::OpBuilder &b,
                                     mlir::Location loc) const;
  virtual void endWarpgroupProduct(mlir::OpBuilder &b, mlir::Location loc,
                                   bool wait) const;
  /// Waits until at most `pending` of the warp's latest products left in
  /// flight are, and returns `registers` (a vector of a product's result)
  /// as values no read can be moved above the wait.
  virtual mlir::Value waitForWarpgroupProducts(mlir::OpBuilder &b,
                                               mlir::Location loc,
                                               int64_t pending,
                                               mlir::Value registers) const;
  /// Makes LDS writes of `func` visible to the warpgroup products it reads
  /// them with, which read through another memory proxy: a proxy fence in
  /// front of each barrier. Nothing where `func` has no such product.
  virtual void fenceForWarpgroupReads(mlir::Operation *func) const {}

  /// Waits until every thread of the program reached this point and its LDS
  /// writes are visible.
  virtual void barrier(mlir::OpBuilder &b, mlir::Location loc) const;
  /// Whether `op` is the barrier instruction of barrier().
  virtual bool isBarrier(mlir::Operation *op) const;
  /// Whether `op` is one of the other operations barrier() emits (fences,
  /// waits), which have no effect of their own between two barriers.
  virtual bool isBarrierPart(mlir::Operation *op) const;

  /// LDS a kernel may declare statically; a kernel that needs more (up to
  /// the chip's `ldsBytes`) gets it as dynamic shared memory at launch.
  virtual int64_t maxStaticLdsBytes() const { return info.ldsBytes; }

  /// `2^x` for f32 `x` (a scalar or a vector) with the chip's native
  /// instruction.
  virtual mlir::Value exp2(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value x) const;
  /// `ln x` for f32 `x` with no device-library call.
  virtual mlir::Value log(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value x) const;

  /// The f32 value of the 8-bit float `format` in byte `byteIndex` (0..3)
  /// of the i32 `word`, exactly as the format defines it (OCP formats on
  /// every chip). The default decodes with integer arithmetic.
  virtual mlir::Value decodeFp8(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value word, unsigned byteIndex,
                                mlir::FloatType format) const;
  /// Both 8-bit floats `format` of bytes 2 `half` and 2 `half` + 1 of the
  /// i32 `word`, as a vector<2xbf16> (the lower byte first), where the chip
  /// converts such a pair in one instruction; null where it does not (then
  /// decodeFp8 serves each byte). Every e4m3 and e5m2 value is a bf16
  /// value, so nothing rounds.
  virtual mlir::Value decodeFp8PairToBF16(mlir::OpBuilder &b,
                                          mlir::Location loc, mlir::Value word,
                                          unsigned half,
                                          mlir::FloatType format) const {
    return {};
  }
  /// Both fp4 (E2M1) values of byte `byteIndex` of the i32 `word` (element
  /// 0 in the low nibble) times 2^(e - 127) for the E8M0 code `scale` (i8),
  /// as `element`.
  virtual std::pair<mlir::Value, mlir::Value>
  decodeScaledFp4Pair(mlir::OpBuilder &b, mlir::Location loc, mlir::Value word,
                      unsigned byteIndex, mlir::Value scale,
                      mlir::Type element) const;

protected:
  /// `fn` of `x`, element by element when `x` is a vector (for intrinsics
  /// that take scalars).
  static mlir::Value
  perElement(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
             llvm::function_ref<mlir::Value(mlir::Value)> fn);

  const tilegpu::ChipInfo &info;
};

/// The lowering interface of `chip`.
std::unique_ptr<GpuTarget> createGpuTarget(const tilegpu::ChipInfo &chip);

/// The vendors' implementations (AMDTarget.cpp, NVVMTarget.cpp).
std::unique_ptr<GpuTarget> createAMDTarget(const tilegpu::ChipInfo &chip);
std::unique_ptr<GpuTarget> createNVVMTarget(const tilegpu::ChipInfo &chip);

} // namespace mla

#endif // MLA_CONVERSION_TILETOGPU_GPUTARGET_H
