//===- TileToHost.h - Tile to host lowering ---------------------*- C++ -*-===//

#ifndef MLA_CONVERSION_TILETOHOST_TILETOHOST_H
#define MLA_CONVERSION_TILETOHOST_TILETOHOST_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mla {

/// Type conversion of the host target: `!tile.ptr` becomes `!llvm.ptr` and
/// a `!tile.view` of rank r becomes r + r + 1 values: its first element's
/// address, its sizes and its strides (all `index`).
class HostTypeConverter : public mlir::TypeConverter {
public:
  HostTypeConverter();
};

/// Rewrites every `tile.kernel` into the host entry function of docs/ABI.md
/// and its program ids into values read from the entry's arguments. Kernel
/// pointer arguments reach the body through `unrealized_conversion_cast`s
/// that the tile op conversion then folds.
void convertKernelsToHostEntries(mlir::ModuleOp module);

/// Patterns per op family.
void populateTileMemoryToHostPatterns(const HostTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
void populateTileBuildToHostPatterns(const HostTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
void populateTileDequantToHostPatterns(const HostTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateTileDotToHostPatterns(const HostTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
void populateTileReduceToHostPatterns(const HostTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

} // namespace mla

#endif // MLA_CONVERSION_TILETOHOST_TILETOHOST_H
