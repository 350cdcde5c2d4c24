//===- LdsCopy.h - Copies from global memory straight into LDS --*- C++ -*-===//
//
// A chip's loads to LDS write each lane's chunk at the wave's LDS address
// plus the lane times the chunk size: a wave fills a contiguous run of the
// buffer, and each lane loads the global chunk that belongs at its slot.
// That needs chunks that never straddle a row of the tile or a swizzle
// group of its LDS layout, and rows of the view that end between chunks
// (a chunk past a bound reads zero, as a whole).
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DIALECT_TILEGPU_IR_LDSCOPY_H
#define MLA_DIALECT_TILEGPU_IR_LDSCOPY_H

#include "mla/Dialect/TileGPU/IR/ChipInfo.h"

#include "mlir/IR/Value.h"

namespace mla::tilegpu {

class MemDescType;

/// Bytes each lane copies per instruction when the tile of `view` at
/// `indices` goes straight into an LDS buffer of `buffer`'s type on `chip`:
/// the widest chunk that stays inside one row of the tile, one swizzle
/// group and the known alignment of the view's rows and the tile's first
/// column. 0 when the tile cannot be copied that way (a row that may end
/// inside a chunk, a strided row, a chip without such copies).
unsigned getLdsCopyBytes(const ChipInfo &chip, mlir::Value view,
                         mlir::ValueRange indices, MemDescType buffer);

/// Whether the `columns` columns of the tile of `view` at `indices` are
/// known to be inside the view's rows, so that a copy checks rows only.
bool ldsCopyColumnsInsideView(mlir::Value view, mlir::ValueRange indices,
                              int64_t columns);

} // namespace mla::tilegpu

#endif // MLA_DIALECT_TILEGPU_IR_LDSCOPY_H
