//===- HipBackend.cpp - Run .hsaco modules through the HIP runtime --------===//
//
// libamdhip64 is loaded at run time and only the entry points below are
// used, declared here with the C types of hip_runtime_api.h; no HIP header
// is needed.
//
//===----------------------------------------------------------------------===//

#include "GpuSupport.h"
#include "mla/Runtime/AbiRecord.h"
#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"

#include <algorithm>
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
  HipError (*occupancyMaxActiveBlocksPerMultiprocessor)(int *, HipFunction,
                                                        int, size_t);
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

class HipBackend : public Backend {
public:
  HipBackend(std::unique_ptr<DynamicLibrary> library, const HipApi &api)
      : library(std::move(library)), api(api) {}

  ~HipBackend() override {
    for (HipEvent event : {startEvent, stopEvent})
      if (event)
        api.eventDestroy(event);
    for (HipEvent event : marks)
      api.eventDestroy(event);
    if (gate)
      api.hostFree(gate);
    if (module)
      api.moduleUnload(module);
  }

  const char *name() const override { return "hip"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = "gfx950 or gfx942";
    return target == "gfx950" || target == "gfx942";
  }

  int64_t parallelism(const KernelInfo &kernel) const override {
    int resident = 0;
    auto found = functions.find(kernel.symbol);
    if (found == functions.end() ||
        api.occupancyMaxActiveBlocksPerMultiprocessor(
            &resident, found->second,
            static_cast<int>(kernel.workgroupSize[0] * kernel.workgroupSize[1] *
                             kernel.workgroupSize[2]),
            static_cast<size_t>(kernel.dynamicLdsBytes)) != kHipSuccess)
      resident = 1;
    return computeUnitsOf(moduleTarget) * std::max(resident, 1);
  }

  Status allocate(size_t bytes, void *&pointer) override {
    return check(api.allocate(&pointer, bytes), "hipMalloc");
  }

  void release(void *pointer) override { api.deallocate(pointer); }

  Status copyToDevice(void *device, const void *host, size_t bytes) override {
    return check(api.copy(device, host, bytes, kHipMemcpyHostToDevice),
                 "hipMemcpy");
  }

  Status copyToHost(void *host, const void *device, size_t bytes) override {
    return check(api.copy(host, device, bytes, kHipMemcpyDeviceToHost),
                 "hipMemcpy");
  }

  Status loadModule(const std::string &path,
                    const Manifest &manifest) override {
    if (Status s = readBinaryFile(path, image))
      return s;
    HipModule loaded = nullptr;
    if (HipError error = api.moduleLoadData(&loaded, image.data()))
      return Status::failure(path, std::string("hipModuleLoadData: ") +
                                       api.getErrorString(error));
    std::unordered_map<std::string, HipFunction> resolved;
    for (const KernelInfo &kernel : manifest.kernels) {
      HipFunction function = nullptr;
      if (HipError error =
              api.moduleGetFunction(&function, loaded, kernel.symbol.c_str())) {
        api.moduleUnload(loaded);
        return Status::failure(
            path, "kernel '" + kernel.symbol +
                      "': hipModuleGetFunction: " + api.getErrorString(error));
      }
      resolved[kernel.symbol] = function;
    }
    if (Status s = checkRecord(loaded, path, manifest)) {
      api.moduleUnload(loaded);
      return s;
    }
    if (module)
      api.moduleUnload(module);
    module = loaded;
    functions = std::move(resolved);
    moduleTarget = manifest.target;
    return Status::success();
  }

  Status launch(const KernelInfo &kernel, const std::array<int64_t, 3> &grid,
                void **args) override {
    if (Status s = checkLaunchGrid(kernel, grid))
      return s;
    auto found = functions.find(kernel.symbol);
    if (found == functions.end())
      return Status::failure(kernel.symbol, "kernel not loaded");
    return check(
        api.moduleLaunchKernel(found->second, static_cast<unsigned>(grid[0]),
                               static_cast<unsigned>(grid[1]),
                               static_cast<unsigned>(grid[2]),
                               static_cast<unsigned>(kernel.workgroupSize[0]),
                               static_cast<unsigned>(kernel.workgroupSize[1]),
                               static_cast<unsigned>(kernel.workgroupSize[2]),
                               static_cast<unsigned>(kernel.dynamicLdsBytes),
                               nullptr, args, nullptr),
        "hipModuleLaunchKernel(" + kernel.symbol + ")");
  }

  Status synchronize() override {
    return check(api.deviceSynchronize(), "hipDeviceSynchronize");
  }

  Status startTimer() override {
    for (HipEvent *event : {&startEvent, &stopEvent}) {
      if (*event)
        continue;
      if (Status s = check(api.eventCreate(event), "hipEventCreate"))
        return s;
    }
    return check(api.eventRecord(startEvent, nullptr), "hipEventRecord");
  }

  Status stopTimer(double &microseconds) override {
    if (Status s = check(api.eventRecord(stopEvent, nullptr), "hipEventRecord"))
      return s;
    if (Status s =
            check(api.eventSynchronize(stopEvent), "hipEventSynchronize"))
      return s;
    float milliseconds = 0;
    if (Status s =
            check(api.eventElapsedTime(&milliseconds, startEvent, stopEvent),
                  "hipEventElapsedTime"))
      return s;
    microseconds = 1000.0 * milliseconds;
    return Status::success();
  }

  Status timeQueued(int64_t iterations, const std::function<Status()> &enqueue,
                    std::vector<double> &microseconds) override {
    if (!gate) {
      void *host = nullptr;
      if (Status s = check(api.hostMalloc(&host, sizeof(uint32_t),
                                          kHipHostMallocMapped),
                           "hipHostMalloc"))
        return s;
      gate = static_cast<uint32_t *>(host);
      if (Status s = check(api.hostGetDevicePointer(&deviceGate, host, 0),
                           "hipHostGetDevicePointer"))
        return s;
    }
    while (marks.size() < kQueuedCalls + 1) {
      HipEvent event = nullptr;
      if (Status s = check(api.eventCreate(&event), "hipEventCreate"))
        return s;
      marks.push_back(event);
    }
    QueuedTimer timer;
    timer.waitForGate = [&] {
      return check(api.streamWaitValue32(nullptr, deviceGate, 1,
                                         kHipStreamWaitValueGte, 0xFFFFFFFFu),
                   "hipStreamWaitValue32");
    };
    timer.mark = [&](int64_t i) {
      return check(api.eventRecord(marks[i], nullptr), "hipEventRecord");
    };
    timer.synchronize = [&](int64_t i) {
      return check(api.eventSynchronize(marks[i]), "hipEventSynchronize");
    };
    timer.elapsed = [&](int64_t from, int64_t to, float &milliseconds) {
      return check(api.eventElapsedTime(&milliseconds, marks[from], marks[to]),
                   "hipEventElapsedTime");
    };
    return timeQueuedCalls(gate, timer, iterations, enqueue, microseconds);
  }

private:
  /// Reads the ABI record global of `loaded`, the module at `path`, and
  /// checks `manifest` against it.
  Status checkRecord(HipModule loaded, const std::string &path,
                     const Manifest &manifest) {
    void *address = nullptr;
    size_t bytes = 0;
    HipError error =
        api.moduleGetGlobal(&address, &bytes, loaded, kAbiRecordSymbol);
    if (error == kHipErrorNotFound)
      return missingAbiRecord(path);
    if (error != kHipSuccess)
      return Status::failure(path, std::string("hipModuleGetGlobal: ") +
                                       api.getErrorString(error));
    if (bytes == 0 || bytes > kMaxAbiRecordBytes)
      return Status::failure(path,
                             formatString("ABI record of %zu bytes", bytes));
    std::string record(bytes, '\0');
    if (Status s = check(
            api.copy(record.data(), address, bytes, kHipMemcpyDeviceToHost),
            "hipMemcpy"))
      return s;
    return checkAbiRecord(record, path, manifest);
  }

  Status check(HipError error, const std::string &call) const {
    if (error == kHipSuccess)
      return Status::success();
    return Status::failure("--target hip",
                           call + ": " + api.getErrorString(error));
  }

  std::unique_ptr<DynamicLibrary> library;
  HipApi api;
  std::vector<char> image;
  HipModule module = nullptr;
  std::unordered_map<std::string, HipFunction> functions;
  std::string moduleTarget;
  HipEvent startEvent = nullptr;
  HipEvent stopEvent = nullptr;
  /// timeQueued's events and the host word its device-side wait reads.
  std::vector<HipEvent> marks;
  uint32_t *gate = nullptr;
  void *deviceGate = nullptr;
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
  backend = std::make_unique<HipBackend>(std::move(library), api);
  return Status::success();
}

} // namespace mla::runtime
