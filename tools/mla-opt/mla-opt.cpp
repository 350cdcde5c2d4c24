//===- mla-opt.cpp - Pass driver for tile programs ------------------------===//

#include "mla/InitAll.h"
#include "mla/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { mla::printVersion(os, "mla-opt"); });
  mlir::DialectRegistry registry;
  mla::registerAllDialects(registry);
  mla::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Tile program optimizer and lowering driver\n", registry));
}
