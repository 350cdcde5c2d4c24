//===- ManifestFuzzer.cpp - libFuzzer harness of the manifest reader ------===//
//
// An input is the text of a manifest (docs/ABI.md). Whatever it is, parsing
// gives an error or a manifest that holds what the validator promises, and
// the launch keys the drivers read can be read.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "mla/Runtime/LaunchExpr.h"
#include "mla/Runtime/Manifest.h"

#include <set>

using namespace mla::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Manifest manifest;
  if (parseManifest(text, "fuzz.json", manifest))
    return 0;

  FUZZ_CHECK(!manifest.target.empty() && !manifest.binary.empty(),
             "empty target or binary");
  std::set<std::string> symbols;
  for (const KernelInfo &kernel : manifest.kernels) {
    FUZZ_CHECK(symbols.insert(kernel.symbol).second, "duplicate symbol");
    std::set<std::string> names;
    for (const KernelArg &arg : kernel.args)
      FUZZ_CHECK(names.insert(arg.name).second, "duplicate argument name");
    int64_t workItems = 1;
    for (int64_t extent : kernel.workgroupSize) {
      FUZZ_CHECK(extent >= 1, "workgroup size below 1");
      workItems *= extent;
    }
    FUZZ_CHECK(workItems <= kMaxWorkgroupSize, "workgroup too large");
    FUZZ_CHECK(kernel.dynamicLdsBytes >= 0 &&
                   kernel.dynamicLdsBytes <= kernel.ldsBytes &&
                   kernel.ldsBytes <= kMaxLdsBytes,
               "LDS outside 0 <= dynamic_lds_bytes <= lds_bytes <= 1 MiB");
    // Grid rules and requirements read integer scalar arguments, never the
    // grid; evaluating them may fail, but only with an error.
    LaunchExprInputs inputs;
    inputs.scalar = [](llvm::StringRef) -> std::optional<int64_t> { return 7; };
    auto checkRule = [&](const llvm::json::Value &rule) {
      std::string what;
      FUZZ_CHECK(validateLaunchExpr(rule, what), "invalid launch rule kept");
      FUZZ_CHECK(!readsGrid(rule), "launch rule reads the grid");
      int64_t value;
      (void)evaluateLaunchExpr(rule, inputs, value, what);
    };
    if (kernel.hasGrid)
      for (const GridExtent &extent : kernel.grid) {
        if (!extent.quantity.empty())
          continue;
        checkRule(extent.rule);
        std::optional<int64_t> count = extent.rule.getAsInteger();
        FUZZ_CHECK(!count || *count >= 1, "grid size below 1");
      }
    for (const llvm::json::Value &requirement : kernel.requirements)
      checkRule(requirement);

    // What the MLA driver reads; errors are fine, crashes are not.
    for (const char *key : {"heads", "max_splits", "kv_tile"}) {
      std::optional<int64_t> value;
      if (readLaunchInteger(manifest, kernel, key, 1, value).ok() && value)
        FUZZ_CHECK(*value >= 1, std::string("launch.") + key + " below 1");
    }
    for (const char *key : {"role", "kv_dtype"}) {
      std::optional<std::string> value;
      (void)readLaunchString(manifest, kernel, key, value);
    }
  }
  return 0;
}
