//===- InitAll.cpp - Register the project's dialects and passes -----------===//

#include "mla/InitAll.h"
#include "mla/Dialect/Tile/IR/TileDialect.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"
#include "mla/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/Passes.h"

void mla::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
}

void mla::registerAllPasses() {
  mlir::registerTransformsPasses();
  tile::registerTilePasses();
  registerPipelines();
}
