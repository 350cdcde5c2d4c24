//===- LaunchPlan.cpp - Split-KV work distribution ------------------------===//

#include "mla/Runtime/LaunchPlan.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <set>

namespace mla::runtime {

namespace {

/// The per-sequence facts the planner works from.
struct Sequence {
  int32_t index;
  int32_t kvBegin;
  int64_t kvLen;
  int64_t qLen;
  int64_t tiles;
};

} // namespace

/// The ranges of one sequence for a given chunk length in tiles.
static int64_t splitCount(const Sequence &seq, int64_t chunkTiles,
                          int64_t maxSplits) {
  return std::min(maxSplits, (seq.tiles + chunkTiles - 1) / chunkTiles);
}

/// Cuts `seq` into `splits` consecutive tile-aligned ranges whose tile counts
/// differ by at most one.
static void appendRanges(const Sequence &seq, int64_t splits, int64_t kvTile,
                         std::vector<WorkItem> &items) {
  int64_t baseTiles = seq.tiles / splits, extraTiles = seq.tiles % splits;
  int64_t start = 0;
  for (int64_t split = 0; split < splits; ++split) {
    int64_t tiles = baseTiles + (split < extraTiles ? 1 : 0);
    int64_t end = std::min(seq.kvLen, start + tiles * kvTile);
    items.push_back({seq.index, static_cast<int32_t>(seq.kvBegin + start),
                     static_cast<int32_t>(seq.kvBegin + end),
                     static_cast<int32_t>(split)});
    start = end;
  }
}

/// Sorts work items longest first, then by sequence and split.
static void sortLongestFirst(std::vector<WorkItem> &items) {
  std::sort(
      items.begin(), items.end(), [](const WorkItem &a, const WorkItem &b) {
        int32_t lengthA = a.kvEnd - a.kvBegin, lengthB = b.kvEnd - b.kvBegin;
        if (lengthA != lengthB)
          return lengthA > lengthB;
        return a.seq != b.seq ? a.seq < b.seq : a.split < b.split;
      });
}

/// The cost model's duration of `items`: the partial programs dispatched in
/// launch order (query index major, work item minor, as a GPU walks the grid
/// (work_items, max_q_len)) onto the earliest free slot, then the combine's
/// traffic spread over all slots.
static double estimateCost(const std::vector<WorkItem> &items,
                           const std::vector<Sequence> &sequences,
                           int64_t maxQLen, const PlanOptions &options) {
  std::priority_queue<double, std::vector<double>, std::greater<double>> slots;
  for (int64_t i = 0; i < options.parallelism; ++i)
    slots.push(0.0);
  double makespan = 0, combineBytes = 0;
  for (int64_t j = 0; j < maxQLen; ++j) {
    for (const WorkItem &item : items) {
      if (j >= sequences[item.seq].qLen)
        continue;
      double cost =
          static_cast<double>(item.kvEnd - item.kvBegin) * options.kvRowBytes +
          static_cast<double>(options.programOverheadBytes);
      double finish = slots.top() + cost;
      slots.pop();
      slots.push(finish);
      makespan = std::max(makespan, finish);
      combineBytes += static_cast<double>(options.combineBytesPerSplit);
    }
  }
  return makespan + combineBytes / static_cast<double>(options.parallelism);
}

LaunchPlan planSplitKv(const std::vector<int32_t> &qoIndptr,
                       const std::vector<int32_t> &kvIndptr,
                       const PlanOptions &options) {
  PlanOptions opts = options;
  opts.parallelism = std::max<int64_t>(1, opts.parallelism);
  opts.maxSplits = std::max<int64_t>(1, opts.maxSplits);
  opts.kvTile = std::max<int64_t>(1, opts.kvTile);

  LaunchPlan plan;
  int64_t batch = static_cast<int64_t>(qoIndptr.size()) - 1;
  plan.qSplits.assign(batch >= 0 ? qoIndptr.back() : 0, 0);
  // Indexed by sequence so that estimateCost can look up q lengths.
  std::vector<Sequence> sequences;
  std::vector<int32_t> active;
  int64_t maxQLen = 0;
  for (int32_t b = 0; b < batch; ++b) {
    Sequence seq{b, kvIndptr[b], kvIndptr[b + 1] - kvIndptr[b],
                 qoIndptr[b + 1] - qoIndptr[b], 0};
    seq.tiles = (seq.kvLen + opts.kvTile - 1) / opts.kvTile;
    sequences.push_back(seq);
    maxQLen = std::max(maxQLen, seq.qLen);
    if (seq.kvLen > 0 && seq.qLen > 0)
      active.push_back(b);
  }
  if (active.empty())
    return plan;

  // The split count of a sequence changes only where the chunk crosses
  // ceil(tiles / n), so those are the only chunks worth trying.
  std::set<int64_t, std::greater<int64_t>> candidates;
  for (int32_t b : active) {
    int64_t tiles = sequences[b].tiles;
    for (int64_t n = 1; n <= std::min(opts.maxSplits, tiles); ++n)
      candidates.insert((tiles + n - 1) / n);
  }

  // Prefer fewer work items unless more of them win clearly: the model
  // ignores caches and the combine's extra launch work.
  constexpr double kRequiredGain = 0.99;
  std::vector<WorkItem> items;
  double bestCost = 0;
  int64_t bestChunkTiles = 0;
  for (int64_t chunkTiles : candidates) {
    // Skip chunks whose ideal schedule (perfect balance, or the longest
    // program alone) cannot beat the best so far.
    double total = 0, longest = 0;
    for (int32_t b : active) {
      const Sequence &seq = sequences[b];
      int64_t splits = splitCount(seq, chunkTiles, opts.maxSplits);
      double rows = static_cast<double>(seq.kvLen);
      double piece = static_cast<double>(
          std::min(seq.kvLen, (seq.tiles + splits - 1) / splits * opts.kvTile));
      total +=
          seq.qLen * (rows * opts.kvRowBytes +
                      splits * static_cast<double>(opts.programOverheadBytes));
      longest = std::max(longest,
                         piece * opts.kvRowBytes + opts.programOverheadBytes);
    }
    double lowerBound = std::max(total / opts.parallelism, longest);
    if (bestChunkTiles && lowerBound >= bestCost * kRequiredGain)
      continue;

    items.clear();
    for (int32_t b : active)
      appendRanges(sequences[b],
                   splitCount(sequences[b], chunkTiles, opts.maxSplits),
                   opts.kvTile, items);
    sortLongestFirst(items);
    double cost = estimateCost(items, sequences, maxQLen, opts);
    if (!bestChunkTiles || cost < bestCost * kRequiredGain) {
      bestCost = cost;
      bestChunkTiles = chunkTiles;
    }
  }

  for (int32_t b : active) {
    const Sequence &seq = sequences[b];
    int64_t splits = splitCount(seq, bestChunkTiles, opts.maxSplits);
    appendRanges(seq, splits, opts.kvTile, plan.items);
    plan.maxSplitsUsed = std::max(plan.maxSplitsUsed, splits);
    for (int32_t row = qoIndptr[b]; row < qoIndptr[b + 1]; ++row)
      plan.qSplits[row] = static_cast<int32_t>(splits);
  }
  sortLongestFirst(plan.items);
  plan.chunkRows = bestChunkTiles * opts.kvTile;
  plan.estimatedCost = bestCost;
  return plan;
}

} // namespace mla::runtime
