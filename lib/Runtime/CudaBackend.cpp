//===- CudaBackend.cpp - Run PTX/cubin modules through the driver API -----===//
//
// libcuda.so.1 (the driver, not the toolkit) is loaded at run time and only
// the entry points below are used, declared here with the C types of
// cuda.h; no CUDA header is needed.
//
//===----------------------------------------------------------------------===//

#include "DriverBackend.h"
#include "GpuSupport.h"
#include "mla/Runtime/CodeObject.h"
#include "mla/Runtime/Manifest.h"

#include <cstring>

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
static std::string describeResult(const CudaApi &api, CuResult result) {
  const char *text = nullptr;
  if (api.getErrorString(result, &text) != kCudaSuccess || !text)
    return formatString("CUDA error %d", result);
  return text;
}

namespace {

/// CUDA's calls for DriverBackend, on device 0's primary context.
class CudaDriver : public Driver {
public:
  CudaDriver(std::unique_ptr<DynamicLibrary> library, const CudaApi &api,
             CuDevice device, int64_t multiprocessors)
      : library(std::move(library)), api(api), device(device),
        multiprocessors(multiprocessors) {}

  ~CudaDriver() override { api.primaryCtxRelease(device); }

  const char *name() const override { return "cuda"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = "sm_*";
    return target.compare(0, 3, "sm_") == 0;
  }

  const char *callName(DriverCall call) const override {
    // In DriverCall's order.
    static const char *const names[] = {
        "cuMemAlloc",          "cuMemcpyHtoD",
        "cuMemcpyDtoH",        "cuModuleLoadDataEx",
        "cuModuleGetFunction", "cuModuleGetGlobal",
        "cuLaunchKernel",      "cuCtxSynchronize",
        "cuEventCreate",       "cuEventRecord",
        "cuEventSynchronize",  "cuEventElapsedTime",
        "cuMemHostAlloc",      "cuMemHostGetDevicePointer",
        "cuStreamWaitValue32",
    };
    static_assert(std::size(names) == kDriverCalls);
    return names[static_cast<int>(call)];
  }

  std::string describe(DriverStatus status) const override {
    return describeResult(api, status);
  }

  bool isNotFound(DriverStatus status) const override {
    return status == kCudaErrorNotFound;
  }

  int64_t processors(const std::string &) const override {
    return multiprocessors;
  }

  DriverStatus allocate(void *&pointer, size_t bytes) override {
    CuDevicePtr address = 0;
    CuResult result = api.memAlloc(&address, bytes);
    pointer = reinterpret_cast<void *>(address);
    return result;
  }

  void release(void *pointer) override { api.memFree(address(pointer)); }

  DriverStatus copyToDevice(void *device, const void *host,
                            size_t bytes) override {
    return api.memcpyHtoD(address(device), host, bytes);
  }

  DriverStatus copyToHost(void *host, const void *device,
                          size_t bytes) override {
    return api.memcpyDtoH(host, address(device), bytes);
  }

  DriverStatus loadModule(std::vector<char> &image, void *&module,
                          std::string &detail) override {
    // cubin (ELF) and fatbinary images go in as they are; anything else is
    // PTX text, which the driver wants NUL-terminated.
    static const unsigned char kFatbinMagic[4] = {0x50, 0xED, 0x55, 0xBA};
    bool binary =
        isElfImage(image) ||
        (image.size() >= 4 && std::memcmp(image.data(), kFatbinMagic, 4) == 0);
    if (!binary)
      image.push_back('\0');
    char log[4096] = {0};
    int options[2] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
    void *values[2] = {log, reinterpret_cast<void *>(sizeof(log))};
    CuResult result =
        api.moduleLoadDataEx(&module, image.data(), 2, options, values);
    // The JIT log's first line says what is wrong with PTX.
    std::string firstLine(log, std::strcspn(log, "\n"));
    if (result != kCudaSuccess && !firstLine.empty())
      detail = ": " + firstLine;
    return result;
  }

  void unloadModule(void *module) override { api.moduleUnload(module); }

  DriverStatus getFunction(void *module, const KernelInfo &kernel,
                           void *&function) override {
    CuResult result =
        api.moduleGetFunction(&function, module, kernel.symbol.c_str());
    if (result == kCudaSuccess && kernel.dynamicLdsBytes > kDefaultSharedLimit)
      result =
          api.funcSetAttribute(function, kFuncAttributeMaxDynamicSharedBytes,
                               static_cast<int>(kernel.dynamicLdsBytes));
    return result;
  }

  DriverStatus getGlobal(void *module, const char *symbol, void *&pointer,
                         size_t &bytes) override {
    CuDevicePtr global = 0;
    CuResult result = api.moduleGetGlobal(&global, &bytes, module, symbol);
    pointer = reinterpret_cast<void *>(global);
    return result;
  }

  DriverStatus residentBlocks(void *function, int threads, size_t sharedBytes,
                              int &blocks) override {
    return api.occupancyMaxActiveBlocksPerMultiprocessor(&blocks, function,
                                                         threads, sharedBytes);
  }

  DriverStatus launch(void *function, const std::array<unsigned, 3> &grid,
                      const std::array<unsigned, 3> &block,
                      unsigned sharedBytes, void **args) override {
    return api.launchKernel(function, grid[0], grid[1], grid[2], block[0],
                            block[1], block[2], sharedBytes, nullptr, args,
                            nullptr);
  }

  DriverStatus synchronize() override { return api.ctxSynchronize(); }

  DriverStatus createEvent(void *&event) override {
    return api.eventCreate(&event, 0);
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
    return api.memHostAlloc(&host, bytes, kMemHostAllocDeviceMap);
  }
  void releaseMapped(void *host) override { api.memFreeHost(host); }
  DriverStatus mappedPointer(void *host, void *&device) override {
    CuDevicePtr pointer = 0;
    CuResult result = api.memHostGetDevicePointer(&pointer, host, 0);
    device = reinterpret_cast<void *>(pointer);
    return result;
  }
  DriverStatus waitValue(void *device, uint32_t value) override {
    return api.streamWaitValue32(nullptr, address(device), value,
                                 kStreamWaitValueGeq);
  }

private:
  static CuDevicePtr address(const void *pointer) {
    return reinterpret_cast<CuDevicePtr>(pointer);
  }

  std::unique_ptr<DynamicLibrary> library;
  CudaApi api;
  /// The device whose primary context is current and retained.
  CuDevice device;
  int64_t multiprocessors;
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
    return Status::failure(
        "--target cuda",
        "no usable NVIDIA GPU (cuInit: " + describeResult(api, result) + ")");
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
    return Status::failure("--target cuda", "cannot open device 0: " +
                                                describeResult(api, result));
  backend = createDriverBackend(std::make_unique<CudaDriver>(
      std::move(library), api, device, multiprocessors));
  return Status::success();
}

} // namespace mla::runtime
