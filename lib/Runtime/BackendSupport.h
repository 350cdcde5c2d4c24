//===- BackendSupport.h - Pieces the backends share -------------*- C++ -*-===//
//
// Every backend finds a launched kernel the same way; the host and
// emulation backends, whose device memory is host memory and whose launches
// run to completion, also share their memory and timer.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_RUNTIME_BACKENDSUPPORT_H
#define MLA_LIB_RUNTIME_BACKENDSUPPORT_H

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"

#include <chrono>
#include <string>
#include <unordered_map>

namespace mla::runtime {

/// Checks `grid` and sets `function` to `kernel`'s entry in `loaded`, the
/// loaded module's kernels by symbol; errors name the kernel.
template <typename Function>
Status findLaunched(const std::unordered_map<std::string, Function> &loaded,
                    const KernelInfo &kernel,
                    const std::array<int64_t, 3> &grid, Function &function) {
  if (Status s = checkLaunchGrid(kernel, grid))
    return s;
  auto found = loaded.find(kernel.symbol);
  if (found == loaded.end())
    return Status::failure(kernel.symbol, "kernel not loaded");
  function = found->second;
  return Status::success();
}

/// A backend whose device memory is host memory, running each launch on
/// `pool` before it returns.
class HostMemoryBackend : public Backend {
public:
  explicit HostMemoryBackend(llvm::ThreadPoolInterface &pool) : pool(pool) {}

  int64_t parallelism(const KernelInfo &kernel) const override;
  Status allocate(size_t bytes, void *&pointer) override;
  void release(void *pointer) override;
  Status copyToDevice(void *device, const void *host, size_t bytes) override;
  Status copyToHost(void *host, const void *device, size_t bytes) override;
  Status synchronize() override { return Status::success(); }
  Status startTimer() override;
  Status stopTimer(double &microseconds) override;

protected:
  llvm::ThreadPoolInterface &pool;

private:
  std::chrono::steady_clock::time_point timerStart;
};

} // namespace mla::runtime

#endif // MLA_LIB_RUNTIME_BACKENDSUPPORT_H
