//===- HostBackend.cpp - Run host modules on a thread pool ----------------===//
//
// A host module is a shared object; each kernel is
//   void SYMBOL(void **args, const int64_t program_id[3],
//               const int64_t num_programs[3])
// called once per program instance. "Device memory" is host memory.
//
//===----------------------------------------------------------------------===//

#include "SharedObject.h"
#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/Parallel.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

namespace mla::runtime {

namespace {

using HostKernel = void (*)(void **args, const int64_t programId[3],
                            const int64_t numPrograms[3]);

class HostBackend : public Backend {
public:
  explicit HostBackend(llvm::ThreadPoolInterface &pool) : pool(pool) {}

  const char *name() const override { return "host"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = "host";
    return target == "host";
  }

  int64_t parallelism(const KernelInfo &) const override {
    return pool.getMaxConcurrency();
  }

  Status allocate(size_t bytes, void *&pointer) override {
    // Cache-line alignment, as a GPU allocator would give at least.
    constexpr size_t kAlignment = 64;
    size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    pointer = std::aligned_alloc(kAlignment, rounded);
    if (!pointer)
      return Status::failure(
          "--target host",
          formatString("cannot allocate %zu bytes of memory", bytes));
    return Status::success();
  }

  void release(void *pointer) override { std::free(pointer); }

  Status copyToDevice(void *device, const void *host, size_t bytes) override {
    std::memcpy(device, host, bytes);
    return Status::success();
  }

  Status copyToHost(void *host, const void *device, size_t bytes) override {
    std::memcpy(host, device, bytes);
    return Status::success();
  }

  Status loadModule(const std::string &path,
                    const Manifest &manifest) override {
    std::unique_ptr<SharedObject> object;
    if (Status s = SharedObject::open(path, object))
      return s;
    std::unordered_map<std::string, HostKernel> resolved;
    for (const KernelInfo &kernel : manifest.kernels) {
      void *address;
      if (Status s = object->lookupKernel(kernel.symbol, manifest, address))
        return s;
      resolved[kernel.symbol] = reinterpret_cast<HostKernel>(address);
    }
    if (Status s = object->checkAbiRecord(manifest))
      return s;
    kernels = std::move(resolved);
    library = std::move(object);
    return Status::success();
  }

  Status launch(const KernelInfo &kernel, const std::array<int64_t, 3> &grid,
                void **args) override {
    if (Status s = checkLaunchGrid(kernel, grid))
      return s;
    auto found = kernels.find(kernel.symbol);
    if (found == kernels.end())
      return Status::failure(kernel.symbol, "kernel not loaded");
    HostKernel function = found->second;
    const int64_t numPrograms[3] = {grid[0], grid[1], grid[2]};
    parallelFor(pool, grid[0] * grid[1] * grid[2], [&](int64_t linear) {
      // x varies fastest, as on a GPU.
      const int64_t programId[3] = {linear % grid[0],
                                    linear / grid[0] % grid[1],
                                    linear / (grid[0] * grid[1])};
      function(args, programId, numPrograms);
    });
    return Status::success();
  }

  Status synchronize() override { return Status::success(); }

  Status startTimer() override {
    timerStart = std::chrono::steady_clock::now();
    return Status::success();
  }

  Status stopTimer(double &microseconds) override {
    microseconds = std::chrono::duration<double, std::micro>(
                       std::chrono::steady_clock::now() - timerStart)
                       .count();
    return Status::success();
  }

private:
  llvm::ThreadPoolInterface &pool;
  std::unique_ptr<SharedObject> library;
  std::unordered_map<std::string, HostKernel> kernels;
  std::chrono::steady_clock::time_point timerStart;
};

} // namespace

std::unique_ptr<Backend> createHostBackend(llvm::ThreadPoolInterface &pool) {
  return std::make_unique<HostBackend>(pool);
}

} // namespace mla::runtime
