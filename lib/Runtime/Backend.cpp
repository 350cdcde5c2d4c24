//===- Backend.cpp - Devices that run compiled modules --------------------===//

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <vector>

namespace mla::runtime {

Status checkLaunchGrid(const KernelInfo &kernel,
                       const std::array<int64_t, 3> &grid) {
  for (int d = 0; d < 3; ++d) {
    int64_t limit = d == 0 ? kMaxGridX : kMaxGridYZ;
    if (grid[d] < 1 || grid[d] > limit)
      return Status::failure(
          kernel.symbol,
          llvm::formatv("grid dimension {0} is {1}, expected 1..{2}", "xyz"[d],
                        grid[d], limit));
  }
  return Status::success();
}

Backend::~Backend() = default;

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    owner = other.owner;
    pointer = other.pointer;
    bytes = other.bytes;
    other.owner = nullptr;
    other.pointer = nullptr;
    other.bytes = 0;
  }
  return *this;
}

Status DeviceBuffer::allocate(Backend &backend, size_t size) {
  reset();
  size = std::max<size_t>(size, 1);
  if (Status s = backend.allocate(size, pointer))
    return s;
  owner = &backend;
  bytes = size;
  return Status::success();
}

void DeviceBuffer::reset() {
  if (owner && pointer)
    owner->release(pointer);
  owner = nullptr;
  pointer = nullptr;
  bytes = 0;
}

Status createBackend(const std::string &target, llvm::ThreadPoolInterface &pool,
                     std::unique_ptr<Backend> &backend) {
  if (target == "host") {
    backend = createHostBackend(pool);
    return Status::success();
  }
  if (target == "hip")
    return createHipBackend(backend);
  if (target == "cuda")
    return createCudaBackend(backend);
  if (target == "emu") {
    backend = createEmuBackend(pool);
    return Status::success();
  }
  return Status::failure("--target", "unknown target '" + target +
                                         "' (expected host, hip, cuda or "
                                         "emu)");
}

Status Backend::timeQueued(int64_t iterations,
                           const std::function<Status()> &enqueue,
                           std::vector<double> &microseconds) {
  microseconds.clear();
  for (int64_t i = 0; i < iterations; ++i) {
    double time = 0;
    if (Status s = startTimer())
      return s;
    if (Status s = enqueue())
      return s;
    if (Status s = stopTimer(time))
      return s;
    microseconds.push_back(time);
  }
  return Status::success();
}

double median(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  if (n == 0)
    return 0;
  return n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
}

Status benchmarkLaunches(Backend &backend, int64_t warmup, int64_t iterations,
                         const std::function<Status()> &launch,
                         double &medianMicroseconds) {
  for (int64_t i = 0; i < warmup; ++i)
    if (Status s = launch())
      return s;
  if (Status s = backend.synchronize())
    return s;
  std::vector<double> times;
  if (Status s = backend.timeQueued(iterations, launch, times))
    return s;
  medianMicroseconds = median(std::move(times));
  return Status::success();
}

} // namespace mla::runtime
