//===- AbiRecord.cpp - The ABI record a binary carries --------------------===//

#include "mla/Target/AbiRecord.h"
#include "mla/Runtime/AbiRecord.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>
#include <optional>

using namespace llvm;

/// The workgroup size `function` requires, if it declares one.
static std::optional<std::array<int64_t, 3>>
requiredWorkgroupSize(const Function &function) {
  std::array<int64_t, 3> size = {1, 1, 1};
  if (MDNode *node = function.getMetadata("reqd_work_group_size")) {
    if (node->getNumOperands() != 3)
      return std::nullopt;
    for (unsigned d = 0; d < 3; ++d) {
      auto *extent = mdconst::dyn_extract<ConstantInt>(node->getOperand(d));
      if (!extent)
        return std::nullopt;
      size[d] = extent->getSExtValue();
    }
    return size;
  }
  // NVPTX kernels state their block as nvvm.reqntid or, as the GPU
  // lowering writes it (its lanes are laid out for exactly that block),
  // nvvm.maxntid.
  Attribute reqntid = function.getFnAttribute("nvvm.reqntid");
  if (!reqntid.isStringAttribute())
    reqntid = function.getFnAttribute("nvvm.maxntid");
  if (!reqntid.isStringAttribute())
    return std::nullopt;
  SmallVector<StringRef, 3> extents;
  reqntid.getValueAsString().split(extents, ',');
  if (extents.empty() || extents.size() > 3)
    return std::nullopt;
  for (auto [d, extent] : llvm::enumerate(extents))
    if (extent.trim().getAsInteger(10, size[d]))
      return std::nullopt;
  return size;
}

Error mla::addAbiRecord(Module &module, json::Value &manifest) {
  using runtime::kAbiRecordSymbol;
  json::Object *root = manifest.getAsObject();
  json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels || !root->get("target"))
    return createStringError("the manifest has no target or no kernels");
  if (module.getNamedValue(kAbiRecordSymbol))
    return createStringError(Twine("the module already defines ") +
                             kAbiRecordSymbol);

  json::Array records;
  for (json::Value &entry : *kernels) {
    json::Object &kernel = *entry.getAsObject();
    StringRef symbol = *kernel.getString("symbol");
    const Function *function = module.getFunction(symbol);
    if (!function || function->isDeclaration())
      return createStringError("kernel '" + symbol +
                               "' is not defined in the module");
    if (std::optional<std::array<int64_t, 3>> size =
            requiredWorkgroupSize(*function))
      kernel["workgroup_size"] =
          json::Array{(*size)[0], (*size)[1], (*size)[2]};
    json::Object record{{"symbol", symbol},
                        {"args", *kernel.get("args")},
                        {"workgroup_size", *kernel.get("workgroup_size")}};
    if (const json::Value *launch = kernel.get("launch"))
      record["launch"] = *launch;
    records.push_back(std::move(record));
  }
  json::Value record = json::Object{{"version", runtime::kAbiRecordVersion},
                                    {"target", *root->get("target")},
                                    {"kernels", std::move(records)}};

  Constant *text = ConstantDataArray::getString(
      module.getContext(), formatv("{0}", record).str(), /*AddNull=*/true);
  const Triple &triple = module.getTargetTriple();
  unsigned addressSpace = triple.isAMDGPU() || triple.isNVPTX() ? 1 : 0;
  auto *global = new GlobalVariable(
      module, text->getType(), /*isConstant=*/true,
      GlobalValue::ExternalLinkage, text, kAbiRecordSymbol,
      /*InsertBefore=*/nullptr, GlobalValue::NotThreadLocal, addressSpace);
  global->setAlignment(Align(1));
  return Error::success();
}
