//===- GpuTarget.cpp - Defaults shared by the GPU targets -----------------===//

#include "mla/Conversion/TileToGPU/GpuTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mla;

Value GpuTarget::shuffleXor(OpBuilder &b, Location loc, Value value,
                            unsigned mask) const {
  Value offset = arith::ConstantIntOp::create(b, loc, mask, 32);
  Value width = arith::ConstantIntOp::create(b, loc, info.waveSize, 32);
  return mlir::gpu::ShuffleOp::create(b, loc, value, offset, width,
                                      mlir::gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

void GpuTarget::barrier(OpBuilder &b, Location loc) const {
  mlir::gpu::BarrierOp::create(b, loc);
}

Value GpuTarget::isAlignedForVector(OpBuilder &b, Location loc, Value resource,
                                    Value byteOffset, int64_t bytes) const {
  return {};
}

Value GpuTarget::exp2(OpBuilder &b, Location loc, Value x) const {
  return LLVM::Exp2Op::create(b, loc, x.getType(), x);
}

Value GpuTarget::log(OpBuilder &b, Location loc, Value x) const {
  return LLVM::LogOp::create(b, loc, x.getType(), x);
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
