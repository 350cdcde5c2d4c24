//===- LaunchPlanTest.cpp - The split-KV launch plan ----------------------===//

#include "TestSupport.h"

#include "mla/Decode/LaunchPlan.h"
#include "mla/Decode/MlaDriver.h"
#include "mla/Decode/Problem.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

using namespace mla::decode;
using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

/// Checks the plan's invariants against docs/ABI.md: for each row block of
/// a sequence with queries, n <= maxSplits ranges, tile-aligned,
/// consecutive and numbered 0..n-1, every key read exactly once; row
/// blocks aligned and covering the rows once; the sequence's split count
/// the most of its blocks' (all of them in reproducible mode, where every
/// block reads the same ranges), part rows at the sequence's base (a
/// prefix sum over sequences with more than one split); combine items
/// covering once the rows of the blocks with n > 1, and no others; nothing
/// for sequences without queries; the blocks of a range adjacent; programs
/// covering the items in order, none empty: reproducible, one item each,
/// longest ranges first (balanced too); throughput, at most
/// `parallelism`, over the items
/// in batch order, a sequence's blocks in turn.
bool planIsValid(const LaunchPlan &plan, const std::vector<int32_t> &qo,
                 const std::vector<int32_t> &kv, const PlanOptions &options) {
  int64_t batch = static_cast<int64_t>(qo.size()) - 1;
  // The balanced plan has the reproducible plan's form.
  bool reproducible = options.mode != PlanMode::Throughput;
  bool valid = plan.numSplits.size() == static_cast<size_t>(batch) &&
               plan.partBase.size() == static_cast<size_t>(batch);
  if (!valid)
    return false;
  std::map<int32_t, std::vector<WorkItem>> bySeq;
  for (const WorkItem &item : plan.items)
    bySeq[item.seq].push_back(item);
  std::map<int32_t, std::vector<CombineItem>> combineBySeq;
  for (const CombineItem &item : plan.combineItems) {
    // Sequences are found by their output rows.
    int32_t seq = 0;
    while (seq < batch && qo[seq + 1] * options.heads <= item.outRow)
      ++seq;
    combineBySeq[seq].push_back(item);
  }
  int64_t partRows = 0;
  for (int32_t b = 0; b < batch; ++b) {
    int64_t rows = (qo[b + 1] - qo[b]) * options.heads;
    int64_t kvLen = kv[b + 1] - kv[b];
    int32_t n = plan.numSplits[b];
    std::vector<WorkItem> &items = bySeq[b];
    if (rows == 0) {
      valid &= n == 0 && items.empty() && combineBySeq[b].empty() &&
               plan.partBase[b] == -1;
      continue;
    }
    valid &= n >= 1 && n <= options.maxSplits;
    valid &= kvLen > 0 || n == 1;
    int64_t base = n > 1 ? partRows : -1;
    valid &= plan.partBase[b] == base;
    if (n > 1)
      partRows += n * rows;
    int64_t blocks = (rows + options.blockRows - 1) / options.blockRows;
    // Per row block: its split count, which keys it reads, its ranges.
    std::vector<int32_t> blockSplits(blocks, 0);
    std::vector<std::vector<int>> reads(blocks, std::vector<int>(kvLen, 0));
    std::vector<std::map<int32_t, std::pair<int32_t, int32_t>>> ranges(blocks);
    for (const WorkItem &item : items) {
      valid &= item.rowBegin >= 0 && item.rowBegin < rows &&
               item.rowBegin % options.blockRows == 0;
      if (!valid)
        return false;
      int64_t block = item.rowBegin / options.blockRows;
      int32_t &splits = blockSplits[block];
      if (splits == 0)
        splits = item.numSplits;
      valid &= item.numSplits == splits && splits <= n && item.split >= 0 &&
               item.split < splits && item.reserved == 0;
      valid &= item.kvBegin >= kv[b] && item.kvBegin <= item.kvEnd &&
               item.kvEnd <= kv[b + 1];
      valid &= (item.kvBegin - kv[b]) % options.kvTile == 0;
      valid &= item.partRow == (splits > 1 ? base + item.split * rows : -1);
      valid &=
          ranges[block]
              .emplace(item.split, std::make_pair(item.kvBegin, item.kvEnd))
              .second;
      if (!valid)
        return false;
      for (int32_t key = item.kvBegin; key < item.kvEnd; ++key)
        ++reads[block][key - kv[b]];
    }
    int32_t most = 0;
    for (int64_t block = 0; block < blocks; ++block) {
      int32_t splits = blockSplits[block];
      most = std::max(most, splits);
      valid &= splits >= 1 && ranges[block].size() == size_t(splits);
      valid &= !reproducible || splits == n;
      for (int count : reads[block])
        valid &= count == 1;
      // Splits in key order, none empty unless the sequence is; in
      // reproducible mode the same for every block.
      for (int32_t s = 0; s < splits && valid; ++s) {
        auto range = ranges[block][s];
        valid &=
            range.first == (s == 0 ? kv[b] : ranges[block][s - 1].second) &&
            (kvLen == 0 || range.second > range.first);
        valid &= !reproducible || range == ranges[0][s];
      }
    }
    valid &= most == n;
    if (!valid)
      return false;
    // Combine items: the rows of the blocks with several splits, once, in
    // combine blocks from the start of the rows that share their ranges
    // (the sequence's in reproducible mode, a row block's in throughput
    // mode), the last of them shorter.
    std::vector<int> merged(rows, 0);
    for (const CombineItem &item : combineBySeq[b]) {
      int64_t row = item.outRow - qo[b] * options.heads;
      valid &= row >= 0 && row < rows;
      if (!valid)
        return false;
      int64_t laneBegin =
          reproducible ? 0 : row / options.blockRows * options.blockRows;
      int64_t laneEnd =
          reproducible ? rows
                       : std::min<int64_t>(rows, laneBegin + options.blockRows);
      valid &= (row - laneBegin) % options.combineBlockRows == 0 &&
               item.rows ==
                   std::min<int64_t>(options.combineBlockRows, laneEnd - row);
      if (!valid)
        return false;
      for (int64_t r = row; r < row + item.rows; ++r) {
        ++merged[r];
        valid &= blockSplits[r / options.blockRows] == item.numSplits;
      }
      valid &= item.numSplits > 1 && item.partRow == base + row &&
               item.splitStride == rows && item.reserved[0] == 0 &&
               item.reserved[1] == 0 && item.reserved[2] == 0;
    }
    for (int64_t r = 0; r < rows; ++r)
      valid &= merged[r] == (blockSplits[r / options.blockRows] > 1 ? 1 : 0);
  }
  valid &= plan.partRows == partRows;
  // A range: one split of a sequence's blocks in reproducible mode, of one
  // block in throughput mode.
  auto rangeOf = [&](const WorkItem &item) {
    return std::make_tuple(item.seq, reproducible ? 0 : item.rowBegin,
                           item.split);
  };
  for (size_t i = 1; i < plan.items.size(); ++i) {
    const WorkItem &a = plan.items[i - 1], &b = plan.items[i];
    if (reproducible)
      valid &= a.kvEnd - a.kvBegin >= b.kvEnd - b.kvBegin;
    else
      valid &= rangeOf(a) <= rangeOf(b);
    // The blocks of one range are adjacent.
    bool sameRange = rangeOf(a) == rangeOf(b);
    for (size_t j = i + 1; j < plan.items.size() && !sameRange; ++j)
      valid &= rangeOf(plan.items[j]) != rangeOf(a);
  }
  const std::vector<int32_t> &runs = plan.workIndptr;
  valid &= !runs.empty() && runs.front() == 0 &&
           runs.back() == static_cast<int32_t>(plan.items.size());
  for (size_t p = 1; p < runs.size(); ++p)
    valid &=
        runs[p] > runs[p - 1] && (!reproducible || runs[p] == runs[p - 1] + 1);
  valid &= reproducible || plan.programs() <= options.parallelism;
  return valid;
}

PlanOptions gpuLikeOptions(PlanMode mode, int64_t parallelism,
                           int64_t maxSplits, int64_t heads = 16) {
  MlaProblem shape = makeBf16Problem(heads, {1}, {0});
  MlaKernels kernels;
  kernels.maxSplits = maxSplits;
  return planOptionsFor(shape, kernels, mode, parallelism);
}

LaunchPlan plan(const std::vector<int32_t> &qLens,
                const std::vector<int32_t> &kvLens,
                const PlanOptions &options) {
  LaunchPlan result;
  EXPECT_TRUE(
      succeeded(planSplitKv(offsets(qLens), offsets(kvLens), options, result)));
  return result;
}

/// Sequence `seq`'s work items relative to its first KV row, in a fixed
/// order: what a reproducible plan must not change between batches.
std::vector<std::array<int32_t, 6>> itemsOf(const LaunchPlan &plan,
                                            const std::vector<int32_t> &kvLens,
                                            int32_t seq) {
  int32_t start = offsets(kvLens)[seq];
  std::vector<std::array<int32_t, 6>> result;
  for (const WorkItem &item : plan.items)
    if (item.seq == seq)
      result.push_back(
          {item.kvBegin - start, item.kvEnd - start, item.split, item.numSplits,
           item.rowBegin,
           item.partRow - static_cast<int32_t>(plan.partBase[seq])});
  std::sort(result.begin(), result.end());
  return result;
}

TEST(LaunchPlan, Plans) {
  // Invariants over ragged batches, edge lengths, both modes, several
  // devices and tilings.
  std::vector<int32_t> lengths = {0, 1, 63, 64, 65, 1000, 8192, 0, 4097, 130};
  std::vector<int32_t> qLens = {1, 2, 4, 3, 1, 0, 4, 2, 1, 1};
  for (PlanMode mode :
       {PlanMode::Reproducible, PlanMode::Balanced, PlanMode::Throughput})
    for (int64_t parallelism : {1, 2, 16, 264})
      for (int64_t maxSplits : {1, 4, 16})
        for (int64_t heads : {16, 32}) {
          PlanOptions options =
              gpuLikeOptions(mode, parallelism, maxSplits, heads);
          std::vector<int32_t> qo = offsets(qLens), kv = offsets(lengths);
          LaunchPlan result;
          EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
          EXPECT_TRUE(planIsValid(result, qo, kv, options));
          EXPECT_EQ(result.mode, mode);
          EXPECT_LE(result.maxSplitsUsed, maxSplits);
        }
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 64, 16, 32);
    options.kvTile = 32;
    options.blockRows = 48;
    options.combineBlockRows = 7;
    std::vector<int32_t> qo = offsets(qLens), kv = offsets(lengths);
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_TRUE(planIsValid(result, qo, kv, options));
    EXPECT_GT(result.maxSplitsUsed, 1);
  }

  // The balanced plan cuts a small batch into about `parallelism` ranges:
  // 4 sequences of 16 tiles over 64 programs, one tile each; the
  // reproducible plan leaves them whole.
  {
    std::vector<int32_t> qo = offsets({1, 1, 1, 1}),
                         kv = offsets({1024, 1024, 1024, 1024});
    for (auto [mode, items] : {std::pair{PlanMode::Balanced, size_t(64)},
                               std::pair{PlanMode::Reproducible, size_t(4)}}) {
      PlanOptions options = gpuLikeOptions(mode, 64, 16, 16);
      LaunchPlan result;
      EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
      EXPECT_TRUE(planIsValid(result, qo, kv, options));
      EXPECT_EQ(result.items.size(), items);
      EXPECT_EQ(result.programs(), static_cast<int64_t>(items));
    }
  }

  // It never needs more programs than the parallelism when every sequence
  // has a chunk: 64 sequences of 256 tiles over 264 programs are cut at a
  // chunk of 63 tiles into 4 ranges each (256 programs), not 5 (320).
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Balanced, 264, 16);
    options.kvTile = 32;
    std::vector<int32_t> qLens(64, 1), kvLens(64, 8192);
    std::vector<int32_t> qo = offsets(qLens), kv = offsets(kvLens);
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_TRUE(planIsValid(result, qo, kv, options));
    EXPECT_EQ(result.programs(), 256);
    EXPECT_EQ(result.maxSplitsUsed, 4);
  }

  // The invariants catch plans that read a key twice or not at all, or
  // that put partials in the wrong rows.
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 64, 16, 32);
    std::vector<int32_t> qo = offsets({3, 4}), kv = offsets({1000, 70});
    LaunchPlan valid;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, valid)));
    EXPECT_TRUE(planIsValid(valid, qo, kv, options));
    EXPECT_GT(valid.maxSplitsUsed, 1);
    ASSERT_FALSE(valid.items.empty());
    EXPECT_GT(valid.items[0].numSplits, 1);
    LaunchPlan twice = valid;
    twice.items.push_back(twice.items.back());
    LaunchPlan shifted = valid;
    shifted.items[0].kvBegin += 1;
    LaunchPlan misplaced = valid;
    misplaced.items[0].partRow += 1;
    LaunchPlan uncombined = valid;
    uncombined.combineItems.pop_back();
    LaunchPlan unrun = valid;
    unrun.workIndptr.back() -= 1;
    // The same rows merged, but not in combine blocks.
    LaunchPlan regrouped = valid;
    CombineItem first = regrouped.combineItems.front();
    regrouped.combineItems.front().rows = 1;
    first.partRow += 1;
    first.outRow += 1;
    first.rows -= 1;
    regrouped.combineItems.insert(regrouped.combineItems.begin() + 1, first);
    for (const LaunchPlan *broken :
         {&twice, &shifted, &misplaced, &uncombined, &unrun, &regrouped})
      EXPECT_FALSE(planIsValid(*broken, qo, kv, options));
  }

  // Reproducible: a sequence's ranges follow from its length alone.
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Reproducible, 1, 16);
    LaunchPlan alone = plan({2}, {5000}, options);
    // 79 tiles in ceil(79 / 16) = 5 ranges of 16, 16, 16, 16 and 15 tiles.
    EXPECT_EQ(alone.numSplits, std::vector<int32_t>{5});
    EXPECT_EQ(alone.programs(), 5);
    EXPECT_EQ(alone.combineItems.size(), 2u);
    EXPECT_EQ(itemsOf(alone, {5000}, 0), (std::vector<std::array<int32_t, 6>>{
                                             {0, 1024, 0, 5, 0, 0},
                                             {1024, 2048, 1, 5, 0, 32},
                                             {2048, 3072, 2, 5, 0, 64},
                                             {3072, 4096, 3, 5, 0, 96},
                                             {4096, 5000, 4, 5, 0, 128}}));
    std::vector<int32_t> kvLens = {300, 5000, 0, 20000, 5000, 64};
    std::vector<int32_t> batchQ = {4, 2, 1, 3, 2, 1};
    for (int64_t parallelism : {1, 2, 7, 264}) {
      options.parallelism = parallelism;
      LaunchPlan batch = plan(batchQ, kvLens, options);
      EXPECT_EQ(itemsOf(batch, kvLens, 1), itemsOf(alone, {5000}, 0));
      EXPECT_EQ(itemsOf(batch, kvLens, 4), itemsOf(alone, {5000}, 0));
      EXPECT_EQ(batch.numSplits, (std::vector<int32_t>{1, 5, 1, 16, 5, 1}));
    }
    // The cap bounds long sequences; a smaller tile makes more, smaller
    // ranges of the same length in rows.
    options.maxSplits = 4;
    EXPECT_EQ(plan({1}, {20000}, options).numSplits, std::vector<int32_t>{4});
    options.maxSplits = 16;
    options.kvTile = 16;
    LaunchPlan fine = plan({1}, {5000}, options);
    EXPECT_EQ(fine.numSplits, std::vector<int32_t>{5});
    ASSERT_FALSE(fine.items.empty());
    EXPECT_EQ(fine.items.front().kvEnd - fine.items.front().kvBegin, 63 * 16);
  }

  // The partial buffers of (batch 128, q_len 4, kv_len 8192, heads 16):
  // reproducible, 8 splits of 64 rows per sequence, half of the
  // 128 * 4 * 16 * 16 rows of a [total_q, max_splits, heads] layout, one
  // program per item; throughput, one unsplit sequence per program when
  // the device runs 128 at once, and on an H200's 132 SMs at two programs
  // each, every sequence in two halves (256 programs: a third range would
  // cost more than the 8 programs it could fill).
  {
    std::vector<int32_t> qLens128(128, 4), kvLens128(128, 8192);
    LaunchPlan reproducible = plan(
        qLens128, kvLens128, gpuLikeOptions(PlanMode::Reproducible, 1, 16));
    EXPECT_EQ(reproducible.partRows, 128 * 8 * 64);
    EXPECT_EQ(reproducible.partialBytes(), 134479872);
    EXPECT_EQ(reproducible.items.size(), 1024u);
    EXPECT_EQ(reproducible.programs(), 1024);
    EXPECT_EQ(reproducible.combineItems.size(), 128u * 4);
    LaunchPlan filled = plan(qLens128, kvLens128,
                             gpuLikeOptions(PlanMode::Throughput, 128, 16));
    EXPECT_EQ(filled.partRows, 0);
    EXPECT_EQ(filled.programs(), 128);
    EXPECT_TRUE(filled.combineItems.empty());
    PlanOptions h200Options = gpuLikeOptions(PlanMode::Throughput, 264, 16);
    LaunchPlan h200 = plan(qLens128, kvLens128, h200Options);
    EXPECT_TRUE(
        planIsValid(h200, offsets(qLens128), offsets(kvLens128), h200Options));
    EXPECT_EQ(h200.programs(), 256);
    EXPECT_EQ(h200.maxSplitsUsed, 2);
    EXPECT_EQ(h200.partRows, 128 * 2 * 64);
    int64_t most = 0;
    for (int64_t p = 0; p < h200.programs(); ++p) {
      int64_t keys = 0;
      for (int32_t i = h200.workIndptr[p]; i < h200.workIndptr[p + 1]; ++i)
        keys += h200.items[i].kvEnd - h200.items[i].kvBegin;
      most = std::max(most, keys);
    }
    EXPECT_LE(most, 64 * 64);
  }

  // Throughput: few short sequences on a wide device are cut down to the
  // fewest keys a range may have, 1024 / 16 (max_splits) here.
  {
    LaunchPlan result = plan({1, 1, 1, 1}, {1024, 1024, 1024, 1024},
                             gpuLikeOptions(PlanMode::Throughput, 264, 16));
    EXPECT_EQ(result.programs(), 64);
    EXPECT_EQ(result.maxSplitsUsed, 16);
    EXPECT_EQ(result.combineItems.size(), 4u);
    for (const WorkItem &item : result.items)
      EXPECT_EQ(item.kvEnd - item.kvBegin, 64);
  }
  // Throughput: the row blocks of a sequence are cut on their own, so that
  // few sequences of several blocks fill the device. (batch 4, q_len 4,
  // kv_len 8192, heads 32) in 64-row blocks on 132 SMs: 16 ranges of 16
  // tiles for each of the 8 blocks, where cutting each sequence's two
  // blocks together would stop at 4 * 16 programs. Each block's rows are
  // merged over its own ranges.
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 132, 16, 32);
    options.kvTile = 32;
    std::vector<int32_t> qo = offsets({4, 4, 4, 4}),
                         kv = offsets({8192, 8192, 8192, 8192});
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_TRUE(planIsValid(result, qo, kv, options));
    EXPECT_EQ(result.programs(), 128);
    EXPECT_EQ(result.items.size(), 128u);
    EXPECT_EQ(result.maxSplitsUsed, 16);
    EXPECT_EQ(result.partRows, 4 * 16 * 128);
    EXPECT_EQ(result.combineItems.size(), 4u * 128 / 16);
    for (const WorkItem &item : result.items)
      EXPECT_EQ(item.kvEnd - item.kvBegin, 512);
  }
  // Ragged: the long sequence is split, the short ones are not, and no
  // program takes much more than its share (8.2) of the 131 tiles: at
  // most the 15 that two ranges of at least 8 (128 / max_splits) could
  // not share.
  {
    std::vector<int32_t> qo = offsets({1, 1, 1, 1}),
                         kv = offsets({8192, 64, 64, 64});
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 16, 16);
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_TRUE(planIsValid(result, qo, kv, options));
    for (int64_t p = 0; p < result.programs(); ++p) {
      int64_t keys = 0;
      for (int32_t i = result.workIndptr[p]; i < result.workIndptr[p + 1]; ++i)
        keys += result.items[i].kvEnd - result.items[i].kvBegin;
      EXPECT_LE(keys, 15 * 64);
    }
    EXPECT_GE(result.numSplits[0], 8);
    EXPECT_EQ(result.numSplits[1], 1);
    EXPECT_EQ(result.numSplits[3], 1);
  }
  // One host thread: one program runs every sequence, unsplit.
  {
    LaunchPlan result =
        plan({1, 1}, {4096, 100}, gpuLikeOptions(PlanMode::Throughput, 1, 16));
    EXPECT_EQ(result.programs(), 1);
    EXPECT_EQ(result.items.size(), 2u);
    EXPECT_EQ(result.maxSplitsUsed, 1);
    EXPECT_EQ(result.partRows, 0);
  }
  // No KV anywhere: one empty range per row block, so that the partial
  // kernel writes the zeros, and nothing to combine.
  for (PlanMode mode : {PlanMode::Reproducible, PlanMode::Throughput}) {
    LaunchPlan result = plan({2, 0, 4}, {0, 0, 0}, gpuLikeOptions(mode, 8, 4));
    EXPECT_EQ(result.items.size(), 2u);
    EXPECT_TRUE(result.combineItems.empty());
    EXPECT_EQ(result.numSplits, (std::vector<int32_t>{1, 0, 1}));
    EXPECT_EQ(result.partRows, 0);
    EXPECT_EQ(result.partialBytes(), 0);
    bool empty = true;
    for (const WorkItem &item : result.items)
      empty &= item.kvBegin == 0 && item.kvEnd == 0 && item.partRow == -1;
    EXPECT_TRUE(empty);
  }
  // No sequence at all.
  {
    LaunchPlan result =
        plan({}, {}, gpuLikeOptions(PlanMode::Throughput, 8, 4));
    EXPECT_TRUE(result.items.empty());
    EXPECT_TRUE(result.numSplits.empty());
  }

  // Row indices must fit the kernels' int32 fields.
  {
    LaunchPlan result;
    EXPECT_TRUE(failsWith(
        planSplitKv({0, 1 << 27}, {0, 1},
                    gpuLikeOptions(PlanMode::Reproducible, 1, 16), result),
        "launch plan: more than 2^31 - 1 query rows"));
    EXPECT_TRUE(failsWith(
        planSplitKv({0, 1 << 24}, {0, 1 << 20},
                    gpuLikeOptions(PlanMode::Reproducible, 1, 16), result),
        "launch plan: the partial buffers would need more than 2^31 "
        "- 1 rows"));
    // The throughput plan halves its split cap until the part rows fit:
    // 16 splits of 2^27 rows would need 2^31, 8 fit.
    PlanOptions kvOnly = gpuLikeOptions(PlanMode::Throughput, 264, 16);
    kvOnly.blockRows = kvOnly.combineBlockRows = INT32_MAX;
    kvOnly.queryRowBytes = kvOnly.outRowBytes = kvOnly.partialRowBytes = 0;
    kvOnly.programLatencyBytes = 0;
    EXPECT_TRUE(
        succeeded(planSplitKv({0, 1 << 23}, {0, 1 << 20}, kvOnly, result)));
    EXPECT_EQ(result.maxSplitsUsed, 8);
    EXPECT_EQ(result.partRows, 8 * (1 << 27));
  }
  // Out-of-range options are clamped rather than overflowing.
  {
    PlanOptions options = gpuLikeOptions(PlanMode::Throughput, 4, 16);
    options.kvTile = INT64_MAX;
    options.blockRows = INT64_MAX;
    std::vector<int32_t> qo = offsets({1, 2}), kv = offsets({100, 3000});
    LaunchPlan result;
    EXPECT_TRUE(succeeded(planSplitKv(qo, kv, options, result)));
    EXPECT_EQ(result.items.size(), 2u);
    EXPECT_EQ(result.maxSplitsUsed, 1);
  }
  // More work items than a grid dimension holds fail before the list is
  // built: 2^21 splits of 1024 one-row blocks would be 64 GiB of items.
  {
    PlanOptions options =
        gpuLikeOptions(PlanMode::Reproducible, 4, INT32_MAX, /*heads=*/128);
    options.kvTile = 1;
    options.blockRows = 1;
    std::vector<int32_t> qo = offsets({8}), kv = offsets({INT32_MAX});
    LaunchPlan result;
    EXPECT_TRUE(failsWith(planSplitKv(qo, kv, options, result),
                          "launch plan: more than 2^31 - 1 work items"));
  }
}

} // namespace
