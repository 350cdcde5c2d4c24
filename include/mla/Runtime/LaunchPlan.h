//===- LaunchPlan.h - Split-KV work distribution ----------------*- C++ -*-===//
//
// Decode has few queries and long KV caches, so one program per sequence
// leaves most of a GPU idle. The plan cuts each sequence's KV rows into
// ranges (splits) that partial kernels process in parallel; a combine kernel
// merges them (docs/ABI.md, "MLA decode kernels").
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_LAUNCHPLAN_H
#define MLA_RUNTIME_LAUNCHPLAN_H

#include <cstdint>
#include <vector>

namespace mla::runtime {

/// One row of the `work` argument: a range of one sequence's KV rows.
struct WorkItem {
  int32_t seq;
  /// Absolute rows of kv: [kvBegin, kvEnd).
  int32_t kvBegin;
  int32_t kvEnd;
  /// Index of the range within its sequence, 0..q_splits - 1.
  int32_t split;
};
static_assert(sizeof(WorkItem) == 4 * sizeof(int32_t),
              "WorkItem must match the [work_items, 4] int32 layout");

/// The cost model. Decode is bound by memory traffic, so costs are bytes
/// moved, and a program's fixed costs are expressed as bytes too.
struct PlanOptions {
  /// Programs the device runs at once: host threads, or SMs/CUs times the
  /// programs resident on each.
  int64_t parallelism = 1;
  /// The most ranges per sequence (the kernels' launch.max_splits).
  int64_t maxSplits = 1;
  /// Range boundaries fall on multiples of the kernels' KV tile, counted
  /// from the sequence's first row.
  int64_t kvTile = 64;
  /// Bytes of one KV row, scales included.
  int64_t kvRowBytes = 1152;
  /// Fixed bytes of one partial program (one query token of one work item):
  /// loading the query, writing the partial result, and start-up latency.
  int64_t programOverheadBytes = 0;
  /// Bytes the combine moves per query token and split.
  int64_t combineBytesPerSplit = 0;
};

/// The work items of one launch and the split count of every query row.
struct LaunchPlan {
  /// Longest ranges first, so that the device's in-order dispatch starts the
  /// long programs early.
  std::vector<WorkItem> items;
  /// [total_q]: the number of ranges of the row's sequence (0 when it has no
  /// KV rows).
  std::vector<int32_t> qSplits;
  /// The chosen range length in rows (ranges are at most this long).
  int64_t chunkRows = 0;
  /// The largest split count of any sequence.
  int64_t maxSplitsUsed = 0;
  /// The cost model's estimate of the launch's duration, in bytes of one
  /// program slot's traffic.
  double estimatedCost = 0;
};

/// Plans the split-KV launch. All sequences share one chunk length (a
/// multiple of the KV tile); a sequence is cut into ceil(len / chunk) ranges,
/// at most maxSplits, whose tile counts differ by at most one. The chunk is
/// the candidate with the lowest estimated duration, found by replaying the
/// launch's in-order dispatch onto `parallelism` program slots and adding
/// the combine's traffic; near-ties go to fewer work items. Sequences with
/// no KV rows or no queries get no work item.
LaunchPlan planSplitKv(const std::vector<int32_t> &qoIndptr,
                       const std::vector<int32_t> &kvIndptr,
                       const PlanOptions &options);

} // namespace mla::runtime

#endif // MLA_RUNTIME_LAUNCHPLAN_H
