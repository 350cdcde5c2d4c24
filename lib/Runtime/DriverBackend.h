//===- DriverBackend.h - A GPU backend over a driver's calls ----*- C++ -*-===//
//
// HIP and CUDA load modules, launch kernels and time them the same way,
// through entry points most of which have the same shape in both. Each
// fills a `DriverApi` table with those and implements `Driver` for the few
// that differ; `createDriverBackend` builds the one Backend on top.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_RUNTIME_DRIVERBACKEND_H
#define MLA_LIB_RUNTIME_DRIVERBACKEND_H

#include "GpuSupport.h"
#include "mla/Runtime/Backend.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mla::runtime {

struct KernelInfo;

/// A driver status: 0 is success, anything else the driver's error code.
using DriverStatus = int;

/// The calls a Backend makes, which each driver names in its messages.
enum class DriverCall {
  Allocate,
  CopyToDevice,
  CopyToHost,
  LoadModule,
  GetFunction,
  GetGlobal,
  Launch,
  Synchronize,
  CreateEvent,
  RecordEvent,
  SynchronizeEvent,
  ElapsedTime,
  AllocateMapped,
  MappedPointer,
  WaitValue,
};
constexpr size_t kDriverCalls = static_cast<size_t>(DriverCall::WaitValue) + 1;

/// hipErrorNotFound and CUDA_ERROR_NOT_FOUND: a module lacks a symbol.
constexpr DriverStatus kDriverNotFound = 500;

/// hipHostMallocMapped and CU_MEMHOSTALLOC_DEVICEMAP: host memory the device
/// reads.
constexpr unsigned kHostAllocMapped = 0x2;

/// The entry points that HIP and CUDA declare alike (hipMalloc and
/// cuMemAlloc, hipModuleLaunchKernel and cuLaunchKernel, ...), used on
/// device 0 and its default (null) stream. Device addresses are void *:
/// CUDA's CUdeviceptr is a 64-bit integer, which the 64-bit ABIs pass and
/// store as they do a pointer.
struct DriverApi {
  DriverStatus (*malloc)(void **, size_t);
  DriverStatus (*free)(void *);
  DriverStatus (*moduleUnload)(void *);
  DriverStatus (*moduleGetFunction)(void **, void *, const char *);
  DriverStatus (*moduleGetGlobal)(void **, size_t *, void *, const char *);
  DriverStatus (*occupancyMaxActiveBlocksPerMultiprocessor)(int *, void *, int,
                                                            size_t);
  DriverStatus (*launchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, unsigned, void *, void **,
                               void **);
  DriverStatus (*synchronize)();
  DriverStatus (*eventDestroy)(void *);
  DriverStatus (*eventRecord)(void *, void *);
  DriverStatus (*eventSynchronize)(void *);
  DriverStatus (*eventElapsedTime)(float *, void *, void *);
  /// Host memory: hipHostMalloc and cuMemHostAlloc.
  DriverStatus (*hostAlloc)(void **, size_t, unsigned);
  DriverStatus (*hostFree)(void *);
  DriverStatus (*hostGetDevicePointer)(void **, void *, unsigned);
};

/// A GPU driver: its shared entry points in `api`, and what differs
/// between HIP and CUDA.
class Driver {
public:
  Driver(std::unique_ptr<DynamicLibrary> library, const DriverApi &api)
      : api(api), library(std::move(library)) {}
  virtual ~Driver();

  /// The --target name: hip or cuda.
  virtual const char *name() const = 0;
  /// As Backend::acceptsTarget.
  virtual bool acceptsTarget(const std::string &target,
                             std::string &expected) const = 0;
  /// The entry point behind `call`, for messages (e.g. "hipMalloc").
  virtual const char *callName(DriverCall call) const = 0;
  /// The driver's text for a failed `status`.
  virtual std::string describe(DriverStatus status) const = 0;
  /// Compute units or multiprocessors that run modules of `target`.
  virtual int64_t processors(const std::string &target) const = 0;
  virtual DriverStatus copyToDevice(void *device, const void *host,
                                    size_t bytes) = 0;
  virtual DriverStatus copyToHost(void *host, const void *device,
                                  size_t bytes) = 0;
  /// Loads the code object `image`, which stays alive while the module is
  /// loaded and is followed by a NUL byte; `detail` may add what the driver
  /// logged.
  virtual DriverStatus loadModule(llvm::StringRef image, void *&module,
                                  std::string &detail) = 0;
  /// Readies `function`, just got, for `kernel`'s dynamic shared memory.
  virtual DriverStatus prepareFunction(void *function,
                                       const KernelInfo &kernel) {
    return 0;
  }
  virtual DriverStatus createEvent(void *&event) = 0;
  /// Enqueues a wait until the 32-bit word at `device` is at least `value`.
  virtual DriverStatus waitValue(void *device, uint32_t value) = 0;

  const DriverApi api;

private:
  /// The library `api` points into.
  std::unique_ptr<DynamicLibrary> library;
};

/// The Backend that runs modules through `driver`.
std::unique_ptr<Backend> createDriverBackend(std::unique_ptr<Driver> driver);

} // namespace mla::runtime

#endif // MLA_LIB_RUNTIME_DRIVERBACKEND_H
