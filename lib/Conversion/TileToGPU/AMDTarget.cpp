//===- AMDTarget.cpp - The GPU lowering's AMDGPU target -------------------===//
//
// gfx950 and gfx942: wave64, MFMA through amdgpu.mfma, global memory through
// buffer instructions whose descriptor bounds each view, uniform values in
// scalar registers (readfirstlane), fp8 and fp4 decoded by the chips'
// conversion instructions, gfx950's transposing LDS reads, reductions
// within 16-lane rows through DPP, exp2 on v_exp_f32 alone.
//
//===----------------------------------------------------------------------===//

#include "mla/Conversion/TileToGPU/GpuTarget.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mla;
using namespace mla::tilegpu;

namespace {
class AMDTarget : public GpuTarget {
public:
  using GpuTarget::GpuTarget;

  Value warpId(OpBuilder &b, Location loc, Value threadId) const override {
    Value tid = arith::IndexCastOp::create(b, loc, b.getI32Type(), threadId);
    Value warp = arith::DivUIOp::create(
        b, loc, tid, arith::ConstantIntOp::create(b, loc, info.waveSize, 32));
    warp = ROCDL::ReadfirstlaneOp::create(b, loc, b.getI32Type(), warp);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), warp);
  }

  Value numPrograms(OpBuilder &b, Location loc, unsigned axis,
                    int64_t threadsPerProgram) const override {
    // hsa_kernel_dispatch_packet_t: grid_size_{x,y,z} (work-items) are u32s
    // at bytes 12, 16, 20; the launcher makes them programs times the
    // workgroup size (x) or the program count (y, z).
    auto ptr4 = LLVM::LLVMPointerType::get(b.getContext(), 4);
    Value packet =
        LLVM::CallIntrinsicOp::create(
            b, loc, ptr4, b.getStringAttr("llvm.amdgcn.dispatch.ptr"),
            ValueRange{})
            .getResult(0);
    Value field = LLVM::GEPOp::create(
        b, loc, ptr4, b.getI8Type(), packet,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(12 + 4 * axis)});
    Value size = LLVM::LoadOp::create(b, loc, b.getI32Type(), field, 4,
                                      /*isVolatile=*/false,
                                      /*isNonTemporal=*/false,
                                      /*isInvariant=*/true);
    if (axis == 0)
      size = arith::DivUIOp::create(
          b, loc, size,
          arith::ConstantIntOp::create(b, loc, threadsPerProgram, 32));
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), size);
  }

  /// Within a row of 16 lanes, DPP moves a value as a modifier of the
  /// instruction that uses it: quad_perm swaps neighbours (xor 1) and pairs
  /// (xor 2) exactly; row_half_mirror (lane i takes 7 - i) and row_mirror
  /// (15 - i) reach a lane of the xor-4 and xor-8 partner's group, which
  /// is as good once the lanes below are equal. Other steps go through
  /// ds_bpermute.
  Value shuffleXor(OpBuilder &b, Location loc, Value value, unsigned mask,
                   unsigned uniformBelow) const override {
    std::optional<int32_t> control;
    if (mask == 1)
      control = 0xB1; // quad_perm:[1,0,3,2]
    else if (mask == 2)
      control = 0x4E; // quad_perm:[2,3,0,1]
    else if (mask == 4 && uniformBelow >= 4)
      control = 0x141; // row_half_mirror
    else if (mask == 8 && uniformBelow >= 8)
      control = 0x140; // row_mirror
    if (!control)
      return GpuTarget::shuffleXor(b, loc, value, mask, uniformBelow);
    Value old = LLVM::PoisonOp::create(b, loc, value.getType());
    return ROCDL::DPPUpdateOp::create(b, loc, value.getType(), old, value,
                                      *control, /*rowMask=*/0xF,
                                      /*bankMask=*/0xF, /*boundCtrl=*/true);
  }

  bool hasMma(MmaAttr mma, Type element) const override {
    unsigned m = mma.getInstrM(), k = mma.getInstrK();
    if (isa<Float4E2M1FNType>(element))
      return mma.getKind() == MmaKind::mfma && info.scaledFp4Mma &&
             ((m == 16 && k == 128) || (m == 32 && k == 64));
    if (mma.getKind() != MmaKind::mfma ||
        (!element.isBF16() && !element.isF16()))
      return false;
    // CDNA3 has the K = 16 (16x16) and K = 8 (32x32) shapes; CDNA4 adds
    // twice the K.
    bool base = (m == 16 && k == 16) || (m == 32 && k == 8);
    bool doubled = (m == 16 && k == 32) || (m == 32 && k == 16);
    return base || (doubled && info.family == ChipFamily::CDNA4);
  }

  Value mma(OpBuilder &b, Location loc, MmaAttr mma, Value a, Value bv,
            Value acc) const override {
    return amdgpu::MFMAOp::create(b, loc, acc.getType(), mma.getInstrM(),
                                  mma.getInstrN(), mma.getInstrK(),
                                  /*blocks=*/1, a, bv, acc)
        .getResult();
  }

  /// cbsz = blgp = 4 (fp4) follow from the operand types; the scales are
  /// byte 0 of their registers.
  Value scaledMma(OpBuilder &b, Location loc, MmaAttr mma, Value a,
                  Value aScale, Value bv, Value bScale,
                  Value acc) const override {
    return amdgpu::ScaledMFMAOp::create(b, loc, acc.getType(), mma.getInstrM(),
                                        mma.getInstrN(), mma.getInstrK(), a, bv,
                                        acc, aScale, bScale,
                                        /*scalesIdxA=*/0, /*scalesIdxB=*/0)
        .getResult();
  }

  Value globalResource(OpBuilder &b, Location loc, Value base,
                       Value numBytes) const override {
    // Raw buffer: stride 0, num_records in bytes; the third dword's format
    // bits as AMDGPUToROCDL sets them for gfx9.
    Value stride = LLVM::ConstantOp::create(b, loc, b.getI16Type(), 0);
    Value flags = LLVM::ConstantOp::create(b, loc, b.getI32Type(), 159744);
    auto rsrcType = LLVM::LLVMPointerType::get(b.getContext(), 8);
    return ROCDL::MakeBufferRsrcOp::create(b, loc, rsrcType, base, stride,
                                           numBytes, flags);
  }

  Value loadGlobal(OpBuilder &b, Location loc, Type type, Value resource,
                   Value byteOffset, Value valid,
                   Value numBytes) const override {
    Value offset = outOfRangeUnless(b, loc, byteOffset, valid, numBytes);
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    Type moved = transferType(b, type);
    Value value = ROCDL::RawPtrBufferLoadOp::create(
        b, loc, moved, resource, offset, zero, zero, ArrayAttr(), ArrayAttr(),
        ArrayAttr());
    return moved == type ? value : LLVM::BitcastOp::create(b, loc, type, value);
  }

  void storeGlobal(OpBuilder &b, Location loc, Value value, Value resource,
                   Value byteOffset, Value valid,
                   Value numBytes) const override {
    Value offset = outOfRangeUnless(b, loc, byteOffset, valid, numBytes);
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    Type moved = transferType(b, value.getType());
    if (moved != value.getType())
      value = LLVM::BitcastOp::create(b, loc, moved, value);
    ROCDL::RawPtrBufferStoreOp::create(b, loc, value, resource, offset, zero,
                                       zero, ArrayAttr(), ArrayAttr(),
                                       ArrayAttr());
  }

  /// The wave's LDS accesses complete (s_waitcnt lgkmcnt(0)), then
  /// s_barrier, between fences on LDS only. The LDS serves the SIMDs
  /// through several queues, so another wave may see an LDS access late
  /// unless its wave waited for it before the barrier (AMDGPUUsage,
  /// GFX942 memory model; s_barrier waits for nothing). A workgroup-scoped
  /// release would wait the same way, but also for every copy into LDS in
  /// flight (vmcnt(0)), which would undo prefetching: the release stays
  /// wavefront-scoped, the wait is explicit, and async_wait waits for the
  /// copies it needs itself. The fences keep the compiler from moving LDS
  /// accesses across the barrier. docs/amdgpu.md, "Barriers".
  void barrier(OpBuilder &b, Location loc) const override {
    MLIRContext *ctx = b.getContext();
    auto ldsOnly =
        LLVM::MMRATagAttr::get(ctx, "amdgpu-synchronize-as", "local");
    auto release = LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release,
                                         "wavefront");
    release->setDiscardableAttr(LLVM::LLVMDialect::getMmraAttrName(), ldsOnly);
    amdgpu::MemoryCounterWaitOp::create(b, loc, IntegerAttr(), IntegerAttr(),
                                        b.getI32IntegerAttr(0), IntegerAttr(),
                                        IntegerAttr());
    ROCDL::SBarrierOp::create(b, loc);
    auto acquire = LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire,
                                         "workgroup");
    acquire->setDiscardableAttr(LLVM::LLVMDialect::getMmraAttrName(), ldsOnly);
  }

  /// Buffer instructions return zero past the descriptor's num_records
  /// (the view's extent, globalResource) and drop stores there.
  bool boundsAccesses() const override { return true; }

  bool isBarrier(Operation *op) const override {
    return isa<ROCDL::SBarrierOp>(op);
  }

  /// barrier()'s fences and its wait for LDS operations alone.
  bool isBarrierPart(Operation *op) const override {
    if (auto wait = dyn_cast<amdgpu::MemoryCounterWaitOp>(op))
      return wait.getDs() && !wait.getLoad() && !wait.getStore() &&
             !wait.getExp() && !wait.getTensor();
    return GpuTarget::isBarrierPart(op);
  }

  /// buffer_load_{ubyte,ushort,dword,dwordx4} with `lds`: the wave's LDS
  /// address goes through M0.
  void copyToLds(OpBuilder &b, Location loc, Value resource, Value byteOffset,
                 Value valid, Value numBytes, Value ldsBase, Value lane,
                 int64_t bytes) const override {
    Value offset = outOfRangeUnless(b, loc, byteOffset, valid, numBytes);
    auto i32 = [&](int64_t v) {
      return LLVM::ConstantOp::create(b, loc, b.getI32Type(), v);
    };
    ROCDL::RawPtrBufferLoadLdsOp::create(b, loc, resource, ldsBase, i32(bytes),
                                         offset, i32(0), i32(0), i32(0),
                                         ArrayAttr(), ArrayAttr(), ArrayAttr());
  }

  /// s_waitcnt vmcnt counts the wave's instructions; gfx9's counts up to
  /// 63, and a smaller count only waits longer.
  void waitForCopies(OpBuilder &b, Location loc, int64_t pendingCopies,
                     int64_t pendingInstructions) const override {
    amdgpu::MemoryCounterWaitOp::create(
        b, loc, b.getI32IntegerAttr(std::min<int64_t>(pendingInstructions, 63)),
        IntegerAttr(), IntegerAttr(), IntegerAttr(), IntegerAttr());
  }

  /// e4m3 through v_cvt_f32_fp8, which reads OCP e4m3fn on gfx950 and
  /// e4m3fnuz on gfx942: the chip's own format converts exactly. OCP bytes
  /// on gfx942 (exponent bias 7 read with bias 8) are fixed up: every other
  /// code is half its OCP value, 0x80 is FNUZ NaN but OCP -0, and 0x7F /
  /// 0xFF are FNUZ +-240 but OCP NaN.
  Value decodeFp8(OpBuilder &b, Location loc, Value word, unsigned byteIndex,
                  FloatType format) const override {
    bool cdna4 = info.family == ChipFamily::CDNA4;
    if (isa<Float8E4M3FNUZType>(format) && !cdna4)
      return ROCDL::CvtF32Fp8Op::create(b, loc, b.getF32Type(), word,
                                        b.getI32IntegerAttr(byteIndex));
    if (!isa<Float8E4M3FNType>(format))
      return GpuTarget::decodeFp8(b, loc, word, byteIndex, format);
    Value value = ROCDL::CvtF32Fp8Op::create(b, loc, b.getF32Type(), word,
                                             b.getI32IntegerAttr(byteIndex));
    if (cdna4)
      return value;
    auto f32 = [&](double v) {
      return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
    };
    auto i32 = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, v, 32);
    };
    Value byte = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, word, i32(8 * byteIndex)),
        i32(0xFF));
    value = arith::MulFOp::create(b, loc, value, f32(2.0));
    Value negZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          byte, i32(0x80));
    value = arith::SelectOp::create(b, loc, negZero, f32(-0.0), value);
    Value nan = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc, byte, i32(0x7F)), i32(0x7F));
    return arith::SelectOp::create(
        b, loc, nan, f32(std::numeric_limits<double>::quiet_NaN()), value);
  }

  /// One v_exp_f32 (llvm.amdgcn.exp2): llvm.exp2 adds a range reduction
  /// (a compare, two selects and a v_ldexp) for results below 2^-126, which
  /// the instruction flushes to zero; a softmax's weights lose nothing.
  Value exp2(OpBuilder &b, Location loc, Value x) const override {
    return perElement(b, loc, x, [&](Value element) -> Value {
      return ROCDL::ROCDLExp2::create(b, loc, element.getType(), element);
    });
  }

  /// gfx950: v_cvt_scalef32_pk_bf16_{fp8,bf8} with the scale 1.0 (OCP
  /// formats, as the problem's bytes are).
  Value decodeFp8PairToBF16(OpBuilder &b, Location loc, Value word,
                            unsigned half, FloatType format) const override {
    if (info.family != ChipFamily::CDNA4)
      return {};
    auto pairType = VectorType::get({2}, b.getBF16Type());
    Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0));
    bool high = half != 0;
    if (isa<Float8E4M3FNType>(format))
      return ROCDL::CvtScaleF32PkBf16Fp8Op::create(b, loc, pairType, word, one,
                                                   high);
    if (isa<Float8E5M2Type>(format))
      return ROCDL::CvtScaleF32PkBf16Bf8Op::create(b, loc, pairType, word, one,
                                                   high);
    return {};
  }

  /// gfx950's ds_read_b64_tr_b16 (shared/AMD.md, transposing LDS reads).
  bool hasTransposedLoads() const override {
    return info.family == ChipFamily::CDNA4;
  }

  Value loadTransposed(OpBuilder &b, Location loc,
                       Value address) const override {
    return ROCDL::ds_read_tr16_b64::create(
        b, loc, VectorType::get({4}, b.getI16Type()), address,
        /*alias_scopes=*/nullptr, /*noalias_scopes=*/nullptr,
        /*tbaa=*/nullptr);
  }

  /// gfx950: one v_cvt_scalef32_pk_*_fp4, whose f32 scale contributes only
  /// its exponent field, so the E8M0 code goes there unchanged.
  std::pair<Value, Value> decodeScaledFp4Pair(OpBuilder &b, Location loc,
                                              Value word, unsigned byteIndex,
                                              Value scale,
                                              Type element) const override {
    if (info.family != ChipFamily::CDNA4 ||
        !(element.isBF16() || element.isF16() || element.isF32()))
      return GpuTarget::decodeScaledFp4Pair(b, loc, word, byteIndex, scale,
                                            element);
    Type i32 = b.getI32Type();
    Value scaleBits = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i32, scale),
        arith::ConstantIntOp::create(b, loc, 23, 32));
    Value scaleF32 =
        arith::BitcastOp::create(b, loc, b.getF32Type(), scaleBits);
    auto pairType = VectorType::get({2}, element);
    IntegerAttr select = b.getI32IntegerAttr(byteIndex);
    Value pair;
    if (element.isBF16())
      pair = ROCDL::CvtScaleF32PkBf16Fp4Op::create(b, loc, pairType, word,
                                                   scaleF32, select);
    else if (element.isF16())
      pair = ROCDL::CvtScaleF32PkF16Fp4Op::create(b, loc, pairType, word,
                                                  scaleF32, select);
    else
      pair = ROCDL::CvtScaleF32PkF32Fp4Op::create(b, loc, pairType, word,
                                                  scaleF32, select);
    return {vector::ExtractOp::create(b, loc, pair, 0),
            vector::ExtractOp::create(b, loc, pair, 1)};
  }

private:
  /// The type a buffer instruction moves `type` as: vectors of narrow
  /// elements as whole dwords (or one short), which every chip selects.
  static Type transferType(OpBuilder &b, Type type) {
    auto vec = dyn_cast<VectorType>(type);
    if (!vec || vec.getElementTypeBitWidth() >= 32)
      return type;
    int64_t bits = vec.getNumElements() * vec.getElementTypeBitWidth();
    if (bits % 32 == 0)
      return bits == 32 ? Type(b.getI32Type())
                        : Type(VectorType::get({bits / 32}, b.getI32Type()));
    return b.getIntegerType(bits);
  }

  /// An invalid access is moved past the descriptor's bound, where loads
  /// read zero and stores are dropped.
  static Value outOfRangeUnless(OpBuilder &b, Location loc, Value offset,
                                Value valid, Value numBytes) {
    Value bound = arith::TruncIOp::create(b, loc, b.getI32Type(), numBytes);
    return arith::SelectOp::create(b, loc, valid, offset, bound);
  }
};
} // namespace

std::unique_ptr<GpuTarget> mla::createAMDTarget(const ChipInfo &chip) {
  return std::make_unique<AMDTarget>(chip);
}
