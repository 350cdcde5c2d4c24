//===- KernelRunner.cpp - Run one kernel with bound arguments -------------===//

#include "mla/Runtime/KernelRunner.h"
#include "mla/Runtime/Manifest.h"

#include <utility>

namespace mla::runtime {

KernelRunner::KernelRunner(Backend &backend, const KernelInfo &kernel,
                           std::vector<BoundArg> args)
    : backend(backend), kernel(kernel), bound(std::move(args)) {}

Status KernelRunner::prepare() {
  buffers.clear();
  buffers.resize(bound.size());
  slots.assign(bound.size(), ArgSlot{nullptr});
  args.assign(bound.size(), nullptr);
  for (size_t i = 0; i < bound.size(); ++i) {
    args[i] = &slots[i];
    if (bound[i].arg->kind == ArgKind::Scalar) {
      slots[i].scalar = bound[i].scalar;
      continue;
    }
    const std::vector<uint8_t> &bytes = bound[i].buffer.bytes;
    if (Status s = buffers[i].allocate(backend, bytes.size()))
      return s;
    if (!bytes.empty())
      if (Status s = backend.copyToDevice(buffers[i].get(), bytes.data(),
                                          bytes.size()))
        return s;
    slots[i].pointer = buffers[i].get();
  }
  return Status::success();
}

Status KernelRunner::run(const std::array<int64_t, 3> &grid) {
  if (Status s = backend.launch(kernel, grid, args.data()))
    return s;
  return backend.synchronize();
}

Status KernelRunner::benchmark(const std::array<int64_t, 3> &grid,
                               int64_t warmup, int64_t iterations,
                               double &medianMicroseconds) {
  return benchmarkLaunches(
      backend, warmup, iterations,
      [&] { return backend.launch(kernel, grid, args.data()); },
      medianMicroseconds);
}

Status KernelRunner::readBuffer(const std::string &name, NpyArray &array) {
  for (size_t i = 0; i < bound.size(); ++i) {
    if (bound[i].arg->name != name || bound[i].arg->kind != ArgKind::Pointer)
      continue;
    const NpyArray &initial = bound[i].buffer;
    array.dtype = initial.dtype;
    array.shape = initial.shape;
    array.bytes.resize(initial.bytes.size());
    if (array.bytes.empty())
      return Status::success();
    return backend.copyToHost(array.bytes.data(), buffers[i].get(),
                              array.bytes.size());
  }
  return Status::failure("--save " + name, "kernel '" + kernel.symbol +
                                               "' has no buffer argument '" +
                                               name + "'");
}

} // namespace mla::runtime
