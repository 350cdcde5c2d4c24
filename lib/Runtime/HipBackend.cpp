//===- HipBackend.cpp - Run .hsaco modules through the HIP runtime --------===//
//
// libamdhip64 is loaded at run time and only the entry points below are
// used, declared here with the C types of hip_runtime_api.h; no HIP header
// is needed.
//
//===----------------------------------------------------------------------===//

#include "DriverBackend.h"
#include "mla/Support/Chips.h"

namespace mla::runtime {

namespace {

using HipError = int;
using HipModule = void *;
using HipEvent = void *;
using HipStream = void *;

/// hipMemcpyKind values.
constexpr int kHipMemcpyHostToDevice = 1;
constexpr int kHipMemcpyDeviceToHost = 2;
constexpr unsigned kHipStreamWaitValueGte = 0x0;

/// The HIP entry points whose shape is HIP's own.
struct HipApi {
  HipError (*init)(unsigned);
  HipError (*getDeviceCount)(int *);
  HipError (*copy)(void *, const void *, size_t, int);
  HipError (*moduleLoadData)(HipModule *, const void *);
  HipError (*eventCreate)(HipEvent *);
  HipError (*streamWaitValue32)(HipStream, void *, uint32_t, unsigned,
                                uint32_t);
  const char *(*getErrorString)(HipError);
};

/// What DriverBackend needs of HIP beyond the shared entry points.
class HipDriver : public Driver {
public:
  HipDriver(std::unique_ptr<DynamicLibrary> library, const DriverApi &api,
            const HipApi &hip)
      : Driver(std::move(library), api), hip(hip) {}

  const char *name() const override { return "hip"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = listChips([](const Chip &chip) { return chip.isAMD(); });
    const Chip *chip = lookupChip(target);
    return chip && chip->isAMD();
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
    return hip.getErrorString(status);
  }

  int64_t processors(const std::string &target) const override {
    // The chip table's count: HIP's device property layout varies across
    // ROCm releases, so the runtime reads none.
    const Chip *chip = lookupChip(target);
    return chip ? chip->computeUnits : 1;
  }

  DriverStatus copyToDevice(void *device, const void *host,
                            size_t bytes) override {
    return hip.copy(device, host, bytes, kHipMemcpyHostToDevice);
  }
  DriverStatus copyToHost(void *host, const void *device,
                          size_t bytes) override {
    return hip.copy(host, device, bytes, kHipMemcpyDeviceToHost);
  }
  DriverStatus loadModule(llvm::StringRef image, void *&module,
                          std::string &) override {
    return hip.moduleLoadData(&module, image.data());
  }
  DriverStatus createEvent(void *&event) override {
    return hip.eventCreate(&event);
  }
  DriverStatus waitValue(void *device, uint32_t value) override {
    return hip.streamWaitValue32(nullptr, device, value, kHipStreamWaitValueGte,
                                 0xFFFFFFFFu);
  }

private:
  HipApi hip;
};

} // namespace

Status createHipBackend(std::unique_ptr<Backend> &backend) {
  auto library = std::make_unique<DynamicLibrary>();
  if (!library->open(
          {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"}))
    return Status::failure("--target hip",
                           "libamdhip64.so not found (no ROCm HIP runtime on "
                           "this machine)");
  DriverApi api;
  HipApi hip;
  library->bind("hipInit", hip.init);
  library->bind("hipGetDeviceCount", hip.getDeviceCount);
  library->bind("hipMalloc", api.malloc);
  library->bind("hipFree", api.free);
  library->bind("hipMemcpy", hip.copy);
  library->bind("hipModuleLoadData", hip.moduleLoadData);
  library->bind("hipModuleUnload", api.moduleUnload);
  library->bind("hipModuleGetFunction", api.moduleGetFunction);
  library->bind("hipModuleGetGlobal", api.moduleGetGlobal);
  library->bind("hipModuleLaunchKernel", api.launchKernel);
  library->bind("hipEventCreate", hip.eventCreate);
  library->bind("hipEventDestroy", api.eventDestroy);
  library->bind("hipEventRecord", api.eventRecord);
  library->bind("hipEventSynchronize", api.eventSynchronize);
  library->bind("hipEventElapsedTime", api.eventElapsedTime);
  library->bind("hipDeviceSynchronize", api.synchronize);
  library->bind("hipGetErrorString", hip.getErrorString);
  library->bind("hipHostMalloc", api.hostAlloc);
  library->bind("hipHostFree", api.hostFree);
  library->bind("hipHostGetDevicePointer", api.hostGetDevicePointer);
  library->bind("hipStreamWaitValue32", hip.streamWaitValue32);
  library->bind("hipModuleOccupancyMaxActiveBlocksPerMultiprocessor",
                api.occupancyMaxActiveBlocksPerMultiprocessor);
  if (Status s = library->checkBound("--target hip"))
    return s;

  if (HipError error = hip.init(0))
    return Status::failure("--target hip",
                           std::string("no usable AMD GPU (hipInit: ") +
                               hip.getErrorString(error) + ")");
  int count = 0;
  if (HipError error = hip.getDeviceCount(&count))
    return Status::failure(
        "--target hip", std::string("no usable AMD GPU (hipGetDeviceCount: ") +
                            hip.getErrorString(error) + ")");
  if (count == 0)
    return Status::failure("--target hip", "no AMD GPU found");
  backend = createDriverBackend(
      std::make_unique<HipDriver>(std::move(library), api, hip));
  return Status::success();
}

} // namespace mla::runtime
