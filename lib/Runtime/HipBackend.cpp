//===- HipBackend.cpp - Run .hsaco modules through the HIP runtime --------===//
//
// libamdhip64 is loaded at run time and only the entry points below are
// used, declared here with the C types of hip_runtime_api.h; no HIP header
// is needed.
//
//===----------------------------------------------------------------------===//

#include "DriverBackend.h"
#include "GpuSupport.h"
#include "mla/Runtime/Manifest.h"

#include <unordered_map>

namespace mla::runtime {

namespace {

using HipError = int;
using HipModule = void *;
using HipFunction = void *;
using HipEvent = void *;
using HipStream = void *;

constexpr HipError kHipSuccess = 0;
constexpr HipError kHipErrorNotFound = 500;
/// hipMemcpyKind values.
constexpr int kHipMemcpyHostToDevice = 1;
constexpr int kHipMemcpyDeviceToHost = 2;
constexpr unsigned kHipHostMallocMapped = 0x2;
constexpr unsigned kHipStreamWaitValueGte = 0x0;

/// The HIP entry points the backend calls.
struct HipApi {
  HipError (*init)(unsigned);
  HipError (*getDeviceCount)(int *);
  HipError (*allocate)(void **, size_t);
  HipError (*deallocate)(void *);
  HipError (*copy)(void *, const void *, size_t, int);
  HipError (*moduleLoadData)(HipModule *, const void *);
  HipError (*moduleUnload)(HipModule);
  HipError (*moduleGetFunction)(HipFunction *, HipModule, const char *);
  HipError (*moduleGetGlobal)(void **, size_t *, HipModule, const char *);
  HipError (*moduleLaunchKernel)(HipFunction, unsigned, unsigned, unsigned,
                                 unsigned, unsigned, unsigned, unsigned,
                                 HipStream, void **, void **);
  HipError (*eventCreate)(HipEvent *);
  HipError (*eventDestroy)(HipEvent);
  HipError (*eventRecord)(HipEvent, HipStream);
  HipError (*eventSynchronize)(HipEvent);
  HipError (*eventElapsedTime)(float *, HipEvent, HipEvent);
  HipError (*deviceSynchronize)();
  HipError (*hostMalloc)(void **, size_t, unsigned);
  HipError (*hostFree)(void *);
  HipError (*hostGetDevicePointer)(void **, void *, unsigned);
  HipError (*streamWaitValue32)(HipStream, void *, uint32_t, unsigned,
                                uint32_t);
  HipError (*occupancyMaxActiveBlocksPerMultiprocessor)(int *, HipFunction, int,
                                                        size_t);
  const char *(*getErrorString)(HipError);
};

} // namespace

/// Compute units of the chips the compiler targets; the runtime reads no
/// device properties because their layout changed between ROCm releases.
static int64_t computeUnitsOf(const std::string &target) {
  if (target == "gfx942")
    return 304; // MI300X
  return 256;   // gfx950: MI355X
}

namespace {

/// HIP's calls for DriverBackend.
class HipDriver : public Driver {
public:
  HipDriver(std::unique_ptr<DynamicLibrary> library, const HipApi &api)
      : library(std::move(library)), api(api) {}

  const char *name() const override { return "hip"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = "gfx950 or gfx942";
    return target == "gfx950" || target == "gfx942";
  }

  const char *callName(DriverCall call) const override {
    // In DriverCall's order.
    static const char *const names[] = {
        "hipMalloc",
        "hipMemcpy",
        "hipMemcpy",
        "hipModuleLoadData",
        "hipModuleGetFunction",
        "hipModuleGetGlobal",
        "hipModuleLaunchKernel",
        "hipDeviceSynchronize",
        "hipEventCreate",
        "hipEventRecord",
        "hipEventSynchronize",
        "hipEventElapsedTime",
        "hipHostMalloc",
        "hipHostGetDevicePointer",
        "hipStreamWaitValue32",
    };
    static_assert(std::size(names) == kDriverCalls);
    return names[static_cast<int>(call)];
  }

  std::string describe(DriverStatus status) const override {
    return api.getErrorString(status);
  }

  bool isNotFound(DriverStatus status) const override {
    return status == kHipErrorNotFound;
  }

  int64_t processors(const std::string &target) const override {
    return computeUnitsOf(target);
  }

  DriverStatus allocate(void *&pointer, size_t bytes) override {
    return api.allocate(&pointer, bytes);
  }
  void release(void *pointer) override { api.deallocate(pointer); }
  DriverStatus copyToDevice(void *device, const void *host,
                            size_t bytes) override {
    return api.copy(device, host, bytes, kHipMemcpyHostToDevice);
  }
  DriverStatus copyToHost(void *host, const void *device,
                          size_t bytes) override {
    return api.copy(host, device, bytes, kHipMemcpyDeviceToHost);
  }

  /// HIP may read a module's image while it is loaded, so it is kept.
  DriverStatus loadModule(std::vector<char> &image, void *&module,
                          std::string &) override {
    DriverStatus status = api.moduleLoadData(&module, image.data());
    if (status == kHipSuccess)
      images[module] = std::move(image);
    return status;
  }
  void unloadModule(void *module) override {
    api.moduleUnload(module);
    images.erase(module);
  }
  DriverStatus getFunction(void *module, const KernelInfo &kernel,
                           void *&function) override {
    return api.moduleGetFunction(&function, module, kernel.symbol.c_str());
  }
  DriverStatus getGlobal(void *module, const char *symbol, void *&address,
                         size_t &bytes) override {
    return api.moduleGetGlobal(&address, &bytes, module, symbol);
  }

  DriverStatus residentBlocks(void *function, int threads, size_t sharedBytes,
                              int &blocks) override {
    return api.occupancyMaxActiveBlocksPerMultiprocessor(&blocks, function,
                                                         threads, sharedBytes);
  }
  DriverStatus launch(void *function, const std::array<unsigned, 3> &grid,
                      const std::array<unsigned, 3> &block,
                      unsigned sharedBytes, void **args) override {
    return api.moduleLaunchKernel(function, grid[0], grid[1], grid[2], block[0],
                                  block[1], block[2], sharedBytes, nullptr,
                                  args, nullptr);
  }
  DriverStatus synchronize() override { return api.deviceSynchronize(); }

  DriverStatus createEvent(void *&event) override {
    return api.eventCreate(&event);
  }
  void destroyEvent(void *event) override { api.eventDestroy(event); }
  DriverStatus recordEvent(void *event) override {
    return api.eventRecord(event, nullptr);
  }
  DriverStatus synchronizeEvent(void *event) override {
    return api.eventSynchronize(event);
  }
  DriverStatus elapsedTime(void *from, void *to, float &ms) override {
    return api.eventElapsedTime(&ms, from, to);
  }

  DriverStatus allocateMapped(void *&host, size_t bytes) override {
    return api.hostMalloc(&host, bytes, kHipHostMallocMapped);
  }
  void releaseMapped(void *host) override { api.hostFree(host); }
  DriverStatus mappedPointer(void *host, void *&device) override {
    return api.hostGetDevicePointer(&device, host, 0);
  }
  DriverStatus waitValue(void *device, uint32_t value) override {
    return api.streamWaitValue32(nullptr, device, value, kHipStreamWaitValueGte,
                                 0xFFFFFFFFu);
  }

private:
  std::unique_ptr<DynamicLibrary> library;
  HipApi api;
  std::unordered_map<void *, std::vector<char>> images;
};

} // namespace

Status createHipBackend(std::unique_ptr<Backend> &backend) {
  auto library = std::make_unique<DynamicLibrary>();
  if (!library->open(
          {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"}))
    return Status::failure("--target hip",
                           "libamdhip64.so not found (no ROCm HIP runtime on "
                           "this machine)");
  HipApi api;
  const char *missing = nullptr;
  auto bind = [&](const char *symbol, auto &function) {
    if (!library->resolve(symbol, function) && !missing)
      missing = symbol;
  };
  bind("hipInit", api.init);
  bind("hipGetDeviceCount", api.getDeviceCount);
  bind("hipMalloc", api.allocate);
  bind("hipFree", api.deallocate);
  bind("hipMemcpy", api.copy);
  bind("hipModuleLoadData", api.moduleLoadData);
  bind("hipModuleUnload", api.moduleUnload);
  bind("hipModuleGetFunction", api.moduleGetFunction);
  bind("hipModuleGetGlobal", api.moduleGetGlobal);
  bind("hipModuleLaunchKernel", api.moduleLaunchKernel);
  bind("hipEventCreate", api.eventCreate);
  bind("hipEventDestroy", api.eventDestroy);
  bind("hipEventRecord", api.eventRecord);
  bind("hipEventSynchronize", api.eventSynchronize);
  bind("hipEventElapsedTime", api.eventElapsedTime);
  bind("hipDeviceSynchronize", api.deviceSynchronize);
  bind("hipGetErrorString", api.getErrorString);
  bind("hipHostMalloc", api.hostMalloc);
  bind("hipHostFree", api.hostFree);
  bind("hipHostGetDevicePointer", api.hostGetDevicePointer);
  bind("hipStreamWaitValue32", api.streamWaitValue32);
  bind("hipModuleOccupancyMaxActiveBlocksPerMultiprocessor",
       api.occupancyMaxActiveBlocksPerMultiprocessor);
  if (missing)
    return Status::failure("--target hip",
                           library->fileName() + " lacks " + missing);

  if (HipError error = api.init(0))
    return Status::failure("--target hip",
                           std::string("no usable AMD GPU (hipInit: ") +
                               api.getErrorString(error) + ")");
  int count = 0;
  if (HipError error = api.getDeviceCount(&count))
    return Status::failure(
        "--target hip", std::string("no usable AMD GPU (hipGetDeviceCount: ") +
                            api.getErrorString(error) + ")");
  if (count == 0)
    return Status::failure("--target hip", "no AMD GPU found");
  backend =
      createDriverBackend(std::make_unique<HipDriver>(std::move(library), api));
  return Status::success();
}

} // namespace mla::runtime
