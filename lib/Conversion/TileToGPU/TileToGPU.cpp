//===- TileToGPU.cpp - The convert-tile-to-gpu pass -----------------------===//
//
// First every tile.kernel becomes a gpu.func in a gpu.module of its own
// (same body, the ids and the LDS block created at its entry); then a
// dialect conversion per module lowers the tile ops with the patterns of
// the op families.
//
//===----------------------------------------------------------------------===//

#include "GpuLowering.h"
#include "mla/Conversion/Passes.h"
#include "mla/Dialect/Tile/IR/LaunchExpr.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Threading.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mla {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "mla/Conversion/Passes.h.inc"
} // namespace mla

using namespace mlir;
using namespace mla;
using namespace mla::gpu;

llvm::StringMap<int64_t> mla::gpu::requiredAlignments(tile::KernelOp kernel) {
  llvm::StringMap<int64_t> alignments;
  auto launch = kernel->getAttrOfType<DictionaryAttr>(tile::kLaunchAttrName);
  auto conditions = launch ? launch.getAs<ArrayAttr>("requires") : nullptr;
  if (!conditions)
    return alignments;
  for (auto text : conditions.getAsRange<StringAttr>()) {
    std::string error;
    std::optional<llvm::json::Value> condition = tile::compileLaunchExpr(
        kernel, text.getValue(), tile::LaunchExprKind::Condition, error);
    if (!condition)
      continue;
    if (auto match = tile::matchAlignmentRequirement(kernel, *condition)) {
      // `P % 24 == 0` makes P 8-byte aligned.
      uint64_t divisor = match->second;
      if (divisor == 0)
        continue;
      int64_t &known = alignments[match->first];
      known = std::max<int64_t>(known, divisor & -divisor);
    }
  }
  return alignments;
}

/// Creates `gpu.func @name` in `module` from `kernel`, moves the body over
/// and records its ids; returns null (after a diagnostic) on failure.
static mlir::gpu::GPUFuncOp makeGpuFunc(tile::KernelOp kernel,
                                        mlir::gpu::GPUModuleOp module,
                                        LoweringState &state) {
  auto warps = kernel->getAttrOfType<IntegerAttr>("tilegpu.num_warps");
  if (!warps) {
    kernel.emitOpError("has no layouts; run tilegpu-assign-layouts first");
    return {};
  }
  unsigned waveSize = state.waveSize();
  int32_t threads = warps.getInt() * waveSize;

  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = kernel.getLoc();
  int64_t scratch = 0;
  kernel.walk([&](Operation *op) {
    scratch = std::max(scratch, scratchBytes(op, waveSize));
  });
  int64_t ldsBytes = assignLdsOffsets(kernel, scratch, waveSize);
  int64_t ldsAlign = ldsAlignment(kernel);
  planCopies(kernel, warps.getInt(), state);
  recordAccessMultiples(kernel, state);
  if (ldsBytes > state.target.chip().ldsBytes) {
    // An instance shares its generic kernel's location: name it.
    kernel.emitOpError() << "@" << kernel.getSymName() << " needs " << ldsBytes
                         << " bytes of LDS; " << state.target.chip().name
                         << " has " << state.target.chip().ldsBytes;
    return {};
  }
  LLVM::GlobalOp lds;
  if (ldsBytes > state.target.maxStaticLdsBytes()) {
    // Dynamic shared memory: an unsized external array, its size for the
    // launch recorded on it (read into the manifest).
    auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
    lds = LLVM::GlobalOp::create(
        b, loc, arrayType, /*isConstant=*/false, LLVM::Linkage::External,
        (kernel.getSymName() + "_lds").str(), Attribute(), ldsAlign,
        /*addrSpace=*/3);
    lds->setAttr(tile::kDynamicLdsBytesAttrName, b.getI64IntegerAttr(ldsBytes));
  } else if (ldsBytes > 0) {
    auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), ldsBytes);
    lds = LLVM::GlobalOp::create(
        b, loc, arrayType, /*isConstant=*/false, LLVM::Linkage::Internal,
        (kernel.getSymName() + "_lds").str(), Attribute(), ldsAlign,
        /*addrSpace=*/3);
  }

  auto func = mlir::gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                                           kernel.getFunctionType());
  func->setAttr(mlir::gpu::GPUDialect::getKernelFuncAttrName(),
                b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({threads, 1, 1}));
  // A kernel's pointer arguments address disjoint memory (docs/DSL.md): a
  // store through one leaves what the others read unchanged, so that loads
  // of tables inside a loop that stores stay scalar loads on AMD.
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (isa<tile::PtrType>(type))
      func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                      b.getUnitAttr());
  // A requirement `P % C == 0` on a pointer (checked by every launcher) is
  // its alignment, which lets LLVM fold the lowering's tests of addresses
  // built from it (e.g. whether a copy's source is aligned for cp.async).
  llvm::StringMap<int64_t> alignments = requiredAlignments(kernel);
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (auto known = alignments.find(kernel.getArgName(i));
        known != alignments.end())
      func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(known->second));

  // Move the body in place of the entry block gpu.func made.
  Region &body = func.getBody();
  body.front().erase();
  body.takeBody(kernel.getBody());
  Block &entry = body.front();
  b.setInsertionPointToStart(&entry);
  KernelIds ids;
  ids.threadId = mlir::gpu::ThreadIdOp::create(b, loc, mlir::gpu::Dimension::x);
  ids.lane = arith::RemUIOp::create(b, loc, ids.threadId,
                                    indexConst(b, loc, waveSize));
  ids.warp = state.target.warpId(b, loc, ids.threadId);
  ids.numWarps = warps.getInt();
  if (lds)
    ids.lds = LLVM::AddressOfOp::create(b, loc, lds);
  state.kernels[func] = ids;
  return func;
}

namespace {
struct ConvertTileToGPUPass
    : mla::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    const tilegpu::ChipInfo *info = tilegpu::lookupChip(chip);
    if (!info) {
      module.emitError() << "unknown chip '" << chip << "'";
      return signalPassFailure();
    }
    auto kernels = llvm::to_vector(module.getOps<tile::KernelOp>());
    if (kernels.empty())
      return;
    std::unique_ptr<GpuTarget> gpuTarget = createGpuTarget(*info);
    LoweringState state(*gpuTarget);

    module->setAttr(mlir::gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));
    // A gpu.module per kernel, named after it: isolated from one another,
    // the kernels are converted here and by later passes on threads of
    // their own.
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    SmallVector<mlir::gpu::GPUModuleOp> gpuModules;
    for (tile::KernelOp kernel : kernels) {
      auto gpuModule = mlir::gpu::GPUModuleOp::create(b, kernel.getLoc(),
                                                      kernel.getSymName());
      if (!makeGpuFunc(kernel, gpuModule, state))
        return signalPassFailure();
      kernel.erase();
      gpuModules.push_back(gpuModule);
    }

    GpuTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateKernelPatterns(converter, patterns, state);
    populateMemoryPatterns(converter, patterns, state);
    populateBuildPatterns(converter, patterns, state);
    populateElementwisePatterns(converter, patterns, state);
    populateReducePatterns(converter, patterns, state);
    populateConvertLayoutPatterns(converter, patterns, state);
    populateDotPatterns(converter, patterns, state);
    populateDequantPatterns(converter, patterns, state);
    populateSharedPatterns(converter, patterns, state);
    populateAsyncCopyPatterns(converter, patterns, state);
    populateFunctionOpInterfaceTypeConversionPattern<mlir::gpu::GPUFuncOp>(
        patterns, converter);

    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, mlir::gpu::GPUDialect,
                           vector::VectorDialect, amdgpu::AMDGPUDialect,
                           ROCDL::ROCDLDialect, NVVM::NVVMDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addIllegalDialect<tile::TileDialect, tilegpu::TileGPUDialect>();
    // Tiles become vectors; scalars stay. exp goes to the chip's exp2, log
    // to the target's.
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect,
                                      tensor::TensorDialect>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addIllegalOp<math::ExpOp, math::Exp2Op, math::LogOp>();
    target.addDynamicallyLegalOp<mlir::gpu::GPUFuncOp>(
        [&](mlir::gpu::GPUFuncOp op) {
          return converter.isSignatureLegal(op.getFunctionType());
        });
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    // The patterns only read `state`, filled in above.
    FrozenRewritePatternSet frozen(std::move(patterns));
    auto lower = [&](mlir::gpu::GPUModuleOp gpuModule) {
      if (failed(applyPartialConversion(gpuModule, target, frozen)))
        return failure();
      for (auto func : gpuModule.getOps<mlir::gpu::GPUFuncOp>()) {
        dropRepeatedBarriers(func, *gpuTarget);
        gpuTarget->fenceForWarpgroupReads(func);
        separateLdsCopies(func);
      }
      return success();
    };
    if (failed(failableParallelForEach(ctx, gpuModules, lower)))
      return signalPassFailure();
  }
};
} // namespace
