//===- Backend.cpp - Devices that run compiled modules --------------------===//

#include "mla/Runtime/Backend.h"

#include <algorithm>

namespace mla::runtime {

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

Status createBackend(const std::string &target, ThreadPool &pool,
                     std::unique_ptr<Backend> &backend) {
  if (target == "host") {
    backend = createHostBackend(pool);
    return Status::success();
  }
  if (target == "hip")
    return createHipBackend(backend);
  if (target == "cuda")
    return createCudaBackend(backend);
  return Status::failure("--target", "unknown target '" + target +
                                         "' (expected host, hip or cuda)");
}

} // namespace mla::runtime
