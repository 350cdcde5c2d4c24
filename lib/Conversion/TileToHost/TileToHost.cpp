//===- TileToHost.cpp - The convert-tile-to-host pass ---------------------===//

#include "HostLowering.h"
#include "mla/Conversion/Passes.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace mla {
#define GEN_PASS_DEF_CONVERTTILETOHOST
#include "mla/Conversion/Passes.h.inc"
} // namespace mla

using namespace mlir;
using namespace mla;

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertTileToHostPass
    : mla::impl::ConvertTileToHostBase<ConvertTileToHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    convertKernelsToHostEntries(module);

    HostTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    populateTileMemoryToHostPatterns(converter, patterns);
    populateTileBuildToHostPatterns(converter, patterns);
    populateTileDequantToHostPatterns(converter, patterns);
    populateTileDotToHostPatterns(converter, patterns);
    populateTileReduceToHostPatterns(converter, patterns);

    ConversionTarget target(getContext());
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           LLVM::LLVMDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    // Ops without a host pattern stay "unknown" so that the walk below can
    // name them instead of a generic legalization failure.
    target.addIllegalOp<tile::ViewOp, tile::LoadOp, tile::StoreOp,
                        tile::LoadScalarOp, tile::RangeOp, tile::SplatOp,
                        tile::BroadcastOp, tile::TransOp, tile::DequantMxOp,
                        tile::DequantFp8Op, tile::DotOp, tile::ReduceOp>();
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // Whatever tile op survived has no host lowering.
    WalkResult result = module.walk([](Operation *op) {
      if (!isa<tile::TileDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitError()
          << "'" << op->getName() << "' is not supported by the host target"
          << (isa<tile::QKSoftmaxAccOp, tile::SplitReduceOp, tile::DotScaledOp>(
                  op)
                  ? "; run tile-decompose first"
                  : "");
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
