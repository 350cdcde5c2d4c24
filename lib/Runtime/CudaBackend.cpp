//===- CudaBackend.cpp - Run PTX/cubin modules through the driver API -----===//
//
// libcuda.so.1 (the driver, not the toolkit) is loaded at run time and only
// the entry points below are used, declared here with the C types of
// cuda.h; no CUDA header is needed.
//
//===----------------------------------------------------------------------===//

#include "GpuSupport.h"
#include "mla/Runtime/AbiRecord.h"
#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace mla::runtime {

namespace {

using CuResult = int;
using CuDevice = int;
using CuDevicePtr = unsigned long long;
using CuContext = void *;
using CuModule = void *;
using CuFunction = void *;
using CuEvent = void *;
using CuStream = void *;

constexpr CuResult kCudaSuccess = 0;
constexpr CuResult kCudaErrorNoDevice = 100;
constexpr CuResult kCudaErrorNotFound = 500;
constexpr int kAttributeMultiprocessorCount = 16;
constexpr int kFuncAttributeMaxDynamicSharedBytes = 8;
constexpr unsigned kMemHostAllocDeviceMap = 0x02;
constexpr unsigned kStreamWaitValueGeq = 0x0;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
/// Dynamic shared memory a launch gets without opting in.
constexpr int64_t kDefaultSharedLimit = 48 * 1024;


/// The driver entry points the backend calls.
struct CudaApi {
  CuResult (*init)(unsigned);
  CuResult (*deviceGetCount)(int *);
  CuResult (*deviceGet)(CuDevice *, int);
  CuResult (*deviceGetAttribute)(int *, int, CuDevice);
  CuResult (*primaryCtxRetain)(CuContext *, CuDevice);
  CuResult (*primaryCtxRelease)(CuDevice);
  CuResult (*ctxSetCurrent)(CuContext);
  CuResult (*ctxSynchronize)();
  CuResult (*memAlloc)(CuDevicePtr *, size_t);
  CuResult (*memFree)(CuDevicePtr);
  CuResult (*memcpyHtoD)(CuDevicePtr, const void *, size_t);
  CuResult (*memcpyDtoH)(void *, CuDevicePtr, size_t);
  CuResult (*moduleLoadDataEx)(CuModule *, const void *, unsigned, int *,
                               void **);
  CuResult (*moduleUnload)(CuModule);
  CuResult (*moduleGetFunction)(CuFunction *, CuModule, const char *);
  CuResult (*moduleGetGlobal)(CuDevicePtr *, size_t *, CuModule, const char *);
  CuResult (*funcSetAttribute)(CuFunction, int, int);
  CuResult (*occupancyMaxActiveBlocksPerMultiprocessor)(int *, CuFunction, int,
                                                        size_t);
  CuResult (*launchKernel)(CuFunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CuStream, void **,
                           void **);
  CuResult (*eventCreate)(CuEvent *, unsigned);
  CuResult (*eventDestroy)(CuEvent);
  CuResult (*eventRecord)(CuEvent, CuStream);
  CuResult (*eventSynchronize)(CuEvent);
  CuResult (*eventElapsedTime)(float *, CuEvent, CuEvent);
  CuResult (*memHostAlloc)(void **, size_t, unsigned);
  CuResult (*memFreeHost)(void *);
  CuResult (*memHostGetDevicePointer)(CuDevicePtr *, void *, unsigned);
  CuResult (*streamWaitValue32)(CuStream, CuDevicePtr, uint32_t, unsigned);
  CuResult (*getErrorString)(CuResult, const char **);
};

} // namespace

/// The driver's text for `result`.
static std::string describe(const CudaApi &api, CuResult result) {
  const char *text = nullptr;
  if (api.getErrorString(result, &text) != kCudaSuccess || !text)
    return formatString("CUDA error %d", result);
  return text;
}

namespace {

class CudaBackend : public Backend {
public:
  CudaBackend(std::unique_ptr<DynamicLibrary> library, const CudaApi &api,
              CuDevice device, int64_t multiprocessors)
      : library(std::move(library)), api(api), device(device),
        multiprocessors(multiprocessors) {}

  ~CudaBackend() override {
    for (CuEvent event : {startEvent, stopEvent})
      if (event)
        api.eventDestroy(event);
    for (CuEvent event : marks)
      api.eventDestroy(event);
    if (gate)
      api.memFreeHost(gate);
    if (module)
      api.moduleUnload(module);
    api.primaryCtxRelease(device);
  }

  const char *name() const override { return "cuda"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = "sm_*";
    return target.compare(0, 3, "sm_") == 0;
  }

  int64_t parallelism(const KernelInfo &kernel) const override {
    int resident = 0;
    auto found = functions.find(kernel.symbol);
    if (found == functions.end() ||
        api.occupancyMaxActiveBlocksPerMultiprocessor(
            &resident, found->second,
            static_cast<int>(kernel.workgroupSize[0] * kernel.workgroupSize[1] *
                             kernel.workgroupSize[2]),
            static_cast<size_t>(kernel.dynamicLdsBytes)) != kCudaSuccess)
      resident = 1;
    return multiprocessors * std::max(resident, 1);
  }

  Status allocate(size_t bytes, void *&pointer) override {
    CuDevicePtr address = 0;
    if (Status s = check(api.memAlloc(&address, bytes), "cuMemAlloc"))
      return s;
    pointer = reinterpret_cast<void *>(address);
    return Status::success();
  }

  void release(void *pointer) override {
    api.memFree(reinterpret_cast<CuDevicePtr>(pointer));
  }

  Status copyToDevice(void *device, const void *host, size_t bytes) override {
    return check(
        api.memcpyHtoD(reinterpret_cast<CuDevicePtr>(device), host, bytes),
        "cuMemcpyHtoD");
  }

  Status copyToHost(void *host, const void *device, size_t bytes) override {
    return check(
        api.memcpyDtoH(host, reinterpret_cast<CuDevicePtr>(device), bytes),
        "cuMemcpyDtoH");
  }

  Status loadModule(const std::string &path,
                    const Manifest &manifest) override {
    std::vector<char> image;
    if (Status s = readBinaryFile(path, image))
      return s;
    // cubin (ELF) and fatbinary images go in as they are; anything else is
    // PTX text, which the driver wants NUL-terminated.
    static const char kElfMagic[4] = {0x7F, 'E', 'L', 'F'};
    static const unsigned char kFatbinMagic[4] = {0x50, 0xED, 0x55, 0xBA};
    bool binary =
        image.size() >= 4 && (std::memcmp(image.data(), kElfMagic, 4) == 0 ||
                              std::memcmp(image.data(), kFatbinMagic, 4) == 0);
    if (!binary)
      image.push_back('\0');

    char log[4096] = {0};
    int options[2] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
    void *values[2] = {log, reinterpret_cast<void *>(sizeof(log))};
    CuModule loaded = nullptr;
    if (CuResult result =
            api.moduleLoadDataEx(&loaded, image.data(), 2, options, values)) {
      std::string detail = describe(api, result);
      // The JIT log's first line says what is wrong with PTX.
      std::string firstLine(log, std::strcspn(log, "\n"));
      if (!firstLine.empty())
        detail += ": " + firstLine;
      return Status::failure(path, "cuModuleLoadDataEx: " + detail);
    }
    std::unordered_map<std::string, CuFunction> resolved;
    for (const KernelInfo &kernel : manifest.kernels) {
      CuFunction function = nullptr;
      CuResult result =
          api.moduleGetFunction(&function, loaded, kernel.symbol.c_str());
      if (result == kCudaSuccess &&
          kernel.dynamicLdsBytes > kDefaultSharedLimit)
        result =
            api.funcSetAttribute(function, kFuncAttributeMaxDynamicSharedBytes,
                                 static_cast<int>(kernel.dynamicLdsBytes));
      if (result != kCudaSuccess) {
        api.moduleUnload(loaded);
        return Status::failure(path, "kernel '" + kernel.symbol +
                                         "': " + describe(api, result));
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
        api.launchKernel(found->second, static_cast<unsigned>(grid[0]),
                         static_cast<unsigned>(grid[1]),
                         static_cast<unsigned>(grid[2]),
                         static_cast<unsigned>(kernel.workgroupSize[0]),
                         static_cast<unsigned>(kernel.workgroupSize[1]),
                         static_cast<unsigned>(kernel.workgroupSize[2]),
                         static_cast<unsigned>(kernel.dynamicLdsBytes), nullptr,
                         args, nullptr),
        "cuLaunchKernel(" + kernel.symbol + ")");
  }

  Status synchronize() override {
    return check(api.ctxSynchronize(), "cuCtxSynchronize");
  }

  Status startTimer() override {
    for (CuEvent *event : {&startEvent, &stopEvent}) {
      if (*event)
        continue;
      if (Status s = check(api.eventCreate(event, 0), "cuEventCreate"))
        return s;
    }
    return check(api.eventRecord(startEvent, nullptr), "cuEventRecord");
  }

  Status stopTimer(double &microseconds) override {
    if (Status s = check(api.eventRecord(stopEvent, nullptr), "cuEventRecord"))
      return s;
    if (Status s = check(api.eventSynchronize(stopEvent), "cuEventSynchronize"))
      return s;
    float milliseconds = 0;
    if (Status s =
            check(api.eventElapsedTime(&milliseconds, startEvent, stopEvent),
                  "cuEventElapsedTime"))
      return s;
    microseconds = 1000.0 * milliseconds;
    return Status::success();
  }

  Status timeQueued(int64_t iterations, const std::function<Status()> &enqueue,
                    std::vector<double> &microseconds) override {
    if (!gate) {
      void *host = nullptr;
      if (Status s = check(api.memHostAlloc(&host, sizeof(uint32_t),
                                            kMemHostAllocDeviceMap),
                           "cuMemHostAlloc"))
        return s;
      gate = static_cast<uint32_t *>(host);
      if (Status s = check(api.memHostGetDevicePointer(&deviceGate, host, 0),
                           "cuMemHostGetDevicePointer"))
        return s;
    }
    while (marks.size() < kQueuedCalls + 1) {
      CuEvent event = nullptr;
      if (Status s = check(api.eventCreate(&event, 0), "cuEventCreate"))
        return s;
      marks.push_back(event);
    }
    QueuedTimer timer;
    timer.waitForGate = [&] {
      return check(
          api.streamWaitValue32(nullptr, deviceGate, 1, kStreamWaitValueGeq),
          "cuStreamWaitValue32");
    };
    timer.mark = [&](int64_t i) {
      return check(api.eventRecord(marks[i], nullptr), "cuEventRecord");
    };
    timer.synchronize = [&](int64_t i) {
      return check(api.eventSynchronize(marks[i]), "cuEventSynchronize");
    };
    timer.elapsed = [&](int64_t from, int64_t to, float &milliseconds) {
      return check(api.eventElapsedTime(&milliseconds, marks[from], marks[to]),
                   "cuEventElapsedTime");
    };
    return timeQueuedCalls(gate, timer, iterations, enqueue, microseconds);
  }

private:
  /// Reads the ABI record global of `loaded`, the module at `path`, and
  /// checks `manifest` against it.
  Status checkRecord(CuModule loaded, const std::string &path,
                     const Manifest &manifest) {
    CuDevicePtr address = 0;
    size_t bytes = 0;
    CuResult result =
        api.moduleGetGlobal(&address, &bytes, loaded, kAbiRecordSymbol);
    if (result == kCudaErrorNotFound)
      return missingAbiRecord(path);
    if (result != kCudaSuccess)
      return Status::failure(path,
                             "cuModuleGetGlobal: " + describe(api, result));
    if (bytes == 0 || bytes > kMaxAbiRecordBytes)
      return Status::failure(path,
                             formatString("ABI record of %zu bytes", bytes));
    std::string record(bytes, '\0');
    if (Status s = check(api.memcpyDtoH(record.data(), address, bytes),
                         "cuMemcpyDtoH"))
      return s;
    return checkAbiRecord(record, path, manifest);
  }

  Status check(CuResult result, const std::string &call) const {
    if (result == kCudaSuccess)
      return Status::success();
    return Status::failure("--target cuda",
                           call + ": " + describe(api, result));
  }

  std::unique_ptr<DynamicLibrary> library;
  CudaApi api;
  /// The device whose primary context is current and retained.
  CuDevice device;
  int64_t multiprocessors;
  CuModule module = nullptr;
  std::unordered_map<std::string, CuFunction> functions;
  CuEvent startEvent = nullptr;
  CuEvent stopEvent = nullptr;
  /// timeQueued's events and the host word its device-side wait reads.
  std::vector<CuEvent> marks;
  uint32_t *gate = nullptr;
  CuDevicePtr deviceGate = 0;
};

} // namespace

Status createCudaBackend(std::unique_ptr<Backend> &backend) {
  auto library = std::make_unique<DynamicLibrary>();
  if (!library->open({"libcuda.so.1", "libcuda.so"}))
    return Status::failure("--target cuda",
                           "libcuda.so.1 not found (no NVIDIA driver on this "
                           "machine)");
  CudaApi api;
  const char *missing = nullptr;
  auto bind = [&](const char *symbol, auto &function) {
    if (!library->resolve(symbol, function) && !missing)
      missing = symbol;
  };
  bind("cuInit", api.init);
  bind("cuDeviceGetCount", api.deviceGetCount);
  bind("cuDeviceGet", api.deviceGet);
  bind("cuDeviceGetAttribute", api.deviceGetAttribute);
  bind("cuDevicePrimaryCtxRetain", api.primaryCtxRetain);
  bind("cuDevicePrimaryCtxRelease_v2", api.primaryCtxRelease);
  bind("cuCtxSetCurrent", api.ctxSetCurrent);
  bind("cuCtxSynchronize", api.ctxSynchronize);
  bind("cuMemAlloc_v2", api.memAlloc);
  bind("cuMemFree_v2", api.memFree);
  bind("cuMemcpyHtoD_v2", api.memcpyHtoD);
  bind("cuMemcpyDtoH_v2", api.memcpyDtoH);
  bind("cuModuleLoadDataEx", api.moduleLoadDataEx);
  bind("cuModuleUnload", api.moduleUnload);
  bind("cuModuleGetFunction", api.moduleGetFunction);
  bind("cuModuleGetGlobal_v2", api.moduleGetGlobal);
  bind("cuFuncSetAttribute", api.funcSetAttribute);
  bind("cuOccupancyMaxActiveBlocksPerMultiprocessor",
       api.occupancyMaxActiveBlocksPerMultiprocessor);
  bind("cuLaunchKernel", api.launchKernel);
  bind("cuEventCreate", api.eventCreate);
  bind("cuEventDestroy_v2", api.eventDestroy);
  bind("cuEventRecord", api.eventRecord);
  bind("cuEventSynchronize", api.eventSynchronize);
  bind("cuEventElapsedTime", api.eventElapsedTime);
  bind("cuGetErrorString", api.getErrorString);
  bind("cuMemHostAlloc", api.memHostAlloc);
  bind("cuMemFreeHost", api.memFreeHost);
  bind("cuMemHostGetDevicePointer_v2", api.memHostGetDevicePointer);
  bind("cuStreamWaitValue32_v2", api.streamWaitValue32);
  if (missing)
    return Status::failure("--target cuda",
                           library->fileName() + " lacks " + missing);

  CuResult result = api.init(0);
  int count = 0;
  if (result == kCudaSuccess)
    result = api.deviceGetCount(&count);
  if (result == kCudaErrorNoDevice || (result == kCudaSuccess && count == 0))
    return Status::failure("--target cuda", "no NVIDIA GPU found");
  if (result != kCudaSuccess)
    return Status::failure("--target cuda", "no usable NVIDIA GPU (cuInit: " +
                                                describe(api, result) + ")");
  CuDevice device = 0;
  CuContext context = nullptr;
  int multiprocessors = 0;
  result = api.deviceGet(&device, 0);
  if (result == kCudaSuccess)
    result = api.deviceGetAttribute(&multiprocessors,
                                    kAttributeMultiprocessorCount, device);
  if (result == kCudaSuccess)
    result = api.primaryCtxRetain(&context, device);
  if (result == kCudaSuccess) {
    result = api.ctxSetCurrent(context);
    if (result != kCudaSuccess)
      api.primaryCtxRelease(device);
  }
  if (result != kCudaSuccess)
    return Status::failure("--target cuda",
                           "cannot open device 0: " + describe(api, result));
  backend = std::make_unique<CudaBackend>(std::move(library), api, device,
                                          multiprocessors);
  return Status::success();
}

} // namespace mla::runtime
