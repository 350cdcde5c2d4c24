//===- TargetBackend.cpp - What every target backend shares ---------------===//

#include "mla/Target/TargetBackend.h"
#include "mla/Target/AbiRecord.h"
#include "mla/Target/LLVMCodegen.h"

using namespace mlir;
using namespace mla;

std::unique_ptr<llvm::TargetMachine>
TargetBackend::createTargetMachine(std::string &error) const {
  setCodegenDefaults();
  return mla::createTargetMachine(info, error);
}

LogicalResult TargetBackend::prepareForEmit(llvm::Module &module,
                                            llvm::TargetMachine &machine,
                                            llvm::json::Value &manifest,
                                            std::string &error) const {
  if (failed(optimizeModule(module, machine, error)))
    return failure();
  if (llvm::Error recordError = addAbiRecord(module, manifest)) {
    error = llvm::toString(std::move(recordError));
    return failure();
  }
  return success();
}

llvm::cl::OptionCategory &mla::getTargetOptionCategory() {
  static llvm::cl::OptionCategory category("Target options");
  return category;
}

std::vector<std::string>
TargetBackend::getOutputFiles(llvm::StringRef outputPath,
                              EmitStage stage) const {
  if (stage != EmitStage::Bin)
    return {outputPath.str()};
  return {outputPath.str(), (outputPath + ".json").str()};
}
