//===- Pipelines.cpp - Named pass pipelines -------------------------------===//

#include "mla/Pipelines/Pipelines.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mla::buildTileToPrimitivesPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(tile::createTileDecompose());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mla::registerPipelines() {
  PassPipelineRegistration<>(
      "tile-to-primitives",
      "Canonicalize and decompose high-level tile ops into primitives",
      buildTileToPrimitivesPipeline);
}
