//===- Extents.cpp - How far a kernel reaches past its pointers -----------===//

#include "mla/Runtime/Extents.h"
#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/LaunchRules.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/Support/FormatVariadic.h"

namespace mla::runtime {

int64_t elementsInBytes(const std::string &type, uint64_t bytes) {
  int64_t perElement = 1;
  if (type == "f4E2M1FN")
    return int64_t(bytes) * 2;
  if (type == "bf16" || type == "f16")
    perElement = 2;
  else if (type == "f32" || type == "i32")
    perElement = 4;
  else if (type == "i64")
    perElement = 8;
  return int64_t(bytes) / perElement;
}

Status checkExtents(const KernelInfo &kernel, const std::vector<BoundArg> &args,
                    const std::array<int64_t, 3> &grid) {
  LaunchExprInputs inputs = launchInputs(args, grid);
  for (const BoundArg &bound : args) {
    const KernelArg &arg = *bound.arg;
    if (arg.kind != ArgKind::Pointer || !arg.extent)
      continue;
    std::string subject = "--arg " + arg.name, what;
    int64_t needed;
    if (!evaluateLaunchExpr(*arg.extent, inputs, needed, what))
      return Status::failure(subject, "kernel '" + kernel.symbol +
                                          "': cannot compute how many "
                                          "elements it reaches: " +
                                          what);
    int64_t given = elementsInBytes(arg.type, bound.buffer.bytes.size());
    if (needed > given)
      return Status::failure(
          subject, llvm::formatv("kernel '{0}' needs {1} {2} elements at these "
                                 "arguments and grid, the buffer has {3}",
                                 kernel.symbol, needed, arg.type, given));
  }
  return Status::success();
}

} // namespace mla::runtime
