//===- GpuLowering.h - Shared state and helpers of convert-tile-to-gpu -*- C++
//-*-===//
//
// A tile with a distributed layout becomes, in each lane, a vector of the
// elements its registers hold (register i = element i of the vector). The
// patterns of each op family (one file each) use the helpers here to turn a
// lane map into index arithmetic on the lane and warp ids.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_CONVERSION_TILETOGPU_GPULOWERING_H
#define MLA_LIB_CONVERSION_TILETOGPU_GPULOWERING_H

#include "mla/Conversion/TileToGPU/GpuTarget.h"
#include "mla/Conversion/Utils/TileMemory.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"

namespace mla::gpu {

/// The ids a kernel body works with, created once at its entry.
struct KernelIds {
  mlir::Value threadId; // index
  mlir::Value lane;     // index
  mlir::Value warp;     // index, uniform within a warp
  int64_t numWarps = 0;
  /// Base of the kernel's LDS block (`!llvm.ptr<3>`), when it has one.
  mlir::Value lds;
};

/// What all patterns of one conversion share.
struct LoweringState {
  explicit LoweringState(const GpuTarget &target) : target(target) {}
  const GpuTarget &target;
  /// Ids of each gpu.func being built.
  llvm::DenseMap<mlir::Operation *, KernelIds> kernels;
  /// Per async_copy, its chunk bytes (0: it cannot be copied straight into
  /// LDS), whether its columns are all inside the view and whether its
  /// first row is known not to be negative (planCopies).
  struct CopyPlan {
    int64_t chunk = 0;
    bool columnsInside = false;
    bool rowsFromZero = false;
  };
  llvm::DenseMap<mlir::Operation *, CopyPlan> copies;
  /// Per async_wait, the copy instructions of its warp it leaves in flight
  /// (planCopies); absent when fewer copies precede it than it leaves
  /// pending.
  llvm::DenseMap<mlir::Operation *, int64_t> pendingCopyInstructions;
  /// Per tile load and store from a tile.view: what the view's row length
  /// and the tile's first column are both known to be multiples of
  /// (recordAccessMultiples).
  llvm::DenseMap<mlir::Operation *, int64_t> accessMultiples;
  /// Per tile load and store from a tile.view: the power of two in bytes
  /// that the address of each of its vector runs is known to be a multiple
  /// of, as far as the view does not bound it (the base pointer's required
  /// alignment, the leading strides, the first column); a run of at most
  /// this many bytes needs no test of its address (recordAccessMultiples).
  llvm::DenseMap<mlir::Operation *, int64_t> accessAlignments;

  /// The ids of the kernel `op` is in.
  const KernelIds &idsFor(mlir::Operation *op) const;
  unsigned waveSize() const { return target.chip().waveSize; }
};

/// tile tensors with a layout -> vector<registers x element>; !tile.ptr ->
/// !llvm.ptr<1>; !tile.view -> (base, sizes..., strides...) as 1:N.
class GpuTypeConverter : public mlir::TypeConverter {
public:
  explicit GpuTypeConverter(mlir::MLIRContext *ctx);
};

/// The base of the patterns of convert-tile-to-gpu: the state they share,
/// so that each pattern is only its rewrite.
template <typename SourceOp>
class GpuOpLowering : public mlir::OpConversionPattern<SourceOp> {
public:
  GpuOpLowering(const GpuTypeConverter &converter, mlir::MLIRContext *ctx,
                LoweringState &state, mlir::PatternBenefit benefit = 1)
      : mlir::OpConversionPattern<SourceOp>(converter, ctx, benefit),
        state(state) {}

protected:
  LoweringState &state;
};

/// Bytes (i64) from the view's base to one past its last element of
/// `bytes` bytes; 0 when the view is empty.
mlir::Value viewExtentBytes(mlir::OpBuilder &b, mlir::Location loc,
                            const LoweredView &view, int64_t bytes);

/// Whether every element of a row past the end of the rank-2 `view` lies
/// past its extent (viewExtentBytes): static strides with rows that do not
/// overlap (the row stride at least the span of a row). A chip that bounds
/// its accesses by the extent (GpuTarget::boundsAccesses) then needs no
/// check of the row.
bool rowsEndAtExtent(const LoweredView &view);

/// The per-lane vector type of a tile type with a layout.
mlir::VectorType registerType(mlir::RankedTensorType type);

/// How many registers of one lane, from register 0, hold consecutive
/// elements along `dim`: the first register digit when it walks `dim` with
/// unit stride, else 1; of a digit whose size is not a power of two (a
/// dimension of 7 or 24), the largest power of two that divides it, so
/// that runs of that many registers tile the digit as vector accesses.
int64_t registerRun(const tilegpu::LaneMap &map, int64_t dim);

/// Whether converting a tile from layout `from` to `to` only renumbers the
/// registers of each lane (to.registerPermutationTo(from)).
bool inRegisters(const tilegpu::LaneMap &from, const tilegpu::LaneMap &to);

/// The LDS bytes `op` needs as scratch (all scratch uses share one region,
/// each bracketed by barriers); 0 when it needs none.
int64_t scratchBytes(mlir::Operation *op, unsigned waveSize);

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

mlir::Value indexConst(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
mlir::Value toI32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value index);

/// The coordinates (index, one per tile dimension) that the lane and warp
/// digits of `map` contribute for this lane; registers add static offsets.
llvm::SmallVector<mlir::Value> laneWarpCoords(mlir::OpBuilder &b,
                                              mlir::Location loc,
                                              const tilegpu::LaneMap &map,
                                              const KernelIds &ids);

/// i1: this lane and warp hold the first copy of their elements (zero in
/// every replicated lane and warp digit). Null when every copy is first.
mlir::Value isFirstCopy(mlir::OpBuilder &b, mlir::Location loc,
                        const tilegpu::LaneMap &map, const KernelIds &ids);

/// Moves the insertion point of `b` into a branch that only the first
/// copies of `map`'s elements take, where it has replicas (isFirstCopy).
void enterFirstCopies(mlir::OpBuilder &b, mlir::Location loc,
                      const tilegpu::LaneMap &map, const KernelIds &ids);

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

/// Element `i` of a per-lane vector.
mlir::Value getRegister(mlir::OpBuilder &b, mlir::Location loc, mlir::Value vec,
                        int64_t i);
/// A per-lane vector of `type` from its elements.
mlir::Value makeRegisters(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::VectorType type,
                          llvm::ArrayRef<mlir::Value> elements);
/// Registers [reg, reg + count) in their memory form: one element, or a
/// vector of them.
mlir::Value memoryRun(mlir::OpBuilder &b, mlir::Location loc, mlir::Value vec,
                      int64_t reg, int64_t count);
/// Registers [offset, offset + count) as a vector.
mlir::Value getRegisters(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value vec, int64_t offset, int64_t count);

/// Tile elements in memory: i1 as i8, index as i64, fp8/fp4/E8M0 as
/// integers of their width (LLVM has no such types); the rest as is.
inline constexpr ElementStorage kGpuStorage{/*minFloatBits=*/16,
                                            /*boolAsByte=*/true,
                                            /*wholeBytes=*/false,
                                            /*alignedLoads=*/true};
inline mlir::Type memoryType(mlir::Type elementType) {
  return kGpuStorage.storedType(elementType);
}
/// A register element in its memory form, and back.
inline mlir::Value toMemory(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value v) {
  return kGpuStorage.toStored(b, loc, v);
}
inline mlir::Value fromMemory(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value stored, mlir::Type elementType) {
  return kGpuStorage.fromStored(b, loc, stored, elementType);
}
/// Bytes of one element in memory.
inline int64_t memoryBytes(mlir::Type elementType) {
  return kGpuStorage.storedBytes(elementType);
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

/// `!llvm.ptr<3>` to byte `offset` (i32) of the kernel's LDS block.
mlir::Value ldsAddress(mlir::OpBuilder &b, mlir::Location loc,
                       const KernelIds &ids, mlir::Value byteOffset);

/// Writes the tile `regs` (laid out as `from`) to LDS scratch row-major,
/// then reads it back laid out as `to`: the general layout conversion.
/// Each element is written once (first copies only) and the exchange is
/// fenced by barriers before the write and before the read.
mlir::Value exchangeThroughLds(mlir::OpBuilder &b, mlir::Location loc,
                               const LoweringState &state, const KernelIds &ids,
                               mlir::Value regs, const tilegpu::LaneMap &from,
                               const tilegpu::LaneMap &to,
                               mlir::Type elementType,
                               mlir::VectorType resultType);

//===----------------------------------------------------------------------===//
// Pattern population, one per op family
//===----------------------------------------------------------------------===//

void populateKernelPatterns(GpuTypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            LoweringState &state);
void populateMemoryPatterns(GpuTypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            LoweringState &state);
void populateBuildPatterns(GpuTypeConverter &converter,
                           mlir::RewritePatternSet &patterns,
                           LoweringState &state);
void populateElementwisePatterns(GpuTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns,
                                 LoweringState &state);
void populateReducePatterns(GpuTypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            LoweringState &state);
void populateConvertLayoutPatterns(GpuTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns,
                                   LoweringState &state);
void populateDotPatterns(GpuTypeConverter &converter,
                         mlir::RewritePatternSet &patterns,
                         LoweringState &state);
void populateDequantPatterns(GpuTypeConverter &converter,
                             mlir::RewritePatternSet &patterns,
                             LoweringState &state);
void populateSharedPatterns(GpuTypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            LoweringState &state);

/// The type of the buffer `value` is a window of (a local_alloc or one
/// buffer of a local_buffer), and the window's offsets in it; a null type
/// when the buffer is not known. (A window lowers to its buffer's offset;
/// its readers add the static offsets.)
std::pair<tilegpu::MemDescType, llvm::SmallVector<int64_t>>
resolveWindow(mlir::Value value);

/// The byte offset in a buffer of `type` of the element at `coords`, for
/// coordinates that the swizzle leaves in place (the first group of a row
/// of a swizzle period, e.g. whole periods).
int64_t sharedByteOffset(tilegpu::MemDescType type,
                         llvm::ArrayRef<int64_t> coords);

/// The byte alignment a buffer of `type` needs in LDS: 16, or one whole
/// swizzle period of its atoms, which matrix descriptors address by the
/// address bits (PTX ISA, "Shared Memory Matrix Layout").
int64_t sharedAlignment(tilegpu::MemDescType type);

/// Bytes between consecutive buffers of a `tilegpu.local_buffer` of type
/// `buffers`: each padded to whole copies of 16 bytes per lane, so that a
/// wave's last copy stays inside its buffer, and to its alignment.
int64_t ldsBufferStride(tilegpu::MemDescType buffers, unsigned waveSize);

/// Places every LDS buffer (local_alloc, local_buffer) of `kernel` after
/// the scratch region, buffers whose live ranges do not overlap sharing
/// bytes (LdsPlacement.cpp); returns the LDS bytes the kernel needs.
int64_t assignLdsOffsets(mlir::Operation *kernel, int64_t scratchBytes,
                         unsigned waveSize);

/// The alignment `kernel`'s LDS block needs: the largest of its buffers'.
int64_t ldsAlignment(mlir::Operation *kernel);

/// Erases each barrier of `func` that follows another in its block with no
/// memory access between them (the barriers' own fences and waits aside),
/// with those fences and waits: the second orders nothing the first did
/// not. Lowerings that each fence their own LDS use meet
/// back to back (a reduction's exchange, then a buffer's first write).
void dropRepeatedBarriers(mlir::Operation *func, const GpuTarget &target);

/// Marks the LDS accesses of `func` as apart from its copies into LDS
/// (alias scopes), when it has any: every LDS buffer a copy fills is read
/// only after the copy is waited for, and the marks keep the backend from
/// waiting for every copy in flight before each LDS access.
void separateLdsCopies(mlir::Operation *func);

/// Records, for each tile load and store of `kernel` from a tile.view, what
/// its row length and first column are known to be multiples of, and what
/// its runs' addresses are aligned to, read off the IR before the
/// conversion detaches loop bodies.
void recordAccessMultiples(mla::tile::KernelOp kernel, LoweringState &state);

/// The alignment in bytes each pointer argument of `kernel` is required to
/// have (`P % C == 0` among its launch requirements: the largest power of
/// two dividing C, the largest where several say).
llvm::StringMap<int64_t> requiredAlignments(mla::tile::KernelOp kernel);

/// Records, for each async_copy of `kernel` (run with `numWarps` warps),
/// how it copies, and for each async_wait, the copy instructions it leaves
/// in flight, read off the IR before the conversion changes it.
void planCopies(mlir::Operation *kernel, int64_t numWarps,
                LoweringState &state);

void populateAsyncCopyPatterns(GpuTypeConverter &converter,
                               mlir::RewritePatternSet &patterns,
                               LoweringState &state);

} // namespace mla::gpu

#endif // MLA_LIB_CONVERSION_TILETOGPU_GPULOWERING_H
