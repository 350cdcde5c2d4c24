//===- KernelRunner.h - Run one kernel with bound arguments -----*- C++ -*-===//
//
// The device side of mla-run's generic mode: places the arguments bindArgs
// produced in device memory, launches the kernel over a grid, and copies
// buffers back.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_KERNELRUNNER_H
#define MLA_RUNTIME_KERNELRUNNER_H

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/Status.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mla::runtime {

struct KernelInfo;

/// One kernel of a loaded module with every argument bound.
class KernelRunner {
public:
  /// `args` are bindArgs' result for `kernel`, in call order.
  KernelRunner(Backend &backend, const KernelInfo &kernel,
               std::vector<BoundArg> args);

  /// Allocates a device buffer per pointer argument, uploads its initial
  /// contents, and builds the argument array.
  Status prepare();
  /// Launches the kernel over `grid` programs and waits.
  Status run(const std::array<int64_t, 3> &grid);
  /// Runs `warmup` untimed launches, then times `iterations` launches one
  /// by one; returns their median.
  Status benchmark(const std::array<int64_t, 3> &grid, int64_t warmup,
                   int64_t iterations, double &medianMicroseconds);
  /// Copies the buffer of pointer argument `name` back: the device contents
  /// with the shape and dtype it was bound with.
  Status readBuffer(const std::string &name, NpyArray &array);

private:
  /// The storage of one argument value; args[i] points at slots[i].
  union ArgSlot {
    void *pointer;
    ScalarValue scalar;
  };

  Backend &backend;
  const KernelInfo &kernel;
  std::vector<BoundArg> bound;
  /// Indexed like `bound`; scalar arguments leave their entry empty.
  std::vector<DeviceBuffer> buffers;
  std::vector<ArgSlot> slots;
  std::vector<void *> args;
};

} // namespace mla::runtime

#endif // MLA_RUNTIME_KERNELRUNNER_H
