//===- TileMemory.h - Tile elements and views in memory ---------*- C++ -*-===//
//
// What the host and GPU lowerings share about memory: the form a tile
// element takes there, the converted form of a `!tile.view`, and the
// patterns for the view and scalar-load ops, which differ between the
// targets only in that form.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_CONVERSION_UTILS_TILEMEMORY_H
#define MLA_CONVERSION_UTILS_TILEMEMORY_H

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mla {

/// How a lowering stores tile elements in memory. LLVM has no type for
/// fp8, fp4 or E8M0 and none for `index`, and a target may keep wider
/// floats out of its registers too: those travel as integers.
struct ElementStorage {
  /// Floats narrower than this many bits are stored as integers.
  unsigned minFloatBits;
  /// Whether i1 is stored as i8.
  bool boolAsByte;
  /// Whether an integer standing for a float is widened to whole bytes.
  bool wholeBytes;
  /// Whether loads state the element's alignment.
  bool alignedLoads;

  /// The type an element of `element` is stored as.
  mlir::Type storedType(mlir::Type element) const;
  /// Bytes of one stored element, at least 1.
  int64_t storedBytes(mlir::Type element) const;
  /// A value in its stored form, and back.
  mlir::Value toStored(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value) const;
  mlir::Value fromStored(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value stored, mlir::Type element) const;
  /// The address of element `index` (an index) of the stored `element`s
  /// that `base` points to.
  mlir::Value elementAddress(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value base, mlir::Type element,
                             mlir::Value index) const;
};

/// The converted form of a `!tile.view` value: (base, sizes..., strides...),
/// the sizes and strides `index`.
struct LoweredView {
  mlir::Value base;
  llvm::SmallVector<mlir::Value> sizes;
  llvm::SmallVector<mlir::Value> strides;

  explicit LoweredView(mlir::ValueRange values);
};

/// The element offset (index) of view position `position`: the sum of each
/// coordinate times its stride.
mlir::Value viewElementOffset(mlir::OpBuilder &b, mlir::Location loc,
                              const LoweredView &view,
                              mlir::ValueRange position);

/// Patterns for `tile.view` (to its LoweredView values, the base advanced
/// by the view's offset) and `tile.load_scalar` (one load), elements stored
/// as `storage` says.
void populateTileMemoryPatterns(const mlir::TypeConverter &converter,
                                mlir::RewritePatternSet &patterns,
                                ElementStorage storage);

} // namespace mla

#endif // MLA_CONVERSION_UTILS_TILEMEMORY_H
