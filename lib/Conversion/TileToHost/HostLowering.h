//===- HostLowering.h - Shared helpers of the host patterns -----*- C++ -*-===//

#ifndef MLA_LIB_CONVERSION_TILETOHOST_HOSTLOWERING_H
#define MLA_LIB_CONVERSION_TILETOHOST_HOSTLOWERING_H

#include "mla/Conversion/TileToHost/TileToHost.h"
#include "mla/Conversion/Utils/TileMemory.h"

#include "mlir/IR/Builders.h"

namespace mla::host {

/// Tile elements in host code: floats narrower than f32 as integers of
/// their width in whole bytes (x86 has no registers for them), index as
/// i64.
inline constexpr ElementStorage kHostStorage{/*minFloatBits=*/32,
                                             /*boolAsByte=*/false,
                                             /*wholeBytes=*/true,
                                             /*alignedLoads=*/false};
inline mlir::Type storageType(mlir::Type type) {
  return kHostStorage.storedType(type);
}
/// Converts between a value of `type` and its storage form.
inline mlir::Value fromStorage(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value stored, mlir::Type type) {
  return kHostStorage.fromStored(b, loc, stored, type);
}
inline mlir::Value toStorage(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value value) {
  return kHostStorage.toStored(b, loc, value);
}

/// Decodes a tile of a narrow float format (fp8) element by element to f32,
/// multiplies by `scale` when given, and rounds to `resultElement`.
mlir::Value decodeNarrowTile(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value tile, mlir::Value scale,
                             mlir::Type resultElement);

/// `tensor.empty` of the given tile type.
mlir::Value emptyTile(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::RankedTensorType type);

/// The zero of a tile element type (0, 0.0, false).
mlir::Value zeroOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);

} // namespace mla::host

#endif // MLA_LIB_CONVERSION_TILETOHOST_HOSTLOWERING_H
