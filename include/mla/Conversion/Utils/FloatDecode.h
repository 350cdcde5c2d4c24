//===- FloatDecode.h - Exact decoding of narrow float formats ---*- C++ -*-===//
//
// Integer-only decoding of fp8 / fp4 / E8M0 bit patterns to f32, for targets
// (the host, gfx942) that have no conversion instruction for them. Each
// decoded value is exact: every value of these formats is an f32.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_CONVERSION_UTILS_FLOATDECODE_H
#define MLA_CONVERSION_UTILS_FLOATDECODE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mla {

/// Decodes the low bits of integer `bits` (any integer type at least as wide
/// as the format) holding a value of the narrow float type `format`
/// (f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ, f4E2M1FN) to f32. NaN and
/// infinity encodings decode to NaN and infinity.
mlir::Value decodeNarrowFloat(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value bits, mlir::FloatType format);

/// Decodes an E8M0 scale byte to f32: 2^(e - 127), 0x00 = 2^-127 and
/// 0xFF = NaN.
mlir::Value decodeE8M0(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value bits);

/// `value` (f32) as bf16 when it is known to be a bf16 value (every fp8
/// value is, and so is an E2M1 value times an E8M0 scale): the top half of
/// its bits, with no rounding to do.
mlir::Value exactF32ToBF16(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value);

/// The bits of the narrow-float value `value`, as an integer of its width.
mlir::Value bitsOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// Rounds the f32 `value` to the float type `type` (nothing to do for f32).
mlir::Value fromF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                    mlir::Type type);

/// Whether `decodeNarrowFloat` handles `type`.
bool isDecodableNarrowFloat(mlir::Type type);

} // namespace mla

#endif // MLA_CONVERSION_UTILS_FLOATDECODE_H
