//===- LaunchPlan.h - Split-KV work distribution ----------------*- C++ -*-===//
//
// Decode has few queries and long KV caches, so one program per sequence
// leaves most of a GPU idle. The plan cuts each sequence's KV rows into
// ranges (splits) and its flattened (token, head) query rows into blocks;
// a (range, block) pair is a work item, each partial program runs a run of
// consecutive work items, and a combine program merges the splits of a
// block of rows (docs/ABI.md, "MLA decode kernels").
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DECODE_LAUNCHPLAN_H
#define MLA_DECODE_LAUNCHPLAN_H

#include "mla/Runtime/Status.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace mla::decode {

using runtime::Status;

/// How split boundaries are chosen.
enum class PlanMode {
  /// A sequence's splits depend only on its KV length, the KV tile and the
  /// split cap, so outputs are bitwise identical across runs, thread
  /// counts, devices and batch compositions.
  Reproducible,
  /// As reproducible, but the ranges are about the batch's work divided by
  /// `parallelism` long, instead of kReproducibleSplitRows: a small batch
  /// still fills the device. Splits depend on the batch. The plan kernel
  /// makes it on the device too.
  Balanced,
  /// About as many programs as the device runs at once, each a contiguous
  /// run of the batch's (sequence, row block, KV tile) triples of equal
  /// estimated cost: a row block is split only where a run ends inside it.
  Throughput,
};

/// "reproducible", "balanced" or "throughput".
const char *planModeName(PlanMode mode);

/// One row of the `work` argument: a range of one sequence's keys for one
/// block of its query rows.
struct WorkItem {
  int32_t seq;
  /// Absolute rows of kv: [kvBegin, kvEnd), possibly empty.
  int32_t kvBegin;
  int32_t kvEnd;
  /// Index of the range among its row block's, 0..numSplits - 1; the
  /// block's range count.
  int32_t split;
  int32_t numSplits;
  /// First query row of the block, a multiple of the block size; rows are
  /// the sequence's flattened (token, head) pairs j * heads + h.
  int32_t rowBegin;
  /// numSplits > 1: the part_out/part_lse row of the sequence's row 0 for
  /// this split; -1 when the program writes `out` directly.
  int32_t partRow;
  int32_t reserved;
};
static_assert(sizeof(WorkItem) == 8 * sizeof(int32_t),
              "WorkItem must match the [work_items, 8] int32 layout");

/// One row of the `combine` argument: merges the splits of up to one
/// combine block of rows.
struct CombineItem {
  /// The part row of the block's first row in split 0.
  int32_t partRow;
  /// The block's first row in the [total_q * heads, 512] view of out.
  int32_t outRow;
  int32_t rows;
  int32_t numSplits;
  /// Part rows between consecutive splits of a row (the sequence's
  /// q_len * heads).
  int32_t splitStride;
  int32_t reserved[3];
};
static_assert(sizeof(CombineItem) == 8 * sizeof(int32_t),
              "CombineItem must match the [combine_items, 8] int32 layout");

/// What the plan is for: the kernels' tiling, the cap on splits, and the
/// throughput mode's cost model. Decode is bound by memory traffic, so
/// costs are bytes moved, and fixed costs are expressed as bytes too.
struct PlanOptions {
  PlanMode mode = PlanMode::Reproducible;
  int64_t heads = 16;
  /// Range boundaries fall on multiples of the partial kernel's KV tile,
  /// counted from the sequence's first row.
  int64_t kvTile = 64;
  /// Query rows per partial program and per combine program.
  int64_t blockRows = 64;
  int64_t combineBlockRows = 16;
  /// The most ranges per sequence.
  int64_t maxSplits = 16;

  /// Programs the device runs at once: host threads, or SMs/CUs times the
  /// partial kernel's programs resident on each. Throughput mode only.
  int64_t parallelism = 1;
  /// Bytes of one KV row, scales included.
  int64_t kvRowBytes = 1152;
  /// Bytes a program reads per query row, and writes per row to `out` or
  /// to the partial buffers (output and log-sum-exp).
  int64_t queryRowBytes = 0;
  int64_t outRowBytes = 0;
  int64_t partialRowBytes = 0;
  /// A program's start-up and tail latency, as bytes it could have moved
  /// meanwhile.
  int64_t programLatencyBytes = 0;
};

/// The work lists of one launch and the partial buffers they need.
struct LaunchPlan {
  PlanMode mode = PlanMode::Reproducible;
  /// The row blocks of one range are adjacent. Reproducible: one item per
  /// program, longest ranges first, so that the device's in-order dispatch
  /// starts the long programs early. Throughput: in sequence order, a
  /// sequence's row blocks in turn.
  std::vector<WorkItem> items;
  /// Program p of the partial kernel runs items [workIndptr[p],
  /// workIndptr[p + 1]); programs() + 1 entries, from 0.
  std::vector<int32_t> workIndptr = {0};
  /// One per combine row block of the rows split more than once; none
  /// straddles two partial row blocks of different split counts.
  std::vector<CombineItem> combineItems;
  /// Per sequence: the most ranges of any of its row blocks (1 for a
  /// sequence with queries but no KV rows, 0 for one without queries).
  std::vector<int32_t> numSplits;
  /// Per sequence: the part row of its split 0's row 0, -1 when it has a
  /// single split.
  std::vector<int64_t> partBase;
  /// Rows of part_out ([partRows, 512] f32) and part_lse ([partRows] f32).
  int64_t partRows = 0;
  /// The largest split count of any sequence.
  int64_t maxSplitsUsed = 0;

  /// Partial programs.
  int64_t programs() const {
    return static_cast<int64_t>(workIndptr.size()) - 1;
  }
  /// Bytes of part_out and part_lse together.
  int64_t partialBytes() const;
};

/// KV rows per split that the reproducible mode aims at: a sequence of L
/// rows gets ceil(L / chunk) splits (at most the cap), chunk being this
/// rounded up to a multiple of the KV tile.
constexpr int64_t kReproducibleSplitRows = 1024;

/// The KV tiles per range the reproducible and balanced modes aim at
/// (`tiles` and `blocks` per sequence with queries): the reproducible
/// chunk, or the batch's tile reads (each tile once per row block) divided
/// by the parallelism, rounded up, at least one. A sequence of t tiles gets
/// ceil(t / chunk) ranges in the reproducible mode and floor(t / chunk) in
/// the balanced one, at least one and at most the cap.
int64_t chunkTilesFor(const PlanOptions &options,
                      const std::vector<int64_t> &tiles,
                      const std::vector<int64_t> &blocks);

/// Plans the split-KV launch of the batch given by its indptrs.
///
/// Each row block of a sequence with queries is cut into n <= maxSplits
/// consecutive tile-aligned ranges (a sequence without KV rows gets one
/// empty range); every (range, block) is a work item. Reproducible mode
/// takes n from the sequence's own length (kReproducibleSplitRows, tile
/// counts differing by at most one), gives all its blocks the same ranges
/// and each work item its own program. Throughput mode lays the row
/// blocks' tiles end to end, in batch order, and cuts that line into at
/// most `parallelism` runs of about equal cost (the bytes the programs
/// move, each range costing a program's latency and its query and output
/// rows on top of its tiles); the ranges are the pieces of the blocks
/// between cuts. Fails when a row index of the plan would not fit the
/// kernels' int32 fields, or the work items a grid dimension.
Status planSplitKv(const std::vector<int32_t> &qoIndptr,
                   const std::vector<int32_t> &kvIndptr,
                   const PlanOptions &options, LaunchPlan &plan);

} // namespace mla::decode

#endif // MLA_DECODE_LAUNCHPLAN_H
