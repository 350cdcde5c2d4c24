//===- LaneMap.h - Where each element of a distributed tile lives -*- C++
//-*-===//
//
// Every distributed layout (blocked, matrix-core result and operand, slice)
// is, for a tile of a given shape, a map from (register, lane, warp) to the
// coordinates of the element that register holds. All of them are
// mixed-radix maps: each hardware index splits into digits (factors), and
// each digit moves one tensor dimension by a fixed stride, or none (the
// element is replicated along that digit). The GPU lowering works on this
// one form, so a new layout only has to say how it builds its map.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DIALECT_TILEGPU_IR_LANEMAP_H
#define MLA_DIALECT_TILEGPU_IR_LANEMAP_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace mla::tilegpu {

/// The hardware index a factor is a digit of.
enum class HwDim : uint8_t { Register, Lane, Warp };

/// One digit of a hardware index: `size` values, each step moving tensor
/// dimension `dim` by `stride` elements; `dim == kReplicated` moves nothing.
struct LaneFactor {
  static constexpr int64_t kReplicated = -1;
  HwDim hw;
  int64_t size;
  int64_t dim;
  int64_t stride;

  bool isReplicated() const { return dim == kReplicated; }
  bool operator==(const LaneFactor &other) const {
    return hw == other.hw && size == other.size && dim == other.dim &&
           stride == other.stride;
  }
};

/// The mixed-radix map of one layout applied to one tile shape.
class LaneMap {
public:
  LaneMap() = default;
  /// Factors are listed least significant first within each hardware index;
  /// factors of different hardware indices may interleave.
  LaneMap(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<LaneFactor> factors);

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  llvm::ArrayRef<LaneFactor> getFactors() const { return factors; }
  int64_t getRank() const { return shape.size(); }

  /// Number of values of one hardware index (the product of its factors).
  int64_t count(HwDim hw) const;
  int64_t numRegisters() const { return count(HwDim::Register); }
  int64_t numLanes() const { return count(HwDim::Lane); }
  int64_t numWarps() const { return count(HwDim::Warp); }

  /// The factors of one hardware index, least significant first.
  llvm::SmallVector<LaneFactor> factorsOf(HwDim hw) const;

  /// Coordinates moved by the digits of `index` of hardware index `hw`.
  llvm::SmallVector<int64_t> partialCoords(HwDim hw, int64_t index) const;
  /// The coordinates of the element (register, lane, warp) holds.
  llvm::SmallVector<int64_t> coords(int64_t reg, int64_t lane,
                                    int64_t warp) const;

  /// Whether `index` of `hw` has zero in every replicated digit: the copy a
  /// lowering keeps when it needs each element once.
  bool isOwner(HwDim hw, int64_t index) const;

  /// Checks that every element of the shape is held by some
  /// (register, lane, warp) and that no coordinate leaves the shape;
  /// describes the first problem found on `why`.
  bool isValid(std::string *why = nullptr) const;

  /// The map of the tile with dimension `dim` reduced away: register digits
  /// of `dim` disappear, lane and warp digits of `dim` become replicated.
  LaneMap reduced(int64_t dim) const;
  /// The map of a tile whose element c along `dim` stands for elements
  /// [c * block, (c + 1) * block) of this one (an MX scale per 32 values,
  /// a byte per two fp4 values): digits inside a block disappear
  /// (registers) or hold replicas (lanes, warps). Fails unless the digits
  /// of `dim` form one mixed-radix number whose steps align with `block`.
  mlir::FailureOr<LaneMap> coarsened(int64_t dim, int64_t block) const;
  /// The map with dimensions permuted: result dim i is input dim perm[i].
  LaneMap permuted(llvm::ArrayRef<int64_t> perm) const;
  bool operator==(const LaneMap &other) const {
    return shape == other.shape && factors == other.factors;
  }
  bool operator!=(const LaneMap &other) const { return !(*this == other); }

  /// Whether the two maps put every element in the same lane and warp
  /// (registers may differ in order).
  bool sameLanesAndWarps(const LaneMap &other) const;

  /// For every register of this map, the register of `other` holding the
  /// same element in the same lane and warp, or -1. Only meaningful when
  /// sameLanesAndWarps(other).
  llvm::SmallVector<int64_t> registerPermutationTo(const LaneMap &other) const;

  /// "reg 8 -> d1 x1, lane 8 -> d1 x8, ..." for diagnostics and tests.
  std::string str() const;

private:
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<LaneFactor> factors;
};

/// Appends factors covering `extent` elements of `dim` from a hardware
/// resource of `size` values whose first digit steps `stride`: the largest
/// part that divides what is left of the extent moves `dim`, the rest is
/// replicated. Returns the elements of `dim` covered so far (`stride` times
/// that part), or -1 when `stride` does not divide `extent`.
int64_t appendCovering(llvm::SmallVectorImpl<LaneFactor> &factors, HwDim hw,
                       int64_t size, int64_t dim, int64_t stride,
                       int64_t extent);

} // namespace mla::tilegpu

#endif // MLA_DIALECT_TILEGPU_IR_LANEMAP_H
