//===- KnownNonNegative.h - Whether an index is known to be >= 0 -*- C++
//-*-===//
//
// A tile's first row or column may be negative at run time (a tile that
// starts before its view, e.g. `kk - 8`), and a bounds check must then
// catch both ends. Where the index is known not to be negative, a cheaper
// check of the far end does: program ids, loop induction variables that
// start at a non-negative bound, and index arithmetic over those.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DIALECT_TILE_ANALYSIS_KNOWNNONNEGATIVE_H
#define MLA_DIALECT_TILE_ANALYSIS_KNOWNNONNEGATIVE_H

#include "mlir/IR/OpDefinition.h"

namespace mla {

/// Whether `value` (an integer or index) is known to be >= 0. Arithmetic
/// on `index` values is taken not to wrap, as the tile programs' index
/// arithmetic does not; arithmetic on other integer types is not followed.
bool isKnownNonNegative(mlir::Value value);

} // namespace mla

#endif // MLA_DIALECT_TILE_ANALYSIS_KNOWNNONNEGATIVE_H
