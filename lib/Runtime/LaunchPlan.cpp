//===- LaunchPlan.cpp - Split-KV work distribution ------------------------===//

#include "mla/Runtime/LaunchPlan.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <set>

namespace mla::runtime {

const char *planModeName(PlanMode mode) {
  switch (mode) {
  case PlanMode::Reproducible:
    return "reproducible";
  case PlanMode::Throughput:
    return "throughput";
  }
  return "?";
}

bool parsePlanMode(std::string_view name, PlanMode &mode) {
  for (PlanMode candidate : {PlanMode::Reproducible, PlanMode::Throughput}) {
    if (name == planModeName(candidate)) {
      mode = candidate;
      return true;
    }
  }
  return false;
}

int64_t LaunchPlan::partialBytes() const {
  return partRows * (512 + 1) * static_cast<int64_t>(sizeof(float));
}

namespace {

/// The per-sequence facts the planner works from.
struct Sequence {
  int32_t index;
  int32_t kvBegin;
  int64_t kvLen;
  /// Query rows: q_len * heads.
  int64_t rows;
  /// KV tiles: ceil(kvLen / kvTile).
  int64_t tiles;
};

/// A min-heap of the times at which the device's program slots become free.
class SlotReplay {
public:
  /// `slots` program slots for `programs` programs: slots beyond the
  /// programs' count would stay idle.
  SlotReplay(int64_t slots, size_t programs) {
    slots =
        std::max<int64_t>(1, std::min(slots, static_cast<int64_t>(programs)));
    for (int64_t i = 0; i < slots; ++i)
      freeAt.push(0.0);
  }

  /// Starts a program of `cost` on the earliest free slot.
  void dispatch(double cost) {
    double finish = freeAt.top() + cost;
    freeAt.pop();
    freeAt.push(finish);
    makespan = std::max(makespan, finish);
  }

  double finish() const { return makespan; }

private:
  std::priority_queue<double, std::vector<double>, std::greater<double>> freeAt;
  double makespan = 0;
};

} // namespace

/// ceil(a / b) for a >= 0 and b >= 1, without overflow.
static int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/// The number of ranges of `seq` when ranges have at most `chunkTiles`
/// tiles.
static int64_t splitCount(const Sequence &seq, int64_t chunkTiles,
                          int64_t maxSplits) {
  if (seq.tiles == 0)
    return 1;
  return std::min(maxSplits, ceilDiv(seq.tiles, chunkTiles));
}

/// Appends the work items of `seq` cut into `splits` consecutive tile-aligned
/// ranges whose tile counts differ by at most one; `partBase` is the
/// sequence's first part row when splits > 1.
static void appendWorkItems(const Sequence &seq, int64_t splits,
                            int64_t partBase, const PlanOptions &options,
                            std::vector<WorkItem> &items) {
  int64_t baseTiles = seq.tiles / splits, extraTiles = seq.tiles % splits;
  int64_t start = 0;
  for (int64_t split = 0; split < splits; ++split) {
    int64_t tiles = baseTiles + (split < extraTiles ? 1 : 0);
    int64_t end = std::min(seq.kvLen, start + tiles * options.kvTile);
    int64_t partRow = splits > 1 ? partBase + split * seq.rows : -1;
    for (int64_t row = 0; row < seq.rows; row += options.blockRows)
      items.push_back({seq.index, static_cast<int32_t>(seq.kvBegin + start),
                       static_cast<int32_t>(seq.kvBegin + end),
                       static_cast<int32_t>(split),
                       static_cast<int32_t>(splits), static_cast<int32_t>(row),
                       static_cast<int32_t>(partRow), 0});
    start = end;
  }
}

/// Appends the combine items of `seq`, which has `splits` > 1 ranges.
static void appendCombineItems(const Sequence &seq, int64_t splits,
                               int64_t partBase, int64_t outBase,
                               const PlanOptions &options,
                               std::vector<CombineItem> &items) {
  for (int64_t row = 0; row < seq.rows; row += options.combineBlockRows)
    items.push_back({static_cast<int32_t>(partBase + row),
                     static_cast<int32_t>(outBase + row),
                     static_cast<int32_t>(
                         std::min(options.combineBlockRows, seq.rows - row)),
                     static_cast<int32_t>(splits),
                     static_cast<int32_t>(seq.rows),
                     {0, 0, 0}});
}

/// Sorts work items longest range first, then by sequence, split and row
/// block, so that the blocks of one range stay adjacent.
static void sortLongestFirst(std::vector<WorkItem> &items) {
  std::sort(
      items.begin(), items.end(), [](const WorkItem &a, const WorkItem &b) {
        int32_t lengthA = a.kvEnd - a.kvBegin, lengthB = b.kvEnd - b.kvBegin;
        if (lengthA != lengthB)
          return lengthA > lengthB;
        if (a.seq != b.seq)
          return a.seq < b.seq;
        return a.split != b.split ? a.split < b.split : a.rowBegin < b.rowBegin;
      });
}

/// Bytes a program writes per query row: bf16 output for a sequence with
/// one split, else a partial output and its log-sum-exp.
static int64_t writtenRowBytes(int64_t splits, const PlanOptions &options) {
  return splits == 1 ? options.outRowBytes : options.partialRowBytes;
}

/// Bytes a partial program of `rows` query rows over `keys` KV rows moves.
static double partialCost(int64_t keys, int64_t rows, int64_t splits,
                          const PlanOptions &options) {
  return static_cast<double>(keys) * options.kvRowBytes +
         static_cast<double>(rows) *
             (options.queryRowBytes + writtenRowBytes(splits, options)) +
         static_cast<double>(options.programLatencyBytes);
}

/// Bytes a combine program of `rows` rows over `splits` splits moves.
static double combineCost(int64_t rows, int64_t splits,
                          const PlanOptions &options) {
  return static_cast<double>(rows) *
             (static_cast<double>(splits) * options.partialRowBytes +
              options.outRowBytes) +
         static_cast<double>(options.programLatencyBytes);
}

/// The cost model's duration of a plan: its partial programs dispatched in
/// list order onto the earliest free slot, then its combine programs the
/// same way.
static double estimateCost(const std::vector<WorkItem> &items,
                           const std::vector<CombineItem> &combineItems,
                           const std::vector<Sequence> &sequences,
                           const PlanOptions &options) {
  SlotReplay partial(options.parallelism, items.size());
  for (const WorkItem &item : items) {
    int64_t rows =
        std::min(options.blockRows, sequences[item.seq].rows - item.rowBegin);
    partial.dispatch(
        partialCost(item.kvEnd - item.kvBegin, rows, item.numSplits, options));
  }
  SlotReplay combine(options.parallelism, combineItems.size());
  for (const CombineItem &item : combineItems)
    combine.dispatch(combineCost(item.rows, item.numSplits, options));
  return partial.finish() + combine.finish();
}

/// A bound below the estimated duration when every sequence is cut into
/// ranges of `chunkTiles`: perfect balance, or the longest program alone.
static double lowerBound(const std::vector<Sequence> &sequences,
                         int64_t chunkTiles, const PlanOptions &options) {
  double partialTotal = 0, longest = 0, combineTotal = 0;
  double latency = static_cast<double>(options.programLatencyBytes);
  for (const Sequence &seq : sequences) {
    if (seq.rows == 0)
      continue;
    int64_t splits = splitCount(seq, chunkTiles, options.maxSplits);
    double blocks = static_cast<double>(ceilDiv(seq.rows, options.blockRows));
    double rows = static_cast<double>(seq.rows);
    // Every row block reads all of the sequence's keys once.
    partialTotal +=
        blocks * static_cast<double>(seq.kvLen) * options.kvRowBytes +
        splits *
            (rows * (options.queryRowBytes + writtenRowBytes(splits, options)) +
             blocks * latency);
    int64_t piece =
        std::min(seq.kvLen, ceilDiv(seq.tiles, splits) * options.kvTile);
    longest = std::max(longest,
                       partialCost(piece, std::min(options.blockRows, seq.rows),
                                   splits, options));
    if (splits > 1)
      combineTotal +=
          rows * (splits * static_cast<double>(options.partialRowBytes) +
                  options.outRowBytes) +
          static_cast<double>(ceilDiv(seq.rows, options.combineBlockRows)) *
              latency;
  }
  return std::max(partialTotal / options.parallelism, longest) +
         combineTotal / options.parallelism;
}

/// The work and combine lists when sequence i has splits[i] ranges.
static Status buildPlan(const std::vector<Sequence> &sequences,
                        const std::vector<int64_t> &splits,
                        const std::vector<int32_t> &qoIndptr,
                        const PlanOptions &options, LaunchPlan &plan) {
  plan.items.clear();
  plan.combineItems.clear();
  plan.numSplits.assign(sequences.size(), 0);
  plan.partBase.assign(sequences.size(), -1);
  plan.partRows = 0;
  plan.maxSplitsUsed = 0;
  // One program per work item: the count is a grid dimension, checked
  // before the list is built.
  int64_t workItems = 0;
  for (const Sequence &seq : sequences) {
    if (seq.rows == 0)
      continue;
    int64_t n = splits[seq.index];
    workItems += n * ceilDiv(seq.rows, options.blockRows);
    if (workItems > INT32_MAX)
      return Status::failure("launch plan",
                             "more than 2^31 - 1 work items (a larger "
                             "block_rows, fewer splits or a smaller batch)");
    int64_t base = -1;
    if (n > 1) {
      base = plan.partRows;
      plan.partRows += n * seq.rows;
      if (plan.partRows > INT32_MAX)
        return Status::failure(
            "launch plan", "the partial buffers would need more than 2^31 - 1 "
                           "rows (fewer splits or a smaller batch)");
      appendCombineItems(seq, n, base, qoIndptr[seq.index] * options.heads,
                         options, plan.combineItems);
    }
    appendWorkItems(seq, n, base, options, plan.items);
    plan.numSplits[seq.index] = static_cast<int32_t>(n);
    plan.partBase[seq.index] = base;
    plan.maxSplitsUsed = std::max(plan.maxSplitsUsed, n);
  }
  sortLongestFirst(plan.items);
  return Status::success();
}

Status planSplitKv(const std::vector<int32_t> &qoIndptr,
                   const std::vector<int32_t> &kvIndptr,
                   const PlanOptions &options, LaunchPlan &plan) {
  // Beyond 2^31 a tile or block is longer than any sequence, so clamping
  // changes nothing and keeps products of counts within int64.
  auto clamp = [](int64_t value) {
    return std::clamp<int64_t>(value, 1, INT32_MAX);
  };
  PlanOptions opts = options;
  opts.parallelism = clamp(opts.parallelism);
  opts.maxSplits = clamp(opts.maxSplits);
  opts.kvTile = clamp(opts.kvTile);
  opts.blockRows = clamp(opts.blockRows);
  opts.combineBlockRows = clamp(opts.combineBlockRows);
  opts.heads = clamp(opts.heads);

  LaunchPlan result;
  result.mode = opts.mode;
  int64_t batch = static_cast<int64_t>(qoIndptr.size()) - 1;
  if (batch >= 0 &&
      static_cast<int64_t>(qoIndptr.back()) * opts.heads > INT32_MAX)
    return Status::failure("launch plan",
                           "more than 2^31 - 1 query rows (tokens times "
                           "heads)");
  std::vector<Sequence> sequences;
  for (int32_t b = 0; b < batch; ++b) {
    Sequence seq{
        b, kvIndptr[b], kvIndptr[b + 1] - kvIndptr[b],
        static_cast<int64_t>(qoIndptr[b + 1] - qoIndptr[b]) * opts.heads, 0};
    seq.tiles = ceilDiv(seq.kvLen, opts.kvTile);
    sequences.push_back(seq);
  }

  std::vector<int64_t> splits(sequences.size(), 1);
  int64_t chunkTiles = ceilDiv(kReproducibleSplitRows, opts.kvTile);
  if (opts.mode == PlanMode::Throughput) {
    // The split count of a sequence changes only where the chunk crosses
    // ceil(tiles / n), so those are the only chunks worth trying.
    std::set<int64_t, std::greater<int64_t>> candidates;
    for (const Sequence &seq : sequences)
      if (seq.rows > 0)
        for (int64_t n = 1; n <= std::min(opts.maxSplits, seq.tiles); ++n)
          candidates.insert(ceilDiv(seq.tiles, n));
    // Prefer fewer work items unless more of them win clearly: the model
    // ignores caches and the combine's launch.
    constexpr double kRequiredGain = 0.99;
    double bestCost = 0;
    int64_t bestChunkTiles = 0;
    for (int64_t candidate : candidates) {
      if (bestChunkTiles &&
          lowerBound(sequences, candidate, opts) >= bestCost * kRequiredGain)
        continue;
      for (const Sequence &seq : sequences)
        splits[seq.index] = splitCount(seq, candidate, opts.maxSplits);
      // Too many part rows: shorter ranges only need more.
      if (buildPlan(sequences, splits, qoIndptr, opts, result))
        break;
      double cost =
          estimateCost(result.items, result.combineItems, sequences, opts);
      if (!bestChunkTiles || cost < bestCost * kRequiredGain) {
        bestCost = cost;
        bestChunkTiles = candidate;
      }
    }
    // Without a sequence to split every candidate is the same.
    if (bestChunkTiles)
      chunkTiles = bestChunkTiles;
  }

  for (const Sequence &seq : sequences)
    splits[seq.index] = splitCount(seq, chunkTiles, opts.maxSplits);
  if (Status s = buildPlan(sequences, splits, qoIndptr, opts, result))
    return s;
  result.chunkRows = chunkTiles * opts.kvTile;
  result.estimatedCost =
      estimateCost(result.items, result.combineItems, sequences, opts);
  plan = std::move(result);
  return Status::success();
}

} // namespace mla::runtime
