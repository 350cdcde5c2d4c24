//===- DriverBackend.h - A GPU backend over a driver's calls ----*- C++ -*-===//
//
// HIP and CUDA load modules, launch kernels and time them the same way;
// they differ in their entry points. Each implements `Driver`, the calls
// in one shape, and `createDriverBackend` builds the one Backend on top.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_RUNTIME_DRIVERBACKEND_H
#define MLA_LIB_RUNTIME_DRIVERBACKEND_H

#include "mla/Runtime/Backend.h"

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

/// One GPU driver's entry points, on device 0 and its default stream.
class Driver {
public:
  virtual ~Driver() = default;

  /// The --target name: hip or cuda.
  virtual const char *name() const = 0;
  /// As Backend::acceptsTarget.
  virtual bool acceptsTarget(const std::string &target,
                             std::string &expected) const = 0;
  /// The entry point behind `call`, for messages (e.g. "hipMalloc").
  virtual const char *callName(DriverCall call) const = 0;
  /// The driver's text for a failed `status`.
  virtual std::string describe(DriverStatus status) const = 0;
  /// Whether `status` says that a symbol was not found.
  virtual bool isNotFound(DriverStatus status) const = 0;
  /// Compute units or multiprocessors that run modules of `target`.
  virtual int64_t processors(const std::string &target) const = 0;

  virtual DriverStatus allocate(void *&pointer, size_t bytes) = 0;
  virtual void release(void *pointer) = 0;
  virtual DriverStatus copyToDevice(void *device, const void *host,
                                    size_t bytes) = 0;
  virtual DriverStatus copyToHost(void *host, const void *device,
                                  size_t bytes) = 0;

  /// Loads the code object `image` (which the driver may append to);
  /// `detail` may add what the driver logged.
  virtual DriverStatus loadModule(std::vector<char> &image, void *&module,
                                  std::string &detail) = 0;
  virtual void unloadModule(void *module) = 0;
  /// The function of `kernel`, ready for its dynamic shared memory.
  virtual DriverStatus getFunction(void *module, const KernelInfo &kernel,
                                   void *&function) = 0;
  virtual DriverStatus getGlobal(void *module, const char *symbol,
                                 void *&address, size_t &bytes) = 0;
  /// Blocks of `threads` threads and `sharedBytes` dynamic shared memory
  /// that one processor runs at once.
  virtual DriverStatus residentBlocks(void *function, int threads,
                                      size_t sharedBytes, int &blocks) = 0;
  virtual DriverStatus launch(void *function,
                              const std::array<unsigned, 3> &grid,
                              const std::array<unsigned, 3> &block,
                              unsigned sharedBytes, void **args) = 0;
  virtual DriverStatus synchronize() = 0;

  virtual DriverStatus createEvent(void *&event) = 0;
  virtual void destroyEvent(void *event) = 0;
  virtual DriverStatus recordEvent(void *event) = 0;
  virtual DriverStatus synchronizeEvent(void *event) = 0;
  virtual DriverStatus elapsedTime(void *from, void *to,
                                   float &milliseconds) = 0;

  /// Host memory the device reads, and the address the device reads it at.
  virtual DriverStatus allocateMapped(void *&host, size_t bytes) = 0;
  virtual void releaseMapped(void *host) = 0;
  virtual DriverStatus mappedPointer(void *host, void *&device) = 0;
  /// Enqueues a wait until the 32-bit word at `device` is at least `value`.
  virtual DriverStatus waitValue(void *device, uint32_t value) = 0;
};

/// The Backend that runs modules through `driver`.
std::unique_ptr<Backend> createDriverBackend(std::unique_ptr<Driver> driver);

} // namespace mla::runtime

#endif // MLA_LIB_RUNTIME_DRIVERBACKEND_H
