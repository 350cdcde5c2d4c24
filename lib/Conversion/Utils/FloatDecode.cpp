//===- FloatDecode.cpp - Exact decoding of narrow float formats -----------===//

#include "mla/Conversion/Utils/FloatDecode.h"
#include "mla/Support/FloatFormats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mla;

/// The table entry of the narrow float type `type`, or null.
static const FloatFormat *getFormat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return &kFloat8E4M3FN;
  if (isa<Float8E4M3FNUZType>(type))
    return &kFloat8E4M3FNUZ;
  if (isa<Float8E5M2Type>(type))
    return &kFloat8E5M2;
  if (isa<Float8E5M2FNUZType>(type))
    return &kFloat8E5M2FNUZ;
  if (isa<Float4E2M1FNType>(type))
    return &kFloat4E2M1FN;
  return nullptr;
}

bool mla::isDecodableNarrowFloat(Type type) {
  return getFormat(type) != nullptr;
}

namespace {
/// Small helper for i32 bit arithmetic.
struct Bits {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value f(double v) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                          llvm::APFloat(static_cast<float>(v)));
  }
  Value shr(Value x, int64_t n) {
    return arith::ShRUIOp::create(b, loc, x, c(n));
  }
  Value shl(Value x, int64_t n) {
    return arith::ShLIOp::create(b, loc, x, c(n));
  }
  Value band(Value x, int64_t m) {
    return arith::AndIOp::create(b, loc, x, c(m));
  }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t n) {
    return arith::AddIOp::create(b, loc, x, c(n));
  }
  Value eq(Value x, int64_t n) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(n));
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value toF32(Value i32Bits) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), i32Bits);
  }
};
} // namespace

/// Zero-extends or truncates `bits` to i32.
static Value toI32(OpBuilder &b, Location loc, Value bits) {
  auto type = cast<IntegerType>(bits.getType());
  if (type.getWidth() == 32)
    return bits;
  if (type.getWidth() < 32)
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
  return arith::TruncIOp::create(b, loc, b.getI32Type(), bits);
}

Value mla::decodeNarrowFloat(OpBuilder &b, Location loc, Value bits,
                             FloatType format) {
  const FloatFormat &fmt = *getFormat(format);
  Bits k{b, loc};
  int width = fmt.width();
  Value x = k.band(toI32(b, loc, bits), (1 << width) - 1);
  Value sign = k.shl(k.shr(x, width - 1), 31);
  Value exp = k.band(k.shr(x, fmt.manBits), (1 << fmt.expBits) - 1);
  Value man = k.band(x, (1 << fmt.manBits) - 1);

  // Normal: rebias the exponent and left-align the mantissa.
  Value normal = k.bor(sign, k.bor(k.shl(k.add(exp, 127 - fmt.bias), 23),
                                   k.shl(man, 23 - fmt.manBits)));
  // Subnormal: man * 2^(1 - bias - manBits), exact in f32.
  Value subMagnitude = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), man),
      k.f(std::ldexp(1.0, 1 - fmt.bias - fmt.manBits)));
  Value subnormal = k.toF32(k.bor(
      sign, arith::BitcastOp::create(b, loc, b.getI32Type(), subMagnitude)));
  Value value = k.select(k.eq(exp, 0), subnormal, k.toF32(normal));

  Value nan = k.f(std::numeric_limits<double>::quiet_NaN());
  int expMax = (1 << fmt.expBits) - 1, manMax = (1 << fmt.manBits) - 1;
  switch (fmt.specials) {
  case FloatSpecials::None:
    return value;
  case FloatSpecials::AllOnesNaN:
    return k.select(k.eq(k.band(x, (expMax << fmt.manBits) | manMax),
                         (expMax << fmt.manBits) | manMax),
                    nan, value);
  case FloatSpecials::NegZeroNaN:
    return k.select(k.eq(x, 1 << (width - 1)), nan, value);
  case FloatSpecials::Ieee: {
    Value inf = k.toF32(k.bor(sign, k.c(0x7F800000)));
    Value special = k.select(k.eq(man, 0), inf, nan);
    return k.select(k.eq(exp, expMax), special, value);
  }
  }
  llvm_unreachable("unknown narrow float specials");
}

Value mla::decodeE8M0(OpBuilder &b, Location loc, Value bits) {
  Bits k{b, loc};
  Value e = k.band(toI32(b, loc, bits), 0xFF);
  // 2^-127 is an f32 subnormal: mantissa bit 22 alone.
  Value pow2 = k.select(k.eq(e, 0), k.c(0x00400000), k.shl(e, 23));
  return k.select(k.eq(e, 0xFF), k.f(std::numeric_limits<double>::quiet_NaN()),
                  k.toF32(pow2));
}

Value mla::bitsOf(OpBuilder &b, Location loc, Value value) {
  unsigned width = value.getType().getIntOrFloatBitWidth();
  return arith::BitcastOp::create(b, loc, b.getIntegerType(width), value);
}

Value mla::fromF32(OpBuilder &b, Location loc, Value value, Type type) {
  if (type.isF32())
    return value;
  return arith::TruncFOp::create(b, loc, type, value);
}

Value mla::exactF32ToBF16(OpBuilder &b, Location loc, Value value) {
  Bits k{b, loc};
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), value);
  Value high = arith::TruncIOp::create(b, loc, b.getI16Type(), k.shr(bits, 16));
  return arith::BitcastOp::create(b, loc, b.getBF16Type(), high);
}
