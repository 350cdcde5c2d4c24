//===- Manifest.cpp - The kernel manifest next to each binary -------------===//

#include "mla/Target/Manifest.h"
#include "mla/Dialect/Tile/IR/LaunchExpr.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Support/Chips.h"
#include "mla/Target/ArgumentExtents.h"
#include "mla/Target/GpuCodegen.h"

using namespace mlir;
using namespace mla;

static std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

/// Launch dictionaries hold strings, integers, floats, booleans, arrays and
/// nested dictionaries; the verifier has checked the grid.
static llvm::json::Value toJson(Attribute attr) {
  if (auto str = dyn_cast<StringAttr>(attr))
    return str.getValue().str();
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return boolean.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  if (auto real = dyn_cast<FloatAttr>(attr))
    return real.getValueAsDouble();
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array out;
    for (Attribute element : array)
      out.push_back(toJson(element));
    return out;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object out;
    for (NamedAttribute entry : dict)
      out[entry.getName().getValue()] = toJson(entry.getValue());
    return out;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

/// `tile.launch` with its grid and requirements compiled into expressions
/// (the verifier has checked that they compile).
static llvm::json::Value launchEntry(tile::KernelOp kernel,
                                     DictionaryAttr launch) {
  llvm::json::Object out = *toJson(launch).getAsObject();
  std::string error;
  if (auto grid = launch.getAs<ArrayAttr>("grid")) {
    llvm::json::Array entries;
    for (Attribute entry : grid)
      entries.push_back(*tile::compileGridEntry(kernel, entry, error));
    out["grid"] = std::move(entries);
  }
  if (auto conditions = launch.getAs<ArrayAttr>("requires")) {
    // A condition the instance's parameters decide is true (the verifier
    // refuses false ones): no launcher need check it.
    llvm::json::Array compiled;
    for (auto text : conditions.getAsRange<StringAttr>()) {
      llvm::json::Value condition = *tile::compileLaunchExpr(
          kernel, text.getValue(), tile::LaunchExprKind::Condition, error);
      if (!condition.getAsInteger())
        compiled.push_back(std::move(condition));
    }
    if (compiled.empty())
      out.erase("requires");
    else
      out["requires"] = std::move(compiled);
  }
  return out;
}

static llvm::json::Value kernelEntry(tile::KernelOp kernel) {
  llvm::json::Array args;
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    auto ptr = dyn_cast<tile::PtrType>(type);
    llvm::json::Object arg{
        {"name", kernel.getArgName(i).str()},
        {"kind", ptr ? "ptr" : "scalar"},
        {"type", typeName(ptr ? ptr.getElementType() : type)}};
    if (ptr) {
      std::string unknown;
      std::optional<llvm::json::Value> extent =
          argumentExtent(kernel, i, unknown);
      arg["extent"] = extent ? std::move(*extent) : nullptr;
      if (!extent)
        arg["extent_unknown"] = unknown;
    }
    args.push_back(std::move(arg));
  }
  llvm::json::Object entry{
      {"symbol", kernel.getSymName().str()},
      {"args", std::move(args)},
      // The host runs one program instance per call.
      {"workgroup_size", llvm::json::Array{1, 1, 1}},
      {"lds_bytes", 0},
      {"registers", nullptr},
      {"spills", nullptr},
  };
  if (auto launch =
          kernel->getAttrOfType<DictionaryAttr>(tile::kLaunchAttrName))
    entry["launch"] = launchEntry(kernel, launch);
  // The parameter values of an instance of a parameterized kernel.
  if (Attribute params = kernel->getAttr(tile::kParamsAttrName))
    entry["params"] = toJson(params);
  if (auto generic =
          kernel->getAttrOfType<StringAttr>(tile::kInstanceOfAttrName))
    entry["instance_of"] = generic.getValue().str();
  return entry;
}

llvm::json::Value mla::buildManifest(ModuleOp module, const TargetInfo &target,
                                     llvm::StringRef binaryName) {
  llvm::json::Array kernels;
  for (tile::KernelOp kernel : module.getOps<tile::KernelOp>())
    kernels.push_back(kernelEntry(kernel));
  llvm::json::Object manifest{{"target", target.name.str()},
                              {"binary", binaryName.str()},
                              {"kernels", std::move(kernels)}};
  // The chip's facts, for runtimes that cannot read the chip table (the
  // Python package): compute units to plan with, the fp8 it converts.
  if (const Chip *chip = lookupChip(target.chip.str()))
    manifest["chip"] = llvm::json::Object{
        {"name", std::string(chip->name)},
        {"wave_size", chip->waveSize},
        {"lds_bytes", chip->ldsBytes},
        {"compute_units", chip->computeUnits},
        {"fp8", chip->fp8 == Fp8Encoding::FNUZ ? "fnuz" : "ocp"}};
  return manifest;
}

void mla::addKernelResources(llvm::json::Value &manifest,
                             llvm::ArrayRef<KernelResources> resources) {
  llvm::json::Array *kernels = manifest.getAsObject()->getArray("kernels");
  for (llvm::json::Value &entry : *kernels) {
    llvm::json::Object &kernel = *entry.getAsObject();
    std::optional<llvm::StringRef> symbol = kernel.getString("symbol");
    const KernelResources *found = nullptr;
    for (const KernelResources &r : resources)
      if (symbol && r.symbol == *symbol)
        found = &r;
    if (!found)
      continue;
    // A size the kernel declares (addAbiRecord put it there) holds
    // maxWorkgroupSize work-items and keeps its shape; the maximum stands in
    // for a kernel without one.
    int64_t declared = 1;
    for (const llvm::json::Value &extent : *kernel.getArray("workgroup_size"))
      declared *= extent.getAsInteger().value_or(0);
    if (declared != found->maxWorkgroupSize)
      kernel["workgroup_size"] =
          llvm::json::Array{found->maxWorkgroupSize, 1, 1};
    kernel["lds_bytes"] = found->ldsBytes;
    // On CDNA3/4 the metadata's VGPR count is already the unified total of
    // the register file the kernel occupies (VGPRs, alignment, then AGPRs).
    kernel["registers"] = found->vgprs;
    kernel["spills"] = found->vgprSpills + found->sgprSpills;
    kernel["resources"] = llvm::json::Object{
        {"vgprs", found->vgprs},
        {"agprs", found->agprs},
        {"sgprs", found->sgprs},
        {"scratch_bytes", found->scratchBytes},
        {"vgpr_spills", found->vgprSpills},
        {"sgpr_spills", found->sgprSpills},
        {"wave_size", found->waveSize},
    };
  }
}
