//===- HostBackend.cpp - Run host modules on a thread pool ----------------===//
//
// A host module is a shared object; each kernel is
//   void SYMBOL(void **args, const int64_t program_id[3],
//               const int64_t num_programs[3])
// called once per program instance. "Device memory" is host memory.
//
//===----------------------------------------------------------------------===//

#include "BackendSupport.h"
#include "SharedObject.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/Parallel.h"

#include <unordered_map>

namespace mla::runtime {

namespace {

using HostKernel = void (*)(void **args, const int64_t programId[3],
                            const int64_t numPrograms[3]);

class HostBackend : public HostMemoryBackend {
public:
  using HostMemoryBackend::HostMemoryBackend;

  const char *name() const override { return "host"; }

  bool acceptsTarget(const std::string &target,
                     std::string &expected) const override {
    expected = "host";
    return target == "host";
  }

  Status loadModule(const std::string &path,
                    const Manifest &manifest) override {
    std::unique_ptr<SharedObject> object;
    if (Status s = SharedObject::open(path, object))
      return s;
    std::unordered_map<std::string, HostKernel> resolved;
    for (const KernelInfo &kernel : manifest.kernels) {
      void *address;
      if (Status s = object->lookupKernel(kernel.symbol, manifest, address))
        return s;
      resolved[kernel.symbol] = reinterpret_cast<HostKernel>(address);
    }
    if (Status s = object->checkAbiRecord(manifest))
      return s;
    kernels = std::move(resolved);
    library = std::move(object);
    return Status::success();
  }

  Status launch(const KernelInfo &kernel, const std::array<int64_t, 3> &grid,
                void **args) override {
    HostKernel function = nullptr;
    if (Status s = findLaunched(kernels, kernel, grid, function))
      return s;
    const int64_t numPrograms[3] = {grid[0], grid[1], grid[2]};
    parallelFor(pool, grid[0] * grid[1] * grid[2], [&](int64_t linear) {
      // x varies fastest, as on a GPU.
      const int64_t programId[3] = {linear % grid[0],
                                    linear / grid[0] % grid[1],
                                    linear / (grid[0] * grid[1])};
      function(args, programId, numPrograms);
    });
    return Status::success();
  }

private:
  std::unique_ptr<SharedObject> library;
  std::unordered_map<std::string, HostKernel> kernels;
};

} // namespace

std::unique_ptr<Backend> createHostBackend(llvm::ThreadPoolInterface &pool) {
  return std::make_unique<HostBackend>(pool);
}

} // namespace mla::runtime
