//===- LaunchKeys.cpp - Launch keys the GPU passes read -------------------===//

#include "LaunchKeys.h"

using namespace mlir;

FailureOr<unsigned> mla::tilegpu::getLaunchCount(
    tile::KernelOp kernel, StringRef key, unsigned fallback,
    function_ref<bool(int64_t)> accept, StringRef expected) {
  auto launch = kernel->getAttrOfType<DictionaryAttr>(tile::kLaunchAttrName);
  Attribute value = launch ? launch.get(key) : Attribute();
  if (!value)
    return fallback;
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || !accept(integer.getInt()))
    return kernel.emitOpError()
           << "launch key '" << key << "' must be " << expected;
  return static_cast<unsigned>(integer.getInt());
}

FailureOr<unsigned> mla::tilegpu::getLaunchStages(tile::KernelOp kernel,
                                                  unsigned fallback) {
  return getLaunchCount(
      kernel, "stages", fallback,
      [](int64_t n) { return n >= 1 && n <= kMaxStages; },
      "1 to " + std::to_string(kMaxStages));
}
