//===- DevicePlanTest.cpp - The plan kernel's capacities and comparison ---===//

#include "TestSupport.h"

#include "mla/Decode/DevicePlan.h"
#include "mla/Decode/LaunchPlan.h"

#include "gtest/gtest.h"

#include <random>
#include <string>
#include <vector>

using namespace mla::decode;
using namespace mla::runtime;
using namespace mla::runtime::test;

namespace {

PlanOptions options(PlanMode mode, int64_t kvTile, int64_t blockRows,
                    int64_t combineBlockRows, int64_t heads,
                    int64_t parallelism) {
  PlanOptions result;
  result.mode = mode;
  result.kvTile = kvTile;
  result.blockRows = blockRows;
  result.combineBlockRows = combineBlockRows;
  result.heads = heads;
  result.parallelism = parallelism;
  return result;
}

/// The host plan as the plan kernel leaves it: tables padded to the
/// capacities (work_indptr with the item count, zero combine rows).
LaunchPlan padded(const LaunchPlan &host, const PlanCapacity &capacity) {
  LaunchPlan result = host;
  result.workIndptr.resize(capacity.workItems + 1,
                           static_cast<int32_t>(host.items.size()));
  result.combineItems.resize(capacity.combineItems, CombineItem{});
  result.partRows = capacity.partRows;
  return result;
}

} // namespace

TEST(DevicePlan, CapacitiesHoldEveryPlan) {
  // Random ragged batches (empty sequences, q_len 0..4, lengths around the
  // 1024-key chunk) in both modes the plan kernel makes, several tilings.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    int batch = static_cast<int>(rng() % 20);
    std::vector<int32_t> qLens, kvLens;
    for (int b = 0; b < batch; ++b) {
      qLens.push_back(static_cast<int32_t>(rng() % 5));
      kvLens.push_back(static_cast<int32_t>(
          rng() % 3 == 0 ? 1024 * (rng() % 4) + rng() % 3 : rng() % 9000));
    }
    std::vector<int32_t> qo = offsets(qLens), kv = offsets(kvLens);
    PlanMode mode = trial % 2 ? PlanMode::Balanced : PlanMode::Reproducible;
    PlanOptions opts =
        options(mode, trial % 3 ? 64 : 32, trial % 4 ? 64 : 16,
                trial % 5 ? 16 : 1, trial % 3 ? 16 : 48, 1 + rng() % 300);
    LaunchPlan host;
    ASSERT_TRUE(succeeded(planSplitKv(qo, kv, opts, host)));
    PlanCapacity capacity;
    ASSERT_TRUE(
        succeeded(planCapacity(batch, qo.back(), kv.back(), opts, capacity)));
    EXPECT_LE(static_cast<int64_t>(host.items.size()), capacity.workItems);
    EXPECT_LE(static_cast<int64_t>(host.combineItems.size()),
              capacity.combineItems);
    EXPECT_LE(host.partRows, capacity.partRows);
    EXPECT_TRUE(succeeded(compareWithHostPlan(padded(host, capacity), host)));
  }
}

TEST(DevicePlan, ComparisonNamesTheFirstDifference) {
  std::vector<int32_t> qo = offsets({2, 0, 1}), kv = offsets({3000, 5, 70});
  PlanOptions opts = options(PlanMode::Reproducible, 64, 64, 16, 16, 1);
  LaunchPlan host;
  ASSERT_TRUE(succeeded(planSplitKv(qo, kv, opts, host)));
  PlanCapacity capacity;
  ASSERT_TRUE(succeeded(planCapacity(3, 3, 3075, opts, capacity)));
  ASSERT_GT(capacity.workItems, static_cast<int64_t>(host.items.size()));
  ASSERT_GT(capacity.combineItems,
            static_cast<int64_t>(host.combineItems.size()));
  const LaunchPlan device = padded(host, capacity);
  ASSERT_TRUE(succeeded(compareWithHostPlan(device, host)));

  LaunchPlan wrong = device;
  wrong.items[1].kvEnd += 1;
  EXPECT_TRUE(failsWith(compareWithHostPlan(wrong, host),
                        "device plan: work item 1 is"));
  wrong = device;
  wrong.items.pop_back();
  EXPECT_TRUE(failsWith(compareWithHostPlan(wrong, host),
                        "device plan: " + std::to_string(wrong.items.size()) +
                            " work items, the host plan has " +
                            std::to_string(host.items.size())));
  wrong = device;
  wrong.workIndptr.back() = 0;
  EXPECT_TRUE(
      failsWith(compareWithHostPlan(wrong, host), "device plan: work_indptr["));
  wrong = device;
  wrong.combineItems.back().rows = 16;
  EXPECT_TRUE(
      failsWith(compareWithHostPlan(wrong, host), "device plan: combine item"));
  wrong = device;
  wrong.partRows = host.partRows - 1;
  EXPECT_TRUE(
      failsWith(compareWithHostPlan(wrong, host), "more than the capacity"));
}

TEST(DevicePlan, CapacitiesBeyondInt32AreRefused) {
  PlanOptions opts = options(PlanMode::Balanced, 64, 16, 1, 128, 1);
  PlanCapacity capacity;
  EXPECT_TRUE(failsWith(planCapacity(1000, 1 << 24, 1 << 30, opts, capacity),
                        "more than the kernels' int32 fields hold"));
  EXPECT_TRUE(
      failsWith(planCapacity(-1, 1, 1, opts, capacity), "negative shapes"));
}
