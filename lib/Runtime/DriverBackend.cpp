//===- DriverBackend.cpp - A GPU backend over a driver's calls ------------===//

#include "DriverBackend.h"
#include "BackendSupport.h"
#include "mla/Runtime/AbiRecord.h"
#include "mla/Runtime/CodeObject.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/RegularFile.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <unordered_map>

namespace mla::runtime {

Driver::~Driver() = default;

namespace {

/// The largest code object loadModule reads (a module of many kernels is a
/// few MiB).
constexpr uint64_t kMaxModuleBytes = uint64_t(1) << 30;

/// Calls queued behind one device-side wait: few enough launches and
/// events that a runtime's queue takes them all without blocking the host,
/// which would never release the wait.
constexpr int64_t kQueuedCalls = 32;

class DriverBackend : public Backend {
public:
  explicit DriverBackend(std::unique_ptr<Driver> driver)
      : driver(std::move(driver)), api(this->driver->api) {}

  ~DriverBackend() override {
    for (void *event : {startEvent, stopEvent})
      if (event)
        api.eventDestroy(event);
    for (void *event : marks)
      api.eventDestroy(event);
    if (gate)
      api.hostFree(gate);
    if (module)
      api.moduleUnload(module);
  }

  const char *name() const override { return driver->name(); }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    return driver->acceptsTarget(target, expected);
  }

  int64_t parallelism(const KernelInfo &kernel) const override {
    int resident = 0;
    auto found = functions.find(kernel.symbol);
    if (found == functions.end() ||
        api.occupancyMaxActiveBlocksPerMultiprocessor(
            &resident, found->second,
            static_cast<int>(kernel.workgroupSize[0] * kernel.workgroupSize[1] *
                             kernel.workgroupSize[2]),
            static_cast<size_t>(kernel.dynamicLdsBytes)) != 0)
      resident = 1;
    return driver->processors(moduleTarget) * std::max(resident, 1);
  }

  Status allocate(size_t bytes, void *&pointer) override {
    return check(api.malloc(&pointer, bytes), DriverCall::Allocate);
  }

  void release(void *pointer) override { api.free(pointer); }

  Status copyToDevice(void *device, const void *host, size_t bytes) override {
    return check(driver->copyToDevice(device, host, bytes),
                 DriverCall::CopyToDevice);
  }

  Status copyToHost(void *host, const void *device, size_t bytes) override {
    return check(driver->copyToHost(host, device, bytes),
                 DriverCall::CopyToHost);
  }

  Status loadModule(const std::string &path, const Manifest &manifest) override;

  Status launch(const KernelInfo &kernel, const std::array<int64_t, 3> &grid,
                void **args) override {
    void *function = nullptr;
    if (Status s = findLaunched(functions, kernel, grid, function))
      return s;
    auto narrow = [](const std::array<int64_t, 3> &extents) {
      return std::array<unsigned, 3>{static_cast<unsigned>(extents[0]),
                                     static_cast<unsigned>(extents[1]),
                                     static_cast<unsigned>(extents[2])};
    };
    std::array<unsigned, 3> blocks = narrow(grid);
    std::array<unsigned, 3> threads = narrow(kernel.workgroupSize);
    DriverStatus status = api.launchKernel(
        function, blocks[0], blocks[1], blocks[2], threads[0], threads[1],
        threads[2], static_cast<unsigned>(kernel.dynamicLdsBytes),
        /*stream=*/nullptr, args, /*extra=*/nullptr);
    if (status == 0)
      return Status::success();
    return Status::failure(
        subject(), std::string(driver->callName(DriverCall::Launch)) + "(" +
                       kernel.symbol + "): " + driver->describe(status));
  }

  Status synchronize() override {
    return check(api.synchronize(), DriverCall::Synchronize);
  }

  Status startTimer() override {
    for (void **event : {&startEvent, &stopEvent})
      if (!*event)
        if (Status s =
                check(driver->createEvent(*event), DriverCall::CreateEvent))
          return s;
    return check(api.eventRecord(startEvent, nullptr), DriverCall::RecordEvent);
  }

  Status stopTimer(double &microseconds) override {
    float milliseconds = 0;
    if (Status s =
            check(api.eventRecord(stopEvent, nullptr), DriverCall::RecordEvent))
      return s;
    if (Status s = check(api.eventSynchronize(stopEvent),
                         DriverCall::SynchronizeEvent))
      return s;
    if (Status s =
            check(api.eventElapsedTime(&milliseconds, startEvent, stopEvent),
                  DriverCall::ElapsedTime))
      return s;
    microseconds = 1000.0 * milliseconds;
    return Status::success();
  }

  Status timeQueued(int64_t iterations, const std::function<Status()> &enqueue,
                    std::vector<double> &microseconds) override;

private:
  /// Reads the ABI record global of `loaded`, the module at `path`, and
  /// checks `manifest` against it.
  Status checkRecord(void *loaded, const std::string &path,
                     const Manifest &manifest);

  /// What failures of the driver's calls are reported against.
  std::string subject() const {
    return std::string("--target ") + driver->name();
  }

  Status check(DriverStatus status, DriverCall call) const {
    if (status == 0)
      return Status::success();
    return Status::failure(subject(), std::string(driver->callName(call)) +
                                          ": " + driver->describe(status));
  }

  std::unique_ptr<Driver> driver;
  const DriverApi &api;
  void *module = nullptr;
  /// The loaded module's code object, which HIP may read while it is loaded.
  std::unique_ptr<llvm::MemoryBuffer> moduleImage;
  std::unordered_map<std::string, void *> functions;
  /// The loaded module's manifest target, which sizes the device for it.
  std::string moduleTarget;
  void *startEvent = nullptr;
  void *stopEvent = nullptr;
  /// timeQueued's events and the host word its device-side wait reads.
  std::vector<void *> marks;
  uint32_t *gate = nullptr;
  void *deviceGate = nullptr;
};

} // namespace

Status DriverBackend::loadModule(const std::string &path,
                                 const Manifest &manifest) {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  ReadOptions options;
  options.maxBytes = kMaxModuleBytes;
  options.tooLarge = "not a module";
  if (Status s = readRegularFile(path, buffer, options))
    return s;
  llvm::StringRef image = buffer->getBuffer();
  if (image.empty())
    return Status::failure(path, "empty file");
  llvm::ArrayRef<char> bytes(image.data(), image.size());
  if (isElfImage(bytes))
    if (Status s = checkElfExtents(bytes, path))
      return s;
  void *loaded = nullptr;
  std::string detail;
  if (DriverStatus status = driver->loadModule(image, loaded, detail))
    return Status::failure(
        path, std::string(driver->callName(DriverCall::LoadModule)) + ": " +
                  driver->describe(status) + detail);
  std::unordered_map<std::string, void *> resolved;
  for (const KernelInfo &kernel : manifest.kernels) {
    void *function = nullptr;
    DriverStatus status =
        api.moduleGetFunction(&function, loaded, kernel.symbol.c_str());
    if (status == 0)
      status = driver->prepareFunction(function, kernel);
    if (status != 0) {
      api.moduleUnload(loaded);
      return Status::failure(
          path, "kernel '" + kernel.symbol +
                    "': " + driver->callName(DriverCall::GetFunction) + ": " +
                    driver->describe(status));
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
  moduleImage = std::move(buffer);
  functions = std::move(resolved);
  moduleTarget = manifest.target;
  return Status::success();
}

Status DriverBackend::checkRecord(void *loaded, const std::string &path,
                                  const Manifest &manifest) {
  void *address = nullptr;
  size_t bytes = 0;
  DriverStatus status =
      api.moduleGetGlobal(&address, &bytes, loaded, kAbiRecordSymbol);
  if (status == kDriverNotFound)
    return missingAbiRecord(path);
  if (status != 0)
    return Status::failure(
        path, std::string(driver->callName(DriverCall::GetGlobal)) + ": " +
                  driver->describe(status));
  if (bytes == 0 || bytes > kMaxAbiRecordBytes)
    return Status::failure(path,
                           llvm::formatv("ABI record of {0} bytes", bytes));
  std::string record(bytes, '\0');
  if (Status s = check(driver->copyToHost(record.data(), address, bytes),
                       DriverCall::CopyToHost))
    return s;
  return checkAbiRecord(record, path, manifest);
}

// Chunks of up to kQueuedCalls calls of `enqueue`, each between two marks,
// queued behind a wait on `gate` (host memory the device reads) that is
// released once the chunk is queued, also when queueing fails.
Status DriverBackend::timeQueued(int64_t iterations,
                                 const std::function<Status()> &enqueue,
                                 std::vector<double> &microseconds) {
  if (!gate) {
    void *host = nullptr;
    if (Status s =
            check(api.hostAlloc(&host, sizeof(uint32_t), kHostAllocMapped),
                  DriverCall::AllocateMapped))
      return s;
    gate = static_cast<uint32_t *>(host);
    if (Status s = check(api.hostGetDevicePointer(&deviceGate, host, 0),
                         DriverCall::MappedPointer))
      return s;
  }
  while (marks.size() < kQueuedCalls + 1) {
    void *event = nullptr;
    if (Status s = check(driver->createEvent(event), DriverCall::CreateEvent))
      return s;
    marks.push_back(event);
  }
  microseconds.clear();
  for (int64_t done = 0; done < iterations;) {
    int64_t calls = std::min(kQueuedCalls, iterations - done);
    __atomic_store_n(gate, 0u, __ATOMIC_SEQ_CST);
    if (Status s =
            check(driver->waitValue(deviceGate, 1), DriverCall::WaitValue))
      return s;
    Status queued =
        check(api.eventRecord(marks[0], nullptr), DriverCall::RecordEvent);
    for (int64_t i = 0; i < calls && queued.ok(); ++i) {
      queued = enqueue();
      if (queued.ok())
        queued = check(api.eventRecord(marks[i + 1], nullptr),
                       DriverCall::RecordEvent);
    }
    // Released even after a failure, so that the stream can drain.
    __atomic_store_n(gate, 1u, __ATOMIC_SEQ_CST);
    if (!queued.ok())
      return queued;
    if (Status s = check(api.eventSynchronize(marks[calls]),
                         DriverCall::SynchronizeEvent))
      return s;
    for (int64_t i = 0; i < calls; ++i) {
      float milliseconds = 0;
      if (Status s =
              check(api.eventElapsedTime(&milliseconds, marks[i], marks[i + 1]),
                    DriverCall::ElapsedTime))
        return s;
      microseconds.push_back(1000.0 * milliseconds);
    }
    done += calls;
  }
  return Status::success();
}

std::unique_ptr<Backend> createDriverBackend(std::unique_ptr<Driver> driver) {
  return std::make_unique<DriverBackend>(std::move(driver));
}

} // namespace mla::runtime
