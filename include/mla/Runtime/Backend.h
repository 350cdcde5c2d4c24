//===- Backend.h - Devices that run compiled modules ------------*- C++ -*-===//
//
// One small interface over the host (a shared object run on a thread pool),
// HIP and CUDA. The GPU runtimes are loaded with dlopen, so mla-run builds
// and starts on machines that have neither.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_BACKEND_H
#define MLA_RUNTIME_BACKEND_H

#include "mla/Runtime/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace mla::runtime {

struct KernelInfo;
struct Manifest;

/// The largest grid: CUDA and HIP cap x at 2^31 - 1, y and z at 65535.
constexpr int64_t kMaxGridX = 0x7FFFFFFF;
constexpr int64_t kMaxGridYZ = 65535;

/// Fails unless every dimension of `grid` is in [1, the limit above]:
/// every backend's launch checks, so that grid arithmetic cannot overflow
/// and no count is truncated on its way to a driver.
Status checkLaunchGrid(const KernelInfo &kernel,
                       const std::array<int64_t, 3> &grid);

/// A device, its memory, and the module loaded on it.
class Backend {
public:
  virtual ~Backend();

  /// The --target name: host, hip, cuda or emu.
  virtual const char *name() const = 0;
  /// Whether modules compiled for manifest target `target` run here; when
  /// not, `expected` describes the targets that do.
  virtual bool acceptsTarget(const std::string &target,
                             std::string &expected) const = 0;
  /// Programs of `kernel` (of the loaded module) the device runs at once,
  /// for the split-KV plan.
  virtual int64_t parallelism(const KernelInfo &kernel) const = 0;

  /// Device memory. Pointers are device addresses, passed to kernels as is.
  virtual Status allocate(size_t bytes, void *&pointer) = 0;
  virtual void release(void *pointer) = 0;
  virtual Status copyToDevice(void *device, const void *host, size_t bytes) = 0;
  virtual Status copyToHost(void *host, const void *device, size_t bytes) = 0;

  /// Loads the binary at `path`, whose manifest is `manifest`, and resolves
  /// every kernel the manifest lists.
  virtual Status loadModule(const std::string &path,
                            const Manifest &manifest) = 0;
  /// Launches `kernel` of the loaded module over `grid` programs with the
  /// argument array of docs/ABI.md. May return before the kernel finishes.
  virtual Status launch(const KernelInfo &kernel,
                        const std::array<int64_t, 3> &grid, void **args) = 0;
  /// Waits for all launched work.
  virtual Status synchronize() = 0;

  /// Marks the start of a timed region in the launch stream.
  virtual Status startTimer() = 0;
  /// Marks its end, waits for it, and returns the time between the marks.
  virtual Status stopTimer(double &microseconds) = 0;

  /// Times `iterations` calls of `enqueue`, which only enqueues work, as the
  /// device runs them back to back, and returns each call's time. A GPU
  /// backend queues the calls, each between two timer marks, behind one
  /// device-side wait that it releases once they are all queued, so that no
  /// host round trip or launch latency falls inside a call's time. The
  /// default times each call on its own with startTimer and stopTimer, as
  /// a backend that runs work when it is launched must.
  virtual Status timeQueued(int64_t iterations,
                            const std::function<Status()> &enqueue,
                            std::vector<double> &microseconds);
};

/// Device memory owned by a Backend, released on destruction.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&other) noexcept { *this = std::move(other); }
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  ~DeviceBuffer() { reset(); }

  /// Allocates `bytes` (at least one, so every buffer has an address).
  Status allocate(Backend &backend, size_t bytes);
  void reset();

  void *get() const { return pointer; }
  size_t size() const { return bytes; }

private:
  Backend *owner = nullptr;
  void *pointer = nullptr;
  size_t bytes = 0;
};

/// The host backend: runs program instances on `pool`, which must outlive
/// it.
std::unique_ptr<Backend> createHostBackend(llvm::ThreadPoolInterface &pool);
/// The emulation backend: runs modules compiled for gfx950-emu or gfx942-emu
/// (emulated AMD code, see docs/emulation.md) on `pool`, which must outlive
/// it.
std::unique_ptr<Backend> createEmuBackend(llvm::ThreadPoolInterface &pool);
/// The HIP backend on device 0. Fails with one line when libamdhip64 or an
/// AMD GPU is missing.
Status createHipBackend(std::unique_ptr<Backend> &backend);
/// The CUDA backend on device 0. Fails with one line when libcuda or an
/// NVIDIA GPU is missing.
Status createCudaBackend(std::unique_ptr<Backend> &backend);

/// The backend named by --target (host, hip, cuda or emu); the host and emu
/// backends run on `pool`.
Status createBackend(const std::string &target, llvm::ThreadPoolInterface &pool,
                     std::unique_ptr<Backend> &backend);

/// The median of `times` (0 when empty).
double median(std::vector<double> times);

/// Calls `launch` `warmup` times untimed, waits, then times `iterations`
/// calls queued back to back (Backend::timeQueued); returns their median.
Status benchmarkLaunches(Backend &backend, int64_t warmup, int64_t iterations,
                         const std::function<Status()> &launch,
                         double &medianMicroseconds);

} // namespace mla::runtime

#endif // MLA_RUNTIME_BACKEND_H
