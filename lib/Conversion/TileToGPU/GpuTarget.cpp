//===- GpuTarget.cpp - Defaults shared by the GPU targets -----------------===//

#include "mla/Conversion/TileToGPU/GpuTarget.h"
#include "mla/Conversion/Utils/FloatDecode.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mla;

Value GpuTarget::scaledMma(OpBuilder &, Location, tilegpu::MmaAttr, Value,
                           Value, Value, Value, Value) const {
  llvm_unreachable("asked for a scaled product that hasMma refused");
}

Value GpuTarget::shuffleXor(OpBuilder &b, Location loc, Value value,
                            unsigned mask, unsigned) const {
  Value offset = arith::ConstantIntOp::create(b, loc, mask, 32);
  Value width = arith::ConstantIntOp::create(b, loc, info.waveSize, 32);
  return mlir::gpu::ShuffleOp::create(b, loc, value, offset, width,
                                      mlir::gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

void GpuTarget::barrier(OpBuilder &b, Location loc) const {
  mlir::gpu::BarrierOp::create(b, loc);
}

bool GpuTarget::isBarrier(Operation *op) const {
  return isa<mlir::gpu::BarrierOp>(op);
}

bool GpuTarget::isBarrierPart(Operation *op) const {
  return isa<LLVM::FenceOp>(op);
}

Value GpuTarget::warpgroupMma(OpBuilder &, Location, tilegpu::MmaAttr, Type,
                              const SharedMatrix &, const SharedMatrix &,
                              Value) const {
  llvm_unreachable("the chip has no warpgroup products (warpgroupMma)");
}

void GpuTarget::beginWarpgroupProduct(OpBuilder &, Location) const {
  llvm_unreachable("the chip has no warpgroup products (warpgroupMma)");
}

void GpuTarget::endWarpgroupProduct(OpBuilder &, Location, bool) const {
  llvm_unreachable("the chip has no warpgroup products (warpgroupMma)");
}

Value GpuTarget::waitForWarpgroupProducts(OpBuilder &, Location, int64_t,
                                          Value) const {
  llvm_unreachable("the chip has no warpgroup products (warpgroupMma)");
}

void GpuTarget::copyToLds(OpBuilder &, Location, Value, Value, Value, Value,
                          Value, Value, int64_t) const {
  llvm_unreachable("the chip has no copies into LDS (maxLdsCopyBytes)");
}

void GpuTarget::waitForCopies(OpBuilder &, Location, int64_t, int64_t) const {
  llvm_unreachable("the chip has no copies into LDS (maxLdsCopyBytes)");
}

SmallVector<Value> GpuTarget::loadMatrices(OpBuilder &, Location, Value,
                                           unsigned, bool) const {
  llvm_unreachable("the chip has no matrix loads (hasMatrixLoads)");
}

Value GpuTarget::loadTransposed(OpBuilder &, Location, Value) const {
  llvm_unreachable("the chip has no transposing loads (hasTransposedLoads)");
}

Value GpuTarget::isAlignedForVector(OpBuilder &b, Location loc, Value resource,
                                    Value byteOffset, int64_t bytes) const {
  return {};
}

Value GpuTarget::perElement(OpBuilder &b, Location loc, Value x,
                            function_ref<Value(Value)> fn) {
  auto vec = dyn_cast<VectorType>(x.getType());
  if (!vec)
    return fn(x);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < vec.getNumElements(); ++i)
    elements.push_back(fn(vector::ExtractOp::create(b, loc, x, i)));
  return vector::FromElementsOp::create(b, loc, vec, elements);
}

Value GpuTarget::exp2(OpBuilder &b, Location loc, Value x) const {
  return LLVM::Exp2Op::create(b, loc, x.getType(), x);
}

Value GpuTarget::log(OpBuilder &b, Location loc, Value x) const {
  return LLVM::LogOp::create(b, loc, x.getType(), x);
}

/// Bits [shift, shift + 8) of the i32 `word`, in the low byte.
static Value byteBits(OpBuilder &b, Location loc, Value word, unsigned shift) {
  return arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc, word,
                             arith::ConstantIntOp::create(b, loc, shift, 32)),
      arith::ConstantIntOp::create(b, loc, 0xFF, 32));
}

Value GpuTarget::decodeFp8(OpBuilder &b, Location loc, Value word,
                           unsigned byteIndex, FloatType format) const {
  return decodeNarrowFloat(b, loc, byteBits(b, loc, word, 8 * byteIndex),
                           format);
}

/// The E2M1 value in the low four bits of the i32 `code`, as f32. Its
/// exponent and mantissa fields placed at the top of the f32's (code << 22)
/// read as the value times 2^-126, subnormal codes included, so one exact
/// multiplication finishes the decoding. Kernels keep f32 denormals.
static Value e2m1ToF32(OpBuilder &b, Location loc, Value code) {
  auto c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  };
  Value shifted = arith::ShLIOp::create(b, loc, code, c(22));
  Value magnitude = arith::AndIOp::create(b, loc, shifted, c(0x7 << 22));
  Value sign = arith::AndIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, code, c(28)), c(0x80000000));
  Value scaled = arith::BitcastOp::create(
      b, loc, b.getF32Type(), arith::OrIOp::create(b, loc, magnitude, sign));
  Value twoTo126 = arith::ConstantFloatOp::create(
      b, loc, b.getF32Type(), llvm::APFloat(std::ldexp(1.0f, 126)));
  return arith::MulFOp::create(b, loc, scaled, twoTo126);
}

std::pair<Value, Value> GpuTarget::decodeScaledFp4Pair(OpBuilder &b,
                                                       Location loc, Value word,
                                                       unsigned byteIndex,
                                                       Value scale,
                                                       Type element) const {
  Value factor = decodeE8M0(b, loc, scale);
  auto decode = [&](unsigned shift) -> Value {
    Value code = arith::ShRUIOp::create(
        b, loc, word, arith::ConstantIntOp::create(b, loc, shift, 32));
    Value value =
        arith::MulFOp::create(b, loc, e2m1ToF32(b, loc, code), factor);
    if (element.isF32())
      return value;
    if (!element.isBF16())
      return arith::TruncFOp::create(b, loc, element, value);
    // Two significant bits times a power of two from 2^-127 on: every
    // product is a bf16 value (or infinity, or NaN from the NaN scale).
    return exactF32ToBF16(b, loc, value);
  };
  return {decode(8 * byteIndex), decode(8 * byteIndex + 4)};
}

std::unique_ptr<GpuTarget> mla::createGpuTarget(const tilegpu::ChipInfo &chip) {
  switch (chip.family) {
  case tilegpu::ChipFamily::CDNA3:
  case tilegpu::ChipFamily::CDNA4:
    return createAMDTarget(chip);
  case tilegpu::ChipFamily::Hopper:
    return createNVVMTarget(chip);
  }
  llvm_unreachable("unknown chip family");
}
