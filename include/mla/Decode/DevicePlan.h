//===- DevicePlan.h - The launch plan made by the plan kernel ---*- C++ -*-===//
//
// A caller that must not wait for the device (a PyTorch call, a leaderboard
// submission) cannot read the indptrs back to plan on the host. The
// module's mla.plan kernel makes the reproducible plan where the indptrs
// live instead (docs/ABI.md, "The plan on the device"). Its tables are
// sized by capacities that follow from the tensors' shapes alone: the
// partial kernel runs one program per work item the capacity allows, the
// surplus with empty runs, and the combine kernel skips the zeroed rows
// past the plan's.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DECODE_DEVICEPLAN_H
#define MLA_DECODE_DEVICEPLAN_H

#include "mla/Decode/LaunchPlan.h"
#include "mla/Runtime/Status.h"

#include <cstdint>
#include <vector>

namespace mla::runtime {
class Backend;
struct KernelInfo;
struct Manifest;
} // namespace mla::runtime

namespace mla::decode {

using runtime::Backend;
using runtime::KernelInfo;
using runtime::Manifest;
using runtime::Status;

/// The most work items, combine items and part rows that the reproducible
/// plan of any batch of `batch` sequences, `totalQ` query tokens and
/// `totalKv` keys can need.
struct PlanCapacity {
  int64_t workItems = 0;
  int64_t combineItems = 0;
  int64_t partRows = 0;
};

/// The capacities for a batch of these shapes planned with `options`;
/// fails when one would not fit the kernels' int32 fields or a grid.
Status planCapacity(int64_t batch, int64_t totalQ, int64_t totalKv,
                    const PlanOptions &options, PlanCapacity &capacity);

/// The kernel of `manifest` whose launch.role is mla.plan, with the
/// arguments it must have; fails naming what is missing.
Status selectPlanKernel(const Manifest &manifest, const KernelInfo *&kernel);

/// Runs `kernel` on `backend` over the indptrs (uploaded for it) and
/// returns its tables as a plan of the capacities' sizes: work_indptr
/// padded with the item count, combine items padded with zero rows, and
/// partRows the capacity.
Status planOnDevice(Backend &backend, const KernelInfo &kernel,
                    const std::vector<int32_t> &qoIndptr,
                    const std::vector<int32_t> &kvIndptr, int64_t totalKv,
                    const PlanOptions &options, LaunchPlan &plan);

/// Fails, naming the first difference, unless the device's padded plan
/// holds exactly `host`'s work items, work_indptr and combine items, with
/// only the padding described above after them.
Status compareWithHostPlan(const LaunchPlan &device, const LaunchPlan &host);

} // namespace mla::decode

#endif // MLA_DECODE_DEVICEPLAN_H
