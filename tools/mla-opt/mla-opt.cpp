//===- mla-opt.cpp - Pass driver for tile programs ------------------------===//

#include "mla/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mla::registerAllDialects(registry);
  mla::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Tile program optimizer and lowering driver\n", registry));
}
