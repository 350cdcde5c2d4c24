//===- EmuBackend.cpp - Run emulated AMD modules on host threads ----------===//
//
// An emulated module (target gfx950-emu or gfx942-emu) is a shared object
// holding the retargeted kernels and the emulation runtime; its interface
// is mla/Emulator/EmuABI.h (plain C: this file links no part of the
// emulator). Workgroups run on the thread pool, one emulation context per
// thread; the first hazard a workgroup reports fails the launch.
//
//===----------------------------------------------------------------------===//

#include "BackendSupport.h"
#include "SharedObject.h"
#include "mla/Emulator/EmuABI.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/Parallel.h"
#include "mla/Support/Chips.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mla::runtime {

namespace {

/// The entry points every emulated module exports.
struct EmuInterface {
  const MlaEmuModule *module = nullptr;
  MlaEmuCheckLaunchFn checkLaunch = nullptr;
  MlaEmuContextCreateFn createContext = nullptr;
  MlaEmuContextDestroyFn destroyContext = nullptr;
  MlaEmuRunWorkgroupFn runWorkgroup = nullptr;
  MlaEmuContextErrorFn contextError = nullptr;
};

/// The chip the manifest target names, or 0.
uint32_t chipOfTarget(llvm::StringRef target) {
  // The ABI numbers a chip as its name does: gfx950 is 950.
  uint32_t number = 0;
  if (!target.consume_back("-emu"))
    return 0;
  const Chip *chip = lookupChip(target);
  if (!chip || !chip->isAMD() || !target.consume_front("gfx") ||
      target.getAsInteger(10, number))
    return 0;
  return number;
}

class EmuBackend : public HostMemoryBackend {
public:
  using HostMemoryBackend::HostMemoryBackend;
  ~EmuBackend() override { unload(); }

  const char *name() const override { return "emu"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = listChips([](const Chip &chip) { return chip.isAMD(); }, "-emu");
    return chipOfTarget(target) != 0;
  }

  Status allocate(size_t bytes, void *&pointer) override {
    if (Status s = HostMemoryBackend::allocate(bytes, pointer))
      return s;
    // Kernels may touch the bytes asked for, not the rounding.
    allocations[reinterpret_cast<uintptr_t>(pointer)] = bytes;
    return Status::success();
  }

  void release(void *pointer) override {
    allocations.erase(reinterpret_cast<uintptr_t>(pointer));
    HostMemoryBackend::release(pointer);
  }

  Status loadModule(const std::string &path, const Manifest &manifest) override;
  Status launch(const KernelInfo &kernel, const std::array<int64_t, 3> &grid,
                void **args) override;

private:
  void unload() {
    for (MlaEmuContext *context : contexts)
      interface.destroyContext(context);
    contexts.clear();
    library.reset();
  }

  /// A context for one workgroup run; returned with giveBack.
  MlaEmuContext *takeContext() {
    std::lock_guard<std::mutex> lock(contextMutex);
    if (!idle.empty()) {
      MlaEmuContext *context = idle.back();
      idle.pop_back();
      return context;
    }
    MlaEmuContext *context = interface.createContext();
    if (context)
      contexts.push_back(context);
    return context;
  }

  void giveBack(MlaEmuContext *context) {
    std::lock_guard<std::mutex> lock(contextMutex);
    idle.push_back(context);
  }

  /// The buffers `kernel`'s pointer arguments point into, sorted.
  void collectBuffers(const KernelInfo &kernel, void **args,
                      std::vector<MlaEmuBuffer> &buffers) const;

  std::unique_ptr<SharedObject> library;
  EmuInterface interface;
  std::unordered_map<std::string, const MlaEmuKernel *> kernels;
  /// Start address -> size of every allocation.
  std::map<uintptr_t, size_t> allocations;
  std::mutex contextMutex;
  std::vector<MlaEmuContext *> contexts, idle;
};

} // namespace

/// Sets `value` to the address of `symbol` if `object` defines it.
template <typename T>
static bool resolve(const SharedObject &object, const char *symbol, T &value) {
  bool found;
  std::string definedBy;
  value = reinterpret_cast<T>(object.lookup(symbol, found, definedBy).address);
  return found;
}

Status EmuBackend::loadModule(const std::string &path,
                              const Manifest &manifest) {
  std::unique_ptr<SharedObject> object;
  if (Status s = SharedObject::open(path, object))
    return s;
  EmuInterface loaded;
  if (!resolve(*object, MLA_EMU_MODULE_SYMBOL, loaded.module) ||
      !resolve(*object, "mla_emu_check_launch", loaded.checkLaunch) ||
      !resolve(*object, "mla_emu_context_create", loaded.createContext) ||
      !resolve(*object, "mla_emu_context_destroy", loaded.destroyContext) ||
      !resolve(*object, "mla_emu_run_workgroup", loaded.runWorkgroup) ||
      !resolve(*object, "mla_emu_context_error", loaded.contextError))
    return Status::failure(path, "not an emulated module (compile it with "
                                 "--target=gfx950-emu or gfx942-emu)");
  auto fail = [&](const std::string &what) {
    return Status::failure(path, what);
  };
  if (loaded.module->abiVersion != MLA_EMU_ABI_VERSION)
    return fail(llvm::formatv("emulated module interface version {0}, this "
                              "mla-run reads version {1}",
                              loaded.module->abiVersion, MLA_EMU_ABI_VERSION));
  if (loaded.module->chip != chipOfTarget(manifest.target))
    return fail(llvm::formatv("the module emulates gfx{0}, its manifest says "
                              "target '{1}'",
                              loaded.module->chip, manifest.target));
  std::unordered_map<std::string, const MlaEmuKernel *> resolved;
  for (uint32_t i = 0; i < loaded.module->numKernels; ++i)
    resolved[loaded.module->kernels[i].name] = &loaded.module->kernels[i];
  for (const KernelInfo &kernel : manifest.kernels) {
    auto found = resolved.find(kernel.symbol);
    if (found == resolved.end())
      return fail("kernel '" + kernel.symbol + "' of " + manifest.path +
                  " is not defined");
    if (found->second->numArgs != kernel.args.size())
      return fail(llvm::formatv("kernel '{0}' takes {1} arguments, its "
                                "manifest lists {2}",
                                kernel.symbol, found->second->numArgs,
                                kernel.args.size()));
  }
  if (Status s = object->checkAbiRecord(manifest))
    return s;
  unload();
  library = std::move(object);
  interface = loaded;
  kernels = std::move(resolved);
  return Status::success();
}

void EmuBackend::collectBuffers(const KernelInfo &kernel, void **args,
                                std::vector<MlaEmuBuffer> &buffers) const {
  buffers.clear();
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    if (kernel.args[i].kind != ArgKind::Pointer)
      continue;
    auto address = reinterpret_cast<uintptr_t>(*static_cast<void **>(args[i]));
    auto above = allocations.upper_bound(address);
    if (above == allocations.begin())
      continue;
    auto allocation = std::prev(above);
    uintptr_t end = allocation->first + allocation->second;
    if (address > end)
      continue;
    bool seen = false;
    for (const MlaEmuBuffer &buffer : buffers)
      seen |= buffer.begin == allocation->first;
    if (!seen)
      buffers.push_back({allocation->first, end, kernel.args[i].name.c_str()});
  }
  std::sort(buffers.begin(), buffers.end(),
            [](const MlaEmuBuffer &a, const MlaEmuBuffer &b) {
              return a.begin < b.begin;
            });
}

Status EmuBackend::launch(const KernelInfo &kernel,
                          const std::array<int64_t, 3> &grid, void **args) {
  MlaEmuLaunch launch = {};
  if (Status s = findLaunched(kernels, kernel, grid, launch.kernel))
    return s;
  launch.args = args;
  for (int d = 0; d < 3; ++d) {
    launch.grid[d] = static_cast<uint32_t>(grid[d]);
    launch.workgroupSize[d] = static_cast<uint32_t>(kernel.workgroupSize[d]);
  }
  launch.dynamicLdsBytes = static_cast<uint32_t>(kernel.dynamicLdsBytes);
  std::vector<MlaEmuBuffer> buffers;
  collectBuffers(kernel, args, buffers);
  launch.numBuffers = static_cast<uint32_t>(buffers.size());
  launch.buffers = buffers.data();
  if (const char *problem = interface.checkLaunch(&launch))
    return Status::failure("emu", problem);

  std::atomic<bool> failed{false};
  std::mutex errorMutex;
  std::string error;
  parallelFor(pool, grid[0] * grid[1] * grid[2], [&](int64_t linear) {
    if (failed.load(std::memory_order_relaxed))
      return;
    MlaEmuContext *context = takeContext();
    if (!context) {
      std::lock_guard<std::mutex> lock(errorMutex);
      if (!failed.exchange(true))
        error = "cannot allocate an emulation context";
      return;
    }
    const uint32_t id[3] = {
        static_cast<uint32_t>(linear % grid[0]),
        static_cast<uint32_t>(linear / grid[0] % grid[1]),
        static_cast<uint32_t>(linear / (grid[0] * grid[1]))};
    if (interface.runWorkgroup(context, &launch, id)) {
      std::lock_guard<std::mutex> lock(errorMutex);
      if (!failed.exchange(true))
        error = interface.contextError(context);
    }
    giveBack(context);
  });
  if (failed)
    return Status::failure("emu", error);
  return Status::success();
}

std::unique_ptr<Backend> createEmuBackend(llvm::ThreadPoolInterface &pool) {
  return std::make_unique<EmuBackend>(pool);
}

} // namespace mla::runtime
