//===- HostLowering.h - Shared helpers of the host patterns -----*- C++ -*-===//

#ifndef MLA_LIB_CONVERSION_TILETOHOST_HOSTLOWERING_H
#define MLA_LIB_CONVERSION_TILETOHOST_HOSTLOWERING_H

#include "mla/Conversion/TileToHost/TileToHost.h"

#include "mlir/IR/Builders.h"

namespace mla::host {

/// The type an element of `type` is moved around as in host code: floats
/// narrower than f32 as integers of the same width, index as i64.
mlir::Type storageType(mlir::Type type);

/// Converts between a value of `type` and its storage form.
mlir::Value fromStorage(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value stored, mlir::Type type);
mlir::Value toStorage(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value value);

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
