//===- KnownMultiple.h - What an index is known to be a multiple of -*- C++
//-*-===//
//
// Whether a row of a view splits into whole vectors depends on what its
// length and the tile's first column are multiples of. That is known from
// constants, from the arithmetic that builds an index, from loop induction
// variables, and from launch requirements such as `k % 8 == 0`, which
// tile-assume-requirements states as assumptions inside the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DIALECT_TILE_ANALYSIS_KNOWNMULTIPLE_H
#define MLA_DIALECT_TILE_ANALYSIS_KNOWNMULTIPLE_H

#include "mlir/IR/OpDefinition.h"

namespace mla {

/// The largest power of two, at most 2^30, that `value` (an integer or
/// index) is known to be a multiple of; 1 when nothing is known.
int64_t getKnownMultiple(mlir::Value value);
int64_t getKnownMultiple(mlir::OpFoldResult value);

} // namespace mla

#endif // MLA_DIALECT_TILE_ANALYSIS_KNOWNMULTIPLE_H
