//===- MlaDriver.h - Run MLA decode kernels of a module ---------*- C++ -*-===//
//
// Binds an MLA problem to the kernels of a compiled module (docs/ABI.md,
// "MLA decode kernels"): picks the partial and combine kernels, places the
// inputs and the launch plan in device memory, binds every kernel argument
// by name, and launches.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DECODE_MLADRIVER_H
#define MLA_DECODE_MLADRIVER_H

#include "mla/Decode/LaunchPlan.h"
#include "mla/Decode/Problem.h"
#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Status.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace mla::runtime {
struct KernelInfo;
struct Manifest;
} // namespace mla::runtime

namespace mla::decode {

using runtime::Backend;
using runtime::DeviceBuffer;
using runtime::KernelInfo;
using runtime::Manifest;
using runtime::Status;

/// The argument names the driver binds (docs/ABI.md, "MLA decode kernels").
enum class MlaArg {
  Q,
  Kv,
  KvScale,
  ScaleStride,
  QoIndptr,
  KvIndptr,
  Work,
  WorkIndptr,
  Combine,
  PartOut,
  PartLse,
  Out,
  SmScale,
  Heads,
  NumArgs
};

/// The most copies of the inputs a benchmark cycles through.
constexpr int64_t kMaxRotationCopies = 512;

/// The split cap of a partial kernel whose launch has no max_splits.
constexpr int64_t kDefaultMaxSplits = 16;

/// The kernels of a module that compute MLA decode for one KV format and
/// head count, and the launch keys the plan follows.
struct MlaKernels {
  const KernelInfo *partial = nullptr;
  const KernelInfo *combine = nullptr;
  /// The partial kernel's launch.kv_tile: the plan aligns its ranges to it.
  int64_t kvTile = 64;
  /// launch.block_rows of the partial and of the combine kernel: query
  /// rows per program.
  int64_t blockRows = 64;
  int64_t combineBlockRows = 16;
  /// The partial kernel's launch.max_splits, else kDefaultMaxSplits.
  int64_t maxSplits = kDefaultMaxSplits;
};

/// Selects the kernel whose launch.role is mla.partial with launch.heads ==
/// `heads` and launch.kv_dtype == the dtype's name, and the mla.combine
/// kernel (whose heads and kv_dtype, when present, must match too), and
/// checks that the driver can bind every argument: a known name with the
/// kind and element type of the ABI table. Of several kernels of a role
/// that match, each with its own launch.block_rows, the one with the fewest
/// rows that hold `queryRows` (the batch's largest q_len * heads) is taken,
/// else the one with the most. Errors name the manifest: no match, two
/// with the same block_rows, a missing or out-of-range launch key, a grid
/// quantity the driver does not compute, an unknown or ill-typed argument,
/// or a kernel without the arguments its role writes through.
Status selectMlaKernels(const Manifest &manifest, KvDType kvDType,
                        int64_t heads, int64_t queryRows, MlaKernels &kernels);

/// The plan options for `problem` on `kernels` in `mode`, with the cost
/// model of a device running `parallelism` programs at once.
PlanOptions planOptionsFor(const MlaProblem &problem, const MlaKernels &kernels,
                           PlanMode mode, int64_t parallelism);

/// One problem bound to one backend's kernels.
class MlaDriver {
public:
  MlaDriver(Backend &backend, const MlaKernels &kernels,
            const MlaProblem &problem, const LaunchPlan &plan);

  /// Binds every argument of both kernels by name, checking kind and
  /// element type, then uploads the inputs the kernels take.
  Status prepare();
  /// Fills the outputs and partial buffers with NaN (so unwritten elements
  /// show), launches the partial then, when the plan has combine items, the
  /// combine kernel, and waits.
  Status run();
  /// Copies the output back: [totalQ, heads, 512] bf16 bits.
  Status readOutput(std::vector<uint16_t> &out);
  /// Runs `warmup` untimed launches, then times `iterations` launches of
  /// the partial and combine kernels queued back to back
  /// (Backend::timeQueued); returns their median. The launches cycle
  /// through copies of the inputs they stream (q, the KV cache and its
  /// scales) such that the other copies a launch reads before its own comes
  /// round again total at least `rotationBytes`, so that no launch finds its
  /// inputs in a cache as large (at most kMaxRotationCopies); `copies` is
  /// how many there were.
  Status benchmark(int64_t warmup, int64_t iterations, size_t rotationBytes,
                   double &medianMicroseconds, int64_t &copies);
  /// As benchmark, but each call does, inside its timed region, what a
  /// caller that plans on the host does for every batch: it reads the
  /// indptrs back from the device, plans with `options`, uploads the plan's
  /// tables and launches; and each call is timed alone, its launches
  /// included, as a whole call is.
  Status benchmarkWholeCall(const PlanOptions &options, int64_t warmup,
                            int64_t iterations, size_t rotationBytes,
                            double &medianMicroseconds);

private:
  /// The storage of one argument value; args[i] points at slots[i].
  union ArgSlot {
    void *pointer;
    int32_t i32;
    float f32;
  };

  /// A kernel with its arguments bound and its grid computed.
  struct BoundKernel {
    const KernelInfo *kernel = nullptr;
    std::array<int64_t, 3> grid = {0, 0, 0};
    std::vector<ArgSlot> slots;
    std::vector<void *> args;
    /// What each argument is.
    std::vector<MlaArg> roles;
  };

  Status bindKernel(const KernelInfo &kernel, BoundKernel &bound);
  Status computeGrid(const KernelInfo &kernel, std::array<int64_t, 3> &grid);
  /// Allocates and fills the buffer of pointer argument `arg` the first
  /// time a kernel takes it.
  Status materialize(MlaArg arg);
  /// Allocates `buffer` for pointer argument `arg` and, for an input,
  /// copies the host data in.
  Status allocateInput(MlaArg arg, DeviceBuffer &buffer);
  /// Fills out, part_out and part_lse with NaN bits.
  Status poisonOutputs();
  Status launchBoth();
  /// The plan of the device's indptrs with `options`, uploaded over the
  /// bound plan's tables (which it must match in size).
  Status replan(const PlanOptions &options);
  /// Runs `warmup` calls, then times `iterations` calls, queued or each
  /// alone, cycling through copies of the streamed inputs (benchmark).
  Status timeCalls(int64_t warmup, int64_t iterations, size_t rotationBytes,
                   bool queued, const std::function<Status()> &call,
                   double &medianMicroseconds, int64_t &copies);

  Backend &backend;
  MlaKernels kernels;
  const MlaProblem &problem;
  const LaunchPlan &plan;
  /// Indexed by MlaArg; scalar arguments leave their entry empty.
  std::array<DeviceBuffer, static_cast<size_t>(MlaArg::NumArgs)> buffers;
  BoundKernel partial;
  BoundKernel combine;
};

} // namespace mla::decode

#endif // MLA_DECODE_MLADRIVER_H
