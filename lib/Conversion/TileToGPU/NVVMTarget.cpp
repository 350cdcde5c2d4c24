//===- NVVMTarget.cpp - The GPU lowering's NVIDIA target ------------------===//
//
// sm_90: warp 32, mma.sync m16n8k16 through nvvm.mma.sync and sm_90a's
// wgmma through nvvm.wgmma.mma_async (operands in shared memory), global memory
// through plain pointers whose invalid accesses are branched around (there
// is no bounded buffer access), vector accesses only at addresses aligned
// to their size, exp2 and log through ex2.approx.f32 and lg2.approx.f32,
// fp8 through cvt.rn.f16x2.e4m3x2 / e5m2x2, MXFP4 to bf16 through packed
// bf16x2 multiplications.
//
//===----------------------------------------------------------------------===//

#include "mla/Conversion/TileToGPU/GpuTarget.h"
#include "mla/Conversion/Utils/FloatDecode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mla;
using namespace mla::tilegpu;

namespace {
class NVVMTarget : public GpuTarget {
public:
  using GpuTarget::GpuTarget;

  Value warpId(OpBuilder &b, Location loc, Value threadId) const override {
    return arith::DivUIOp::create(
        b, loc, threadId,
        arith::ConstantIndexOp::create(b, loc, info.waveSize));
  }

  Value numPrograms(OpBuilder &b, Location loc, unsigned axis,
                    int64_t threadsPerProgram) const override {
    return mlir::gpu::GridDimOp::create(
        b, loc, static_cast<mlir::gpu::Dimension>(axis));
  }

  bool hasMma(MmaAttr mma, Type element) const override {
    if (!element.isBF16() && !element.isF16())
      return false;
    if (mma.getKind() == MmaKind::wgmma)
      return true; // every shape the layout verifies
    return mma.getKind() == MmaKind::mma_sync && mma.getInstrM() == 16 &&
           mma.getInstrN() == 8 && mma.getInstrK() == 16;
  }

  /// The lane's registers arrive in the order of the PTX ISA's fragments
  /// for mma.m16n8k16 (a0..a7, b0..b3, c0..c3; see the mma_sync lane maps),
  /// and the instruction takes them two 16-bit elements to a 32-bit
  /// register, the lower-numbered element in the low half.
  Value mma(OpBuilder &b, Location loc, MmaAttr mma, Value a, Value bv,
            Value acc) const override {
    Type element = cast<VectorType>(a.getType()).getElementType();
    auto accType = cast<VectorType>(acc.getType());
    SmallVector<Value> aRegs = packPairs(b, loc, a);
    SmallVector<Value> bRegs = packPairs(b, loc, bv);
    SmallVector<Value> cRegs;
    for (int64_t i = 0; i < accType.getNumElements(); ++i)
      cRegs.push_back(vector::ExtractOp::create(b, loc, acc, i));
    auto resultType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(cRegs.size(), b.getF32Type()));
    NVVM::MMATypes ptxType =
        element.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    Value result = NVVM::MmaOp::create(
        b, loc, resultType, aRegs, bRegs, cRegs,
        ArrayRef<int64_t>{mma.getInstrM(), mma.getInstrN(), mma.getInstrK()},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> d;
    for (int64_t i = 0; i < accType.getNumElements(); ++i)
      d.push_back(LLVM::ExtractValueOp::create(b, loc, result, i));
    return vector::FromElementsOp::create(b, loc, accType, d);
  }

  /// wgmma.mma_async m64nNk16 with f32 accumulators, both operands through
  /// matrix descriptors (PTX ISA, "Matrix Descriptor Format"): bits 0-13
  /// the start address, 16-29 the leading and 32-45 the stride byte offset
  /// (each in 16-byte units), 62-63 the swizzle (1: 128, 2: 64, 3: 32
  /// bytes). A K-major swizzled operand's leading offset is unused (1).
  Value warpgroupMma(OpBuilder &b, Location loc, MmaAttr mma, Type element,
                     const SharedMatrix &a, const SharedMatrix &bm,
                     Value acc) const override {
    auto accType = cast<VectorType>(acc.getType());
    auto structType = LLVM::LLVMStructType::getLiteral(
        b.getContext(),
        SmallVector<Type>(accType.getNumElements(), b.getF32Type()));
    Value inouts = LLVM::UndefOp::create(b, loc, structType);
    for (int64_t i = 0; i < accType.getNumElements(); ++i)
      inouts = LLVM::InsertValueOp::create(
          b, loc, inouts, vector::ExtractOp::create(b, loc, acc, i), i);
    NVVM::WGMMATypes type =
        element.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
    auto layoutOf = [](const SharedMatrix &m, bool isB) {
      // A row-major A and a column-major B are K-major.
      bool kMajor = !m.mnMajor;
      return (kMajor != isB) ? NVVM::MMALayout::row : NVVM::MMALayout::col;
    };
    Value result = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, structType, inouts, descriptor(b, loc, a),
        descriptor(b, loc, bm),
        NVVM::MMAShapeAttr::get(b.getContext(), mma.getInstrM(),
                                mma.getInstrN(), mma.getInstrK()),
        type, type, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
        layoutOf(a, /*isB=*/false), layoutOf(bm, /*isB=*/true),
        /*satfinite=*/nullptr);
    SmallVector<Value> d;
    for (int64_t i = 0; i < accType.getNumElements(); ++i)
      d.push_back(LLVM::ExtractValueOp::create(b, loc, result, i));
    return vector::FromElementsOp::create(b, loc, accType, d);
  }

  void beginWarpgroupProduct(OpBuilder &b, Location loc) const override {
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
  }

  void endWarpgroupProduct(OpBuilder &b, Location loc,
                           bool wait) const override {
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    if (wait)
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  }

  /// wgmma.wait_group as inline assembly that reads and redefines the
  /// result registers: reading them before the wait is undefined (PTX ISA,
  /// "wgmma.mma_async"), and LLVM would move reads of a plain value above
  /// an intrinsic call.
  Value waitForWarpgroupProducts(OpBuilder &b, Location loc, int64_t pending,
                                 Value registers) const override {
    auto type = cast<VectorType>(registers.getType());
    int64_t n = type.getNumElements();
    SmallVector<Value> operands;
    std::string constraints;
    for (int64_t i = 0; i < n; ++i) {
      operands.push_back(vector::ExtractOp::create(b, loc, registers, i));
      constraints += (i ? ",=f" : "=f");
    }
    for (int64_t i = 0; i < n; ++i)
      constraints += "," + std::to_string(i);
    auto structType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(n, type.getElementType()));
    auto wait = LLVM::InlineAsmOp::create(
        b, loc, structType, operands,
        "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";",
        constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
        /*operand_attrs=*/nullptr);
    SmallVector<Value> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(LLVM::ExtractValueOp::create(b, loc, wait.getRes(), i));
    return vector::FromElementsOp::create(b, loc, type, values);
  }

  /// Shared-memory writes (st.shared, cp.async: the generic proxy) reach
  /// wgmma's reads (the async proxy) through fence.proxy.async by the
  /// writing thread before the barrier that orders them. A barrier that no
  /// such write precedes since the thread's last fence needs none: after a
  /// K step's products are waited for, the barrier before the next copies
  /// orders only reads that wgmma.wait_group has completed.
  void fenceForWarpgroupReads(Operation *func) const override {
    if (!func->walk(
                 [](NVVM::WgmmaMmaAsyncOp) { return WalkResult::interrupt(); })
             .wasInterrupted())
      return;
    SmallVector<Operation *> barriers;
    func->walk([&](Operation *op) {
      if (isBarrier(op))
        barriers.push_back(op);
    });
    for (Operation *barrier : barriers) {
      if (!writesSharedSinceFence(barrier))
        continue;
      OpBuilder b(barrier);
      NVVM::FenceProxyOp::create(
          b, barrier->getLoc(),
          NVVM::ProxyKindAttr::get(b.getContext(),
                                   NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(b.getContext(),
                                     NVVM::SharedSpace::shared_cta));
    }
  }

  /// Whether an op before `barrier` in its block, after the last
  /// fence.proxy.async there, may write shared memory through the generic
  /// proxy or complete such writes (cp.async.wait_group); the block's start
  /// counts as one (its predecessors are not followed).
  static bool writesSharedSinceFence(Operation *barrier) {
    for (Operation *op = barrier->getPrevNode(); op; op = op->getPrevNode()) {
      if (isa<NVVM::FenceProxyOp>(op))
        return false;
      if (mayWriteSharedGeneric(op))
        return true;
    }
    return true;
  }

  /// Conservatively: anything that writes memory except the warpgroup
  /// product's own instructions (which read shared memory through the
  /// async proxy and write registers) and barriers.
  static bool mayWriteSharedGeneric(Operation *op) {
    if (isa<NVVM::WgmmaMmaAsyncOp, NVVM::WgmmaFenceAlignedOp,
            NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaWaitGroupSyncOp,
            mlir::gpu::BarrierOp>(op))
      return false;
    if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op))
      return !asmOp.getAsmString().starts_with("wgmma.");
    if (op->getNumRegions() != 0 || isa<NVVM::CpAsyncWaitGroupOp>(op))
      return true;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return !op->hasTrait<OpTrait::ConstantLike>() && !isPure(op);
    return effects.hasEffect<MemoryEffects::Write>();
  }

  Value globalResource(OpBuilder &b, Location loc, Value base,
                       Value numBytes) const override {
    return base;
  }

  /// A block declares at most 48 KiB of .shared statically.
  int64_t maxStaticLdsBytes() const override { return 48 * 1024; }

  /// e4m3 and e5m2 through cvt.rn.f16x2.{e4m3x2,e5m2x2}: the byte pair of
  /// the word that holds `byteIndex` converts at once (both of its bytes
  /// reuse the conversion), exactly, since every fp8 value is an f16.
  Value decodeFp8(OpBuilder &b, Location loc, Value word, unsigned byteIndex,
                  FloatType format) const override {
    if (!isa<Float8E4M3FNType, Float8E5M2Type>(format))
      return GpuTarget::decodeFp8(b, loc, word, byteIndex, format);
    Value pairBits = arith::TruncIOp::create(
        b, loc, b.getI16Type(),
        arith::ShRUIOp::create(
            b, loc, word,
            arith::ConstantIntOp::create(b, loc, 16 * (byteIndex / 2), 32)));
    Value pair = LLVM::BitcastOp::create(
        b, loc, VectorType::get({2}, b.getI8Type()), pairBits);
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, loc, VectorType::get({2}, b.getF16Type()), pair,
        /*relu=*/b.getBoolAttr(false), TypeAttr::get(format));
    Value half = vector::ExtractOp::create(b, loc, halves,
                                           ArrayRef<int64_t>{byteIndex % 2});
    return arith::ExtFOp::create(b, loc, b.getF32Type(), half);
  }

  /// To bf16, both values of the byte at once in packed bf16x2 arithmetic
  /// (mul.rn.bf16x2), with no conversion instruction: an E2M1 code's
  /// exponent and mantissa bits placed at the bottom of a bf16's exponent
  /// field and the top of its mantissa read as the value times 2^-126 (its
  /// subnormal code 0.5 too, bf16 arithmetic keeps subnormals), so
  /// multiplying by 2^126 and then by the scale 2^(e - 127) decodes it.
  /// Both products are exact where bf16 holds the result (and otherwise
  /// round as the value would), the NaN scale giving NaN. Other element
  /// types decode as by default.
  std::pair<Value, Value> decodeScaledFp4Pair(OpBuilder &b, Location loc,
                                              Value word, unsigned byteIndex,
                                              Value scale,
                                              Type element) const override {
    if (!element.isBF16())
      return GpuTarget::decodeScaledFp4Pair(b, loc, word, byteIndex, scale,
                                            element);
    auto i32 = [&](uint32_t v) {
      return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
    };
    // Low half: the byte (low nibble at bit 0); high half: the byte of the
    // word shifted right by 4 (the high nibble at bit 16).
    Value shifted = arith::ShRUIOp::create(b, loc, word, i32(4));
    uint32_t k = byteIndex;
    uint32_t selector = k | k << 4 | (4 + k) << 8 | (4 + k) << 12;
    Value nibbles =
        NVVM::PermuteOp::create(b, loc, b.getI32Type(), word, shifted,
                                i32(selector), NVVM::PermuteMode::DEFAULT);
    // Per half: magnitude bits 0-2 to bits 6-8, sign bit 3 to bit 15.
    Value magnitudes = arith::AndIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, nibbles, i32(6)),
        i32(0x01C001C0));
    Value signs = arith::AndIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, nibbles, i32(12)),
        i32(0x80008000));
    auto pairType = VectorType::get({2}, b.getBF16Type());
    Value scaled = LLVM::BitcastOp::create(
        b, loc, pairType, arith::OrIOp::create(b, loc, magnitudes, signs));
    auto splat = [&](Value v) {
      return vector::BroadcastOp::create(b, loc, pairType, v);
    };
    Value twoTo126 = arith::ConstantOp::create(
        b, loc, b.getBF16Type(),
        b.getFloatAttr(b.getBF16Type(), std::ldexp(1.0, 126)));
    Value factor = exactF32ToBF16(b, loc, decodeE8M0(b, loc, scale));
    Value pair = arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, scaled, splat(twoTo126)),
        splat(factor));
    return {vector::ExtractOp::create(b, loc, pair, 0),
            vector::ExtractOp::create(b, loc, pair, 1)};
  }

  Value loadGlobal(OpBuilder &b, Location loc, Type type, Value resource,
                   Value byteOffset, Value valid,
                   Value numBytes) const override {
    auto branch = scf::IfOp::create(b, loc, type, valid,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    Value loaded = LLVM::LoadOp::create(
        b, loc, type, address(b, loc, resource, byteOffset), alignment(type));
    scf::YieldOp::create(b, loc, loaded);
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    scf::YieldOp::create(b, loc, zero);
    return branch.getResult(0);
  }

  void storeGlobal(OpBuilder &b, Location loc, Value value, Value resource,
                   Value byteOffset, Value valid,
                   Value numBytes) const override {
    auto branch = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    LLVM::StoreOp::create(b, loc, value, address(b, loc, resource, byteOffset),
                          alignment(value.getType()));
  }

  /// cp.async (L2 only for 16 bytes), its source size 0 where the lane
  /// copies zero. cp.async faults on a source not aligned to its size;
  /// copy offsets are multiples of the size (getLdsCopyBytes), so a view
  /// whose base is not aligned is copied byte by byte instead.
  void copyToLds(OpBuilder &b, Location loc, Value resource, Value byteOffset,
                 Value valid, Value numBytes, Value ldsBase, Value lane,
                 int64_t bytes) const override {
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value offset = arith::SelectOp::create(b, loc, valid, byteOffset, zero);
    Value source = address(b, loc, resource, offset);
    Value slot = arith::MulIOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, b.getI32Type(), lane),
        arith::ConstantIntOp::create(b, loc, bytes, 32));
    Value destination = LLVM::GEPOp::create(
        b, loc, ldsBase.getType(), b.getI8Type(), ldsBase, ValueRange{slot});
    Value aligned = isAlignedForVector(b, loc, resource, zero, bytes);
    auto branch = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    Value size = arith::SelectOp::create(
        b, loc, valid, arith::ConstantIntOp::create(b, loc, bytes, 32), zero);
    NVVM::CpAsyncOp::create(
        b, loc, destination, source, b.getI32IntegerAttr(bytes),
        NVVM::LoadCacheModifierKindAttr::get(
            b.getContext(), bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                        : NVVM::LoadCacheModifierKind::CA),
        size);
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    for (int64_t i = 0; i < bytes; ++i) {
      Value at = arith::AddIOp::create(
          b, loc, offset, arith::ConstantIntOp::create(b, loc, i, 32));
      Value byte =
          loadGlobal(b, loc, b.getI8Type(), resource, at, valid, numBytes);
      Value to = LLVM::GEPOp::create(
          b, loc, ldsBase.getType(), b.getI8Type(), destination,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, byte, to, 1);
    }
  }

  void commitCopies(OpBuilder &b, Location loc) const override {
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  /// cp.async.wait_group counts the thread's committed groups, one per
  /// async_copy.
  void waitForCopies(OpBuilder &b, Location loc, int64_t pendingCopies,
                     int64_t pendingInstructions) const override {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, pendingCopies);
  }

  Value isAlignedForVector(OpBuilder &b, Location loc, Value resource,
                           Value byteOffset, int64_t bytes) const override {
    // ld/st.global.v* fault on addresses not aligned to the access size.
    Value at = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(),
                                        address(b, loc, resource, byteOffset));
    Value low = LLVM::AndOp::create(
        b, loc, at,
        LLVM::ConstantOp::create(b, loc, b.getI64Type(), bytes - 1));
    return LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::eq, low,
        LLVM::ConstantOp::create(b, loc, b.getI64Type(), 0));
  }

  bool hasMatrixLoads() const override { return true; }

  /// ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16.
  SmallVector<Value> loadMatrices(OpBuilder &b, Location loc, Value rowAddress,
                                  unsigned count,
                                  bool transposed) const override {
    Type i32 = b.getI32Type();
    Type resultType = count == 1
                          ? i32
                          : LLVM::LLVMStructType::getLiteral(
                                b.getContext(), SmallVector<Type>(count, i32));
    Value loaded = NVVM::LdMatrixOp::create(
        b, loc, resultType, rowAddress, count,
        transposed ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    if (count == 1)
      return {loaded};
    SmallVector<Value> matrices;
    for (unsigned i = 0; i < count; ++i)
      matrices.push_back(LLVM::ExtractValueOp::create(b, loc, loaded, i));
    return matrices;
  }

  Value exp2(OpBuilder &b, Location loc, Value x) const override {
    return perElement(b, loc, x, [&](Value element) {
      return callIntrinsic(b, loc, "llvm.nvvm.ex2.approx.f32", element);
    });
  }

  /// ln x = log2(x) * ln 2 with `lg2.approx.f32` (0 to -inf); LLVM's
  /// llvm.log has no NVPTX lowering and MLIR's would call libdevice.
  Value log(OpBuilder &b, Location loc, Value x) const override {
    Value ln2 = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(0.69314718055994531));
    return perElement(b, loc, x, [&](Value element) {
      Value log2 = callIntrinsic(b, loc, "llvm.nvvm.lg2.approx.f", element);
      return arith::MulFOp::create(b, loc, log2, ln2).getResult();
    });
  }

private:
  /// The 64-bit matrix descriptor of `m`.
  static Value descriptor(OpBuilder &b, Location loc, const SharedMatrix &m) {
    Type i64 = b.getI64Type();
    auto constant = [&](uint64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, i64, v);
    };
    Value address = LLVM::PtrToIntOp::create(b, loc, i64, m.address);
    Value start = arith::ShRUIOp::create(
        b, loc, arith::AndIOp::create(b, loc, address, constant(0x3FFFF)),
        constant(4));
    uint64_t swizzle = m.swizzleBytes == 128 ? 1 : m.swizzleBytes == 64 ? 2 : 3;
    uint64_t leading = m.mnMajor ? uint64_t(m.leadingBytes) >> 4 : 1;
    uint64_t fields = (leading & 0x3FFF) << 16 |
                      (uint64_t(m.strideBytes >> 4) & 0x3FFF) << 32 |
                      swizzle << 62;
    return arith::OrIOp::create(b, loc, start, constant(fields));
  }

  /// A one-operand intrinsic of `x`'s type.
  static Value callIntrinsic(OpBuilder &b, Location loc, StringRef name,
                             Value x) {
    return LLVM::CallIntrinsicOp::create(b, loc, x.getType(),
                                         b.getStringAttr(name), ValueRange{x})
        .getResult(0);
  }

  /// Pairs of 16-bit elements as the 32-bit registers mma.sync takes: i32
  /// for bf16, vector<2xf16> for f16 (what nvvm.mma.sync expects of each).
  static SmallVector<Value> packPairs(OpBuilder &b, Location loc,
                                      Value registers) {
    auto type = cast<VectorType>(registers.getType());
    int64_t pairs = type.getNumElements() / 2;
    SmallVector<Value> result;
    if (type.getElementType().isBF16()) {
      Value words = vector::BitCastOp::create(
          b, loc, VectorType::get({pairs}, b.getI32Type()), registers);
      for (int64_t i = 0; i < pairs; ++i)
        result.push_back(vector::ExtractOp::create(b, loc, words, i));
      return result;
    }
    for (int64_t i = 0; i < pairs; ++i)
      result.push_back(vector::ExtractStridedSliceOp::create(
          b, loc, registers, ArrayRef<int64_t>{2 * i}, ArrayRef<int64_t>{2},
          ArrayRef<int64_t>{1}));
    return result;
  }

  /// Byte `byteOffset` (i32, unsigned: a view spans at most 4 GiB) of the
  /// global pointer `base`.
  static Value address(OpBuilder &b, Location loc, Value base,
                       Value byteOffset) {
    Value offset = arith::ExtUIOp::create(b, loc, b.getI64Type(), byteOffset);
    return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                               ValueRange{offset});
  }

  /// Accesses are naturally aligned: elements by their size, vectors by
  /// theirs (the lowering makes a vector access only where
  /// isAlignedForVector holds).
  static unsigned alignment(Type type) {
    if (auto vec = dyn_cast<VectorType>(type))
      return vec.getNumElements() * vec.getElementTypeBitWidth() / 8;
    return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
  }
};
} // namespace

std::unique_ptr<GpuTarget> mla::createNVVMTarget(const ChipInfo &chip) {
  return std::make_unique<NVVMTarget>(chip);
}
