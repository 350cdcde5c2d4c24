//===- LaunchPlan.cpp - Split-KV work distribution ------------------------===//

#include "mla/Decode/LaunchPlan.h"

#include <algorithm>
#include <cmath>

using namespace mla::runtime;

namespace mla::decode {

const char *planModeName(PlanMode mode) {
  switch (mode) {
  case PlanMode::Reproducible:
    return "reproducible";
  case PlanMode::Balanced:
    return "balanced";
  case PlanMode::Throughput:
    return "throughput";
  }
  return "?";
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
  /// Row blocks: ceil(rows / blockRows).
  int64_t blocks;
};

/// Where a lane's ranges start and end, in tiles from its sequence's first
/// key: 0 = cuts[0] < cuts[1] < ... < cuts[n] = tiles for n ranges, or
/// {0, 0} for the one empty range of a sequence without keys.
using Cuts = std::vector<int64_t>;

/// What the planner cuts into ranges: some consecutive row blocks of one
/// sequence, which then read the same ranges. Reproducible mode makes one
/// lane of all of a sequence's blocks, throughput mode one lane per block,
/// so that the blocks of a sequence with few, long ranges can run in
/// different programs.
struct Lane {
  const Sequence *seq;
  /// The lane's first row (a multiple of the block size) and its rows.
  int64_t rowBegin;
  int64_t rows;
  int64_t blocks;
  Cuts cuts;
};

} // namespace

/// ceil(a / b) for a >= 0 and b >= 1, without overflow.
static int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/// Reproducible and balanced cuts: tiles / chunkTiles ranges, rounded up
/// or down, at least one and at most the cap, whose tile counts differ by
/// at most one.
static Cuts evenCuts(const Sequence &seq, int64_t chunkTiles, bool roundDown,
                     int64_t maxSplits) {
  if (seq.tiles == 0)
    return {0, 0};
  int64_t wanted =
      roundDown ? seq.tiles / chunkTiles : ceilDiv(seq.tiles, chunkTiles);
  int64_t splits = std::clamp<int64_t>(wanted, 1, maxSplits);
  int64_t base = seq.tiles / splits, extra = seq.tiles % splits;
  Cuts cuts = {0};
  for (int64_t split = 0; split < splits; ++split)
    cuts.push_back(cuts.back() + base + (split < extra ? 1 : 0));
  return cuts;
}

/// Bytes one KV tile of `lane` costs its programs: every row block reads it.
static double tileCost(const Lane &lane, const PlanOptions &options) {
  return static_cast<double>(lane.blocks) * options.kvTile * options.kvRowBytes;
}

/// Bytes a range of `lane` costs besides its tiles: a program's latency per
/// row block and the query rows it reads; the bf16 output rows, or, for a
/// range of a split lane, the partial rows written and read again by the
/// combine.
static double rangeCost(const Lane &lane, bool split,
                        const PlanOptions &options) {
  double written = split ? 2.0 * options.partialRowBytes : options.outRowBytes;
  return static_cast<double>(lane.blocks) * options.programLatencyBytes +
         static_cast<double>(lane.rows) * (options.queryRowBytes + written);
}

/// The lanes' tiles end to end in batch order, cut greedily into runs of
/// at most `share` bytes, one per program; returns the number of programs.
/// `endRange(lane, tile)` is called where a range of `lane` ends (before
/// its tile `tile`), and `startProgram(ranges)` where a program after the
/// first starts, with the number of ranges before it.
///
/// A program takes a lane's remaining tiles whole when they fit its share
/// (within half a tile), else as many as fit, and the next program goes
/// on. No range but a lane's last is shorter than ceil(tiles / maxSplits)
/// tiles, so that no lane gets more than maxSplits ranges; a program may
/// exceed its share to keep to that.
template <typename EndRange, typename StartProgram>
static int64_t cutIntoShares(const std::vector<Lane> &lanes,
                             const PlanOptions &options, double share,
                             EndRange endRange, StartProgram startProgram) {
  int64_t programs = 1, ranges = 0;
  double used = 0;
  bool programEmpty = true;
  for (size_t l = 0; l < lanes.size(); ++l) {
    const Lane &lane = lanes[l];
    int64_t tiles = lane.seq->tiles;
    double tile = tileCost(lane, options);
    int64_t minTiles = std::max<int64_t>(1, ceilDiv(tiles, options.maxSplits));
    int64_t begin = 0;
    while (true) {
      int64_t left = tiles - begin;
      double whole = left * tile + rangeCost(lane, begin > 0, options);
      // An empty program takes what two ranges could not share.
      if (used + whole <= share + tile / 2 ||
          (programEmpty && left < 2 * minTiles)) {
        used += whole;
        endRange(l, tiles);
        ++ranges;
        programEmpty = false;
        break;
      }
      double room = share - used - rangeCost(lane, /*split=*/true, options);
      int64_t take =
          room > 0 ? static_cast<int64_t>(std::floor(room / tile)) : 0;
      if (programEmpty)
        take = std::max(take, minTiles);
      // Leave at least a range's worth for the next program.
      take = std::min(take, left - minTiles);
      if (take >= minTiles) {
        begin += take;
        endRange(l, begin);
        ++ranges;
      }
      startProgram(ranges);
      ++programs;
      used = 0;
      programEmpty = true;
    }
  }
  return ranges == 0 ? 0 : programs;
}

/// Throughput cuts: those of the smallest share (to a part in a thousand)
/// whose greedy cut needs at most `parallelism` programs, into each lane's
/// `cuts`. `programStarts` gets, per program, the index of its first range
/// in batch order.
static void throughputCuts(std::vector<Lane> &lanes, const PlanOptions &options,
                           std::vector<int64_t> &programStarts) {
  double total = 0;
  for (const Lane &lane : lanes)
    total += lane.seq->tiles * tileCost(lane, options) +
             rangeCost(lane, /*split=*/false, options);
  // The whole total in one share always fits: nothing is split. The search
  // only counts programs.
  auto nothing = [](auto &&...) {};
  double low = total / static_cast<double>(options.parallelism), high = total;
  while (high - low > high * 1e-3) {
    double share = 0.5 * (low + high);
    if (cutIntoShares(lanes, options, share, nothing, nothing) <=
        options.parallelism)
      high = share;
    else
      low = share;
  }
  for (Lane &lane : lanes)
    lane.cuts = {0};
  programStarts = {0};
  int64_t programs = cutIntoShares(
      lanes, options, high,
      [&](size_t l, int64_t end) { lanes[l].cuts.push_back(end); },
      [&](int64_t ranges) { programStarts.push_back(ranges); });
  if (programs == 0)
    programStarts.clear();
}

/// Appends the work items of `lane`, the row blocks of one range adjacent;
/// `partBase` is its sequence's first part row when the lane has several
/// ranges.
static void appendWorkItems(const Lane &lane, int64_t partBase,
                            const PlanOptions &options,
                            std::vector<WorkItem> &items) {
  const Sequence &seq = *lane.seq;
  int64_t splits = static_cast<int64_t>(lane.cuts.size()) - 1;
  for (int64_t split = 0; split < splits; ++split) {
    int64_t begin = std::min(seq.kvLen, lane.cuts[split] * options.kvTile);
    int64_t end = std::min(seq.kvLen, lane.cuts[split + 1] * options.kvTile);
    int64_t partRow = splits > 1 ? partBase + split * seq.rows : -1;
    for (int64_t row = lane.rowBegin; row < lane.rowBegin + lane.rows;
         row += options.blockRows)
      items.push_back({seq.index, static_cast<int32_t>(seq.kvBegin + begin),
                       static_cast<int32_t>(seq.kvBegin + end),
                       static_cast<int32_t>(split),
                       static_cast<int32_t>(splits), static_cast<int32_t>(row),
                       static_cast<int32_t>(partRow), 0});
  }
}

/// Appends the combine items of `lane`, which has `splits` > 1 ranges;
/// its sequence's part rows start at `partBase`, its output rows at
/// `outBase`.
static void appendCombineItems(const Lane &lane, int64_t splits,
                               int64_t partBase, int64_t outBase,
                               const PlanOptions &options,
                               std::vector<CombineItem> &items) {
  int64_t end = lane.rowBegin + lane.rows;
  for (int64_t row = lane.rowBegin; row < end; row += options.combineBlockRows)
    items.push_back(
        {static_cast<int32_t>(partBase + row),
         static_cast<int32_t>(outBase + row),
         static_cast<int32_t>(std::min(options.combineBlockRows, end - row)),
         static_cast<int32_t>(splits),
         static_cast<int32_t>(lane.seq->rows),
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

/// The lanes of the sequences with queries, in batch order: one per
/// sequence holding all its row blocks, or one per row block.
static std::vector<Lane> lanesOf(const std::vector<Sequence> &sequences,
                                 bool blockPerLane,
                                 const PlanOptions &options) {
  std::vector<Lane> lanes;
  for (const Sequence &seq : sequences) {
    if (seq.rows == 0)
      continue;
    if (!blockPerLane) {
      lanes.push_back({&seq, 0, seq.rows, seq.blocks, {}});
      continue;
    }
    for (int64_t row = 0; row < seq.rows; row += options.blockRows)
      lanes.push_back(
          {&seq, row, std::min(options.blockRows, seq.rows - row), 1, {}});
  }
  return lanes;
}

/// The work items (in lane order), combine items and partial buffers of
/// the lanes, each cut at its `cuts`. A sequence with a split lane gets
/// part rows for the most ranges of any of its lanes.
static Status buildItems(const std::vector<Sequence> &sequences,
                         const std::vector<Lane> &lanes,
                         const std::vector<int32_t> &qoIndptr,
                         const PlanOptions &options, LaunchPlan &plan) {
  plan.numSplits.assign(sequences.size(), 0);
  plan.partBase.assign(sequences.size(), -1);
  // The item count bounds a grid dimension, checked before the list is
  // built.
  int64_t workItems = 0;
  for (const Lane &lane : lanes) {
    workItems += (static_cast<int64_t>(lane.cuts.size()) - 1) * lane.blocks;
    int32_t &n = plan.numSplits[lane.seq->index];
    n = std::max<int32_t>(n, static_cast<int32_t>(lane.cuts.size() - 1));
    if (workItems > INT32_MAX)
      return Status::failure("launch plan",
                             "more than 2^31 - 1 work items (a larger "
                             "block_rows, fewer splits or a smaller batch)");
  }
  for (const Sequence &seq : sequences) {
    int64_t n = plan.numSplits[seq.index];
    if (n > 1) {
      plan.partBase[seq.index] = plan.partRows;
      plan.partRows += n * seq.rows;
      if (plan.partRows > INT32_MAX)
        return Status::failure(
            "launch plan", "the partial buffers would need more than 2^31 - 1 "
                           "rows (fewer splits or a smaller batch)");
    }
    plan.maxSplitsUsed = std::max(plan.maxSplitsUsed, n);
  }
  plan.items.reserve(workItems);
  for (const Lane &lane : lanes) {
    const Sequence &seq = *lane.seq;
    int64_t n = static_cast<int64_t>(lane.cuts.size()) - 1;
    int64_t base = plan.partBase[seq.index];
    if (n > 1)
      appendCombineItems(lane, n, base, qoIndptr[seq.index] * options.heads,
                         options, plan.combineItems);
    appendWorkItems(lane, base, options, plan.items);
  }
  return Status::success();
}

int64_t chunkTilesFor(const PlanOptions &options,
                      const std::vector<int64_t> &tiles,
                      const std::vector<int64_t> &blocks) {
  int64_t kvTile = std::max<int64_t>(options.kvTile, 1);
  if (options.mode != PlanMode::Balanced)
    return ceilDiv(kReproducibleSplitRows, kvTile);
  int64_t reads = 0;
  for (size_t i = 0; i < tiles.size(); ++i)
    reads += tiles[i] * blocks[i];
  return std::max<int64_t>(
      1, ceilDiv(reads, std::max<int64_t>(options.parallelism, 1)));
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
    Sequence seq{b,
                 kvIndptr[b],
                 kvIndptr[b + 1] - kvIndptr[b],
                 static_cast<int64_t>(qoIndptr[b + 1] - qoIndptr[b]) *
                     opts.heads,
                 0,
                 0};
    seq.tiles = ceilDiv(seq.kvLen, opts.kvTile);
    seq.blocks = ceilDiv(seq.rows, opts.blockRows);
    sequences.push_back(seq);
  }

  // Balanced mode is reproducible mode with another chunk, by which it
  // divides rounding down: its ranges then need at most `parallelism`
  // programs, but for sequences shorter than a chunk.
  bool reproducible = opts.mode != PlanMode::Throughput;
  std::vector<Lane> lanes = lanesOf(sequences, !reproducible, opts);
  std::vector<int64_t> programStarts;
  if (reproducible) {
    std::vector<int64_t> tiles, blocks;
    for (const Lane &lane : lanes) {
      tiles.push_back(lane.seq->tiles);
      blocks.push_back(lane.seq->blocks);
    }
    int64_t chunkTiles = chunkTilesFor(opts, tiles, blocks);
    for (Lane &lane : lanes)
      lane.cuts = evenCuts(*lane.seq, chunkTiles,
                           opts.mode == PlanMode::Balanced, opts.maxSplits);
    if (Status s = buildItems(sequences, lanes, qoIndptr, opts, result))
      return s;
  } else {
    // Fewer splits need fewer part rows and work items: the cap halves
    // until they fit the kernels' int32 fields.
    while (true) {
      throughputCuts(lanes, opts, programStarts);
      Status s = buildItems(sequences, lanes, qoIndptr, opts, result);
      if (!s)
        break;
      if (opts.maxSplits == 1)
        return s;
      opts.maxSplits = ceilDiv(opts.maxSplits, 2);
      result = LaunchPlan();
      result.mode = opts.mode;
    }
  }

  result.workIndptr = {0};
  if (reproducible) {
    sortLongestFirst(result.items);
    for (size_t i = 0; i < result.items.size(); ++i)
      result.workIndptr.push_back(static_cast<int32_t>(i + 1));
  } else {
    // A program's first item is its first range's: ranges in lane order
    // hold their row blocks' items adjacent.
    std::vector<int64_t> rangeFirstItem;
    int64_t item = 0;
    for (const Lane &lane : lanes)
      for (size_t r = 1; r < lane.cuts.size(); ++r) {
        rangeFirstItem.push_back(item);
        item += lane.blocks;
      }
    for (size_t p = 1; p < programStarts.size(); ++p)
      result.workIndptr.push_back(
          static_cast<int32_t>(rangeFirstItem[programStarts[p]]));
    if (!programStarts.empty())
      result.workIndptr.push_back(static_cast<int32_t>(item));
  }
  plan = std::move(result);
  return Status::success();
}

} // namespace mla::decode
