//===- BackendSupport.cpp - Pieces the backends share ---------------------===//

#include "BackendSupport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <cstdlib>
#include <cstring>

namespace mla::runtime {

int64_t HostMemoryBackend::parallelism(const KernelInfo &) const {
  return pool.getMaxConcurrency();
}

Status HostMemoryBackend::allocate(size_t bytes, void *&pointer) {
  // Cache-line alignment, as a GPU allocator would give at least, and the
  // most a kernel's requirement may ask of a pointer.
  constexpr size_t kAlignment = 64;
  static_assert(kAlignment % kMaxPointerAlignment == 0);
  size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  pointer = std::aligned_alloc(kAlignment, rounded);
  if (!pointer)
    return Status::failure(
        std::string("--target ") + name(),
        llvm::formatv("cannot allocate {0} bytes of memory", bytes));
  return Status::success();
}

void HostMemoryBackend::release(void *pointer) { std::free(pointer); }

Status HostMemoryBackend::copyToDevice(void *device, const void *host,
                                       size_t bytes) {
  std::memcpy(device, host, bytes);
  return Status::success();
}

Status HostMemoryBackend::copyToHost(void *host, const void *device,
                                     size_t bytes) {
  std::memcpy(host, device, bytes);
  return Status::success();
}

Status HostMemoryBackend::startTimer() {
  timerStart = std::chrono::steady_clock::now();
  return Status::success();
}

Status HostMemoryBackend::stopTimer(double &microseconds) {
  microseconds = std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - timerStart)
                     .count();
  return Status::success();
}

} // namespace mla::runtime
