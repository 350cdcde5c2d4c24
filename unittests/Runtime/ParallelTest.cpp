//===- ParallelTest.cpp - Loops over a thread pool ------------------------===//

#include "mla/Runtime/Parallel.h"

#include "llvm/Support/ThreadPool.h"
#include "gtest/gtest.h"

#include <atomic>
#include <cstdint>
#include <vector>

using namespace mla::runtime;

namespace {

TEST(Parallel, ParallelFor) {
  for (unsigned threads : {1u, 2u, 5u}) {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(threads));
    EXPECT_EQ(pool.getMaxConcurrency(), threads);
    // Several loops on one pool, each visiting every index once.
    for (int64_t count : {0, 1, 7, 1000}) {
      std::vector<std::atomic<int>> visits(count);
      parallelFor(pool, count, [&](int64_t i) { ++visits[i]; });
      bool once = true;
      for (const std::atomic<int> &v : visits)
        once &= v.load() == 1;
      EXPECT_TRUE(once);
    }
  }
  EXPECT_GE(llvm::StdThreadPool().getMaxConcurrency(), 1u);
}

} // namespace
