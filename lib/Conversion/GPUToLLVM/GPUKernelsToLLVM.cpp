//===- GPUKernelsToLLVM.cpp - The convert-gpu-kernels-to-llvm pass --------===//
//
// The upstream passes lower one dialect each; run one after another they
// leave a kernel half converted (block arguments in LLVM types, branches
// still in cf). Here one conversion holds every pattern the kernels need.
//
//===----------------------------------------------------------------------===//

#include "mla/Conversion/Passes.h"
#include "mla/Dialect/TileGPU/IR/ChipInfo.h"

#include "mlir/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/GPUToROCDL/Runtimes.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mla {
#define GEN_PASS_DEF_CONVERTGPUKERNELSTOLLVM
#include "mla/Conversion/Passes.h.inc"
} // namespace mla

using namespace mlir;
using namespace mla;

namespace {
/// |x| as llvm.fabs (NVPTX's abs.f32/abs.f16), ahead of the GPU-to-NVVM
/// patterns' call to libdevice's __nv_fabsf: no device library is linked.
struct AbsFToFAbs : ConvertOpToLLVMPattern<math::AbsFOp> {
  AbsFToFAbs(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(math::AbsFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::FAbsOp>(op, type, adaptor.getOperand());
    return success();
  }
};

/// Square roots as llvm.sqrt, which both backends lower to instructions
/// (NVPTX's sqrt.rn.f32, AMDGPU's v_sqrt_f32 sequence), ahead of the GPU
/// patterns' calls into device libraries (__nv_sqrtf, __ocml_rsqrt_f32):
/// none is linked. rsqrt is 1 / sqrt, each step correctly rounded.
template <typename MathOp>
struct SqrtToIntrinsic : ConvertOpToLLVMPattern<MathOp> {
  SqrtToIntrinsic(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<MathOp>(converter, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    Location loc = op.getLoc();
    Value root =
        LLVM::SqrtOp::create(rewriter, loc, type, adaptor.getOperand());
    if (std::is_same_v<MathOp, math::SqrtOp>) {
      rewriter.replaceOp(op, root);
      return success();
    }
    Type element = getElementTypeOrSelf(type);
    TypedAttr oneAttr = rewriter.getFloatAttr(element, 1.0);
    if (auto vector = dyn_cast<VectorType>(type))
      oneAttr = DenseElementsAttr::get(vector, oneAttr);
    Value one = LLVM::ConstantOp::create(rewriter, loc, type, oneAttr);
    rewriter.replaceOpWithNewOp<LLVM::FDivOp>(op, one, root);
    return success();
  }
};

struct ConvertGPUKernelsToLLVMPass
    : mla::impl::ConvertGPUKernelsToLLVMBase<ConvertGPUKernelsToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    const tilegpu::ChipInfo *info = tilegpu::lookupChip(chip);
    if (!info) {
      getOperation().emitError() << "unknown chip '" << chip << "'";
      return signalPassFailure();
    }
    if (failed(lower(getOperation(), *info)))
      return signalPassFailure();
  }

  LogicalResult lower(mlir::gpu::GPUModuleOp module,
                      const tilegpu::ChipInfo &info) {
    MLIRContext *ctx = &getContext();
    keepInvariantsInOuterLoops(module);
    // Structured control flow first (the LLVM patterns take cf), and
    // strided vector slices as shuffles (vector-to-llvm lowers those).
    {
      RewritePatternSet patterns(ctx);
      populateSCFToControlFlowConversionPatterns(patterns);
      vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
      ConversionTarget target(*ctx);
      target.addIllegalDialect<scf::SCFDialect>();
      target.addIllegalOp<vector::ExtractStridedSliceOp,
                          vector::InsertStridedSliceOp>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return failure();
    }

    LowerToLLVMOptions options(ctx);
    // Offsets within one view fit 32 bits (docs/amdgpu.md); 64-bit index
    // arithmetic would double the registers of every index tile.
    options.overrideIndexBitwidth(32);
    LLVMTypeConverter converter(ctx, options);
    RewritePatternSet patterns(ctx);
    LLVMConversionTarget target(*ctx);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateVectorToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    patterns.add<SqrtToIntrinsic<math::SqrtOp>, SqrtToIntrinsic<math::RsqrtOp>>(
        converter);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    if (info.isAMD()) {
      FailureOr<amdgpu::Chipset> chipset = amdgpu::Chipset::parse(info.name);
      if (failed(chipset))
        return module.emitError() << "unknown AMD chipset " << info.name;
      populateAMDGPUToROCDLConversionPatterns(converter, patterns, *chipset);
      populateGpuToROCDLConversionPatterns(
          converter, patterns, mlir::gpu::amd::Runtime::HIP, *chipset);
      target.addLegalDialect<ROCDL::ROCDLDialect>();
      target.addIllegalDialect<amdgpu::AMDGPUDialect>();
    } else {
      populateGpuToNVVMConversionPatterns(converter, patterns);
      patterns.add<AbsFToFAbs>(converter);
      target.addLegalDialect<NVVM::NVVMDialect>();
    }
    target.addIllegalDialect<mlir::gpu::GPUDialect, arith::ArithDialect,
                             cf::ControlFlowDialect, math::MathDialect,
                             vector::VectorDialect>();
    target.addLegalOp<mlir::gpu::GPUModuleOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return failure();
    if (!info.isAMD() && failed(lowerToInlinePtx(module)))
      return failure();
    if (info.isAMD()) {
      pinWorkgroupSizes(module);
      clearIeeeMode(module);
    }
    return success();
  }

  /// NVVM ops with no LLVM intrinsic (wgmma.mma_async) become inline PTX,
  /// in a conversion of their own: among the main conversion's patterns
  /// they change how math.tanh lowers (to llvm.tanh, which NVPTX cannot
  /// select, instead of the library call that the PTX check refuses by
  /// name).
  static LogicalResult lowerToInlinePtx(mlir::gpu::GPUModuleOp module) {
    MLIRContext *ctx = module.getContext();
    RewritePatternSet patterns(ctx);
    populateNVVMToLLVMConversionPatterns(patterns);
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalOp<NVVM::WgmmaMmaAsyncOp>();
    return applyPartialConversion(module, target, std::move(patterns));
  }

  /// What LICM hoists out of a loop that holds another loop stays live
  /// across the inner one, where registers are scarcest: the per-lane
  /// addresses of the tile accesses before and after it (a partial
  /// program's run of work items took up to 90 more registers on sm_90).
  /// They are cheap to recompute each time round, so such loops are marked
  /// for LLVM's LICM to leave alone; the scf-to-cf lowering carries the
  /// mark to the loop's back edge.
  static void keepInvariantsInOuterLoops(mlir::gpu::GPUModuleOp module) {
    MLIRContext *ctx = module.getContext();
    auto keep = LLVM::LoopAnnotationAttr::get(
        ctx, {}, {}, {}, {}, {},
        LLVM::LoopLICMAttr::get(ctx, BoolAttr::get(ctx, true), {}), {}, {}, {},
        {}, {}, {}, {}, {}, {});
    module.walk([&](scf::ForOp loop) {
      bool holdsLoop = loop.getBody()
                           ->walk([](LoopLikeOpInterface) {
                             return WalkResult::interrupt();
                           })
                           .wasInterrupted();
      if (holdsLoop)
        loop->setAttr("loop_annotation", keep);
    });
  }

  /// The backend budgets registers by the largest workgroup a kernel may
  /// be launched with (256 when unsaid): a kernel of 512 threads must say
  /// so, or it gets registers for too few waves and cannot be launched.
  static void pinWorkgroupSizes(mlir::gpu::GPUModuleOp module) {
    module.walk([](LLVM::LLVMFuncOp func) {
      auto size = func->getAttrOfType<DenseI32ArrayAttr>(
          ROCDL::ROCDLDialect::getReqdWorkGroupSizeAttrName());
      if (!size)
        return;
      int64_t threads = 1;
      for (int32_t extent : size.asArrayRef())
        threads *= extent;
      std::string range =
          std::to_string(threads) + "," + std::to_string(threads);
      func->setAttr(ROCDL::ROCDLDialect::getFlatWorkGroupSizeAttrName(),
                    StringAttr::get(func.getContext(), range));
    });
  }

  /// Kernels run with the mode register's IEEE bit clear. Set, it makes the
  /// backend quiet each operand of a NaN-ignoring min/max first (a
  /// `v_max_f32 x, x, x`), which also keeps a shuffle from folding into the
  /// `v_max_f32` as DPP. Only signaling NaNs behave differently, and no
  /// kernel relies on them being quieted.
  static void clearIeeeMode(mlir::gpu::GPUModuleOp module) {
    module.walk([](LLVM::LLVMFuncOp func) {
      if (!func->hasAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName()))
        return;
      MLIRContext *ctx = func.getContext();
      SmallVector<Attribute> attrs;
      if (ArrayAttr old = func.getPassthroughAttr())
        attrs.append(old.begin(), old.end());
      attrs.push_back(ArrayAttr::get(ctx, {StringAttr::get(ctx, "amdgpu-ieee"),
                                           StringAttr::get(ctx, "false")}));
      func.setPassthroughAttr(ArrayAttr::get(ctx, attrs));
    });
  }
};
} // namespace
