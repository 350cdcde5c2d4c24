//===- TileDecompose.cpp - The tile-decompose pass ------------------------===//

#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mla::tile {
#define GEN_PASS_DEF_TILEDECOMPOSE
#include "mla/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mla::tile

using namespace mlir;
using namespace mla::tile;

namespace {
struct TileDecomposePass
    : mla::tile::impl::TileDecomposeBase<TileDecomposePass> {
  using TileDecomposeBase::TileDecomposeBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposeQKSoftmaxAccPatterns(patterns);
    populateDecomposeSplitReducePatterns(patterns);
    populateDecomposeDotScaledPatterns(patterns, keepScaledFp4);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
