//===- PrintLaneMaps.cpp - The tilegpu-print-lane-maps pass ---------------===//

#include "mla/Dialect/TileGPU/Transforms/Passes.h"

namespace mla::tilegpu {
#define GEN_PASS_DEF_TILEGPUPRINTLANEMAPS
#include "mla/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mla::tilegpu

using namespace mlir;
using namespace mla::tilegpu;

namespace {
struct PrintLaneMapsPass
    : mla::tilegpu::impl::TileGPUPrintLaneMapsBase<PrintLaneMapsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      for (auto [i, result] : llvm::enumerate(op->getResults())) {
        auto type = dyn_cast<RankedTensorType>(result.getType());
        if (!type || !getLayout(type))
          continue;
        op->emitRemark() << "result " << i << ": " << getLaneMap(type).str();
      }
    });
  }
};
} // namespace
