//===- CudaBackend.cpp - Run PTX/cubin modules through the driver API -----===//
//
// libcuda.so.1 (the driver, not the toolkit) is loaded at run time and only
// the entry points below are used, declared here with the C types of
// cuda.h; no CUDA header is needed.
//
//===----------------------------------------------------------------------===//

#include "DriverBackend.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Support/Chips.h"

#include "llvm/Support/FormatVariadic.h"

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
constexpr int kAttributeMultiprocessorCount = 16;
constexpr int kFuncAttributeMaxDynamicSharedBytes = 8;
constexpr unsigned kStreamWaitValueGeq = 0x0;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
/// Dynamic shared memory a launch gets without opting in.
constexpr int64_t kDefaultSharedLimit = 48 * 1024;

static_assert(sizeof(CuDevicePtr) == sizeof(void *),
              "DriverApi passes CUdeviceptr as void *");

/// The driver entry points whose shape is CUDA's own.
struct CudaApi {
  CuResult (*init)(unsigned);
  CuResult (*deviceGetCount)(int *);
  CuResult (*deviceGet)(CuDevice *, int);
  CuResult (*deviceGetAttribute)(int *, int, CuDevice);
  CuResult (*primaryCtxRetain)(CuContext *, CuDevice);
  CuResult (*primaryCtxRelease)(CuDevice);
  CuResult (*ctxSetCurrent)(CuContext);
  CuResult (*memcpyHtoD)(CuDevicePtr, const void *, size_t);
  CuResult (*memcpyDtoH)(void *, CuDevicePtr, size_t);
  CuResult (*moduleLoadDataEx)(CuModule *, const void *, unsigned, int *,
                               void **);
  CuResult (*funcSetAttribute)(CuFunction, int, int);
  CuResult (*eventCreate)(CuEvent *, unsigned);
  CuResult (*streamWaitValue32)(CuStream, CuDevicePtr, uint32_t, unsigned);
  CuResult (*getErrorString)(CuResult, const char **);
};

/// The driver's text for `result`.
std::string describeResult(const CudaApi &cuda, CuResult result) {
  const char *text = nullptr;
  if (cuda.getErrorString(result, &text) != kCudaSuccess || !text)
    return llvm::formatv("CUDA error {0}", result);
  return text;
}

CuDevicePtr address(const void *pointer) {
  return reinterpret_cast<CuDevicePtr>(pointer);
}

/// What DriverBackend needs of CUDA beyond the shared entry points, on
/// device 0's primary context.
class CudaDriver : public Driver {
public:
  CudaDriver(std::unique_ptr<DynamicLibrary> library, const DriverApi &api,
             const CudaApi &cuda, CuDevice device, int64_t multiprocessors)
      : Driver(std::move(library), api), cuda(cuda), device(device),
        multiprocessors(multiprocessors) {}

  ~CudaDriver() override { cuda.primaryCtxRelease(device); }

  const char *name() const override { return "cuda"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = listChips([](const Chip &chip) { return !chip.isAMD(); });
    const Chip *chip = lookupChip(target);
    return chip && !chip->isAMD();
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
    return describeResult(cuda, status);
  }

  int64_t processors(const std::string &) const override {
    return multiprocessors;
  }

  DriverStatus copyToDevice(void *device, const void *host,
                            size_t bytes) override {
    return cuda.memcpyHtoD(address(device), host, bytes);
  }

  DriverStatus copyToHost(void *host, const void *device,
                          size_t bytes) override {
    return cuda.memcpyDtoH(host, address(device), bytes);
  }

  DriverStatus loadModule(llvm::StringRef image, void *&module,
                          std::string &detail) override {
    // cubin (ELF) and fatbinary images go in as they are; anything else is
    // PTX text, which the driver reads up to the NUL byte after the image.
    char log[4096] = {0};
    int options[2] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
    void *values[2] = {log, reinterpret_cast<void *>(sizeof(log))};
    CuResult result =
        cuda.moduleLoadDataEx(&module, image.data(), 2, options, values);
    // The JIT log's first line says what is wrong with PTX.
    std::string firstLine(log, std::strcspn(log, "\n"));
    if (result != kCudaSuccess && !firstLine.empty())
      detail = ": " + firstLine;
    return result;
  }

  DriverStatus prepareFunction(void *function,
                               const KernelInfo &kernel) override {
    if (kernel.dynamicLdsBytes <= kDefaultSharedLimit)
      return kCudaSuccess;
    return cuda.funcSetAttribute(function, kFuncAttributeMaxDynamicSharedBytes,
                                 static_cast<int>(kernel.dynamicLdsBytes));
  }

  DriverStatus createEvent(void *&event) override {
    return cuda.eventCreate(&event, 0);
  }

  DriverStatus waitValue(void *device, uint32_t value) override {
    return cuda.streamWaitValue32(nullptr, address(device), value,
                                  kStreamWaitValueGeq);
  }

private:
  CudaApi cuda;
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
  DriverApi api;
  CudaApi cuda;
  library->bind("cuInit", cuda.init);
  library->bind("cuDeviceGetCount", cuda.deviceGetCount);
  library->bind("cuDeviceGet", cuda.deviceGet);
  library->bind("cuDeviceGetAttribute", cuda.deviceGetAttribute);
  library->bind("cuDevicePrimaryCtxRetain", cuda.primaryCtxRetain);
  library->bind("cuDevicePrimaryCtxRelease_v2", cuda.primaryCtxRelease);
  library->bind("cuCtxSetCurrent", cuda.ctxSetCurrent);
  library->bind("cuCtxSynchronize", api.synchronize);
  library->bind("cuMemAlloc_v2", api.malloc);
  library->bind("cuMemFree_v2", api.free);
  library->bind("cuMemcpyHtoD_v2", cuda.memcpyHtoD);
  library->bind("cuMemcpyDtoH_v2", cuda.memcpyDtoH);
  library->bind("cuModuleLoadDataEx", cuda.moduleLoadDataEx);
  library->bind("cuModuleUnload", api.moduleUnload);
  library->bind("cuModuleGetFunction", api.moduleGetFunction);
  library->bind("cuModuleGetGlobal_v2", api.moduleGetGlobal);
  library->bind("cuFuncSetAttribute", cuda.funcSetAttribute);
  library->bind("cuOccupancyMaxActiveBlocksPerMultiprocessor",
                api.occupancyMaxActiveBlocksPerMultiprocessor);
  library->bind("cuLaunchKernel", api.launchKernel);
  library->bind("cuEventCreate", cuda.eventCreate);
  library->bind("cuEventDestroy_v2", api.eventDestroy);
  library->bind("cuEventRecord", api.eventRecord);
  library->bind("cuEventSynchronize", api.eventSynchronize);
  library->bind("cuEventElapsedTime", api.eventElapsedTime);
  library->bind("cuGetErrorString", cuda.getErrorString);
  library->bind("cuMemHostAlloc", api.hostAlloc);
  library->bind("cuMemFreeHost", api.hostFree);
  library->bind("cuMemHostGetDevicePointer_v2", api.hostGetDevicePointer);
  library->bind("cuStreamWaitValue32_v2", cuda.streamWaitValue32);
  if (Status s = library->checkBound("--target cuda"))
    return s;

  CuResult result = cuda.init(0);
  int count = 0;
  if (result == kCudaSuccess)
    result = cuda.deviceGetCount(&count);
  if (result == kCudaErrorNoDevice || (result == kCudaSuccess && count == 0))
    return Status::failure("--target cuda", "no NVIDIA GPU found");
  if (result != kCudaSuccess)
    return Status::failure(
        "--target cuda",
        "no usable NVIDIA GPU (cuInit: " + describeResult(cuda, result) + ")");
  CuDevice device = 0;
  CuContext context = nullptr;
  int multiprocessors = 0;
  result = cuda.deviceGet(&device, 0);
  if (result == kCudaSuccess)
    result = cuda.deviceGetAttribute(&multiprocessors,
                                     kAttributeMultiprocessorCount, device);
  if (result == kCudaSuccess)
    result = cuda.primaryCtxRetain(&context, device);
  if (result == kCudaSuccess) {
    result = cuda.ctxSetCurrent(context);
    if (result != kCudaSuccess)
      cuda.primaryCtxRelease(device);
  }
  if (result != kCudaSuccess)
    return Status::failure("--target cuda", "cannot open device 0: " +
                                                describeResult(cuda, result));
  backend = createDriverBackend(std::make_unique<CudaDriver>(
      std::move(library), api, cuda, device, multiprocessors));
  return Status::success();
}

} // namespace mla::runtime
