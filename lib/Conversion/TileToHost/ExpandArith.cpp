//===- ExpandArith.cpp - The host-expand-arith pass -----------------------===//

#include "mla/Conversion/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mla {
#define GEN_PASS_DEF_HOSTEXPANDARITH
#include "mla/Conversion/Passes.h.inc"
} // namespace mla

using namespace mlir;

namespace {
struct HostExpandArithPass
    : mla::impl::HostExpandArithBase<HostExpandArithPass> {
  void runOnOperation() override {
    // Only these two sets: arith::populateArithExpandOpsPatterns would also
    // expand the float maxima and minima, losing the sign of zero.
    RewritePatternSet patterns(&getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
