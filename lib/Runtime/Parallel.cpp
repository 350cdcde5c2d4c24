//===- Parallel.cpp - Parallel loops on a thread pool ---------------------===//

#include "mla/Runtime/Parallel.h"

#include <algorithm>
#include <atomic>

namespace mla::runtime {

void parallelFor(llvm::ThreadPoolInterface &pool, int64_t count,
                 llvm::function_ref<void(int64_t)> body) {
  int64_t workers =
      std::min<int64_t>(pool.getMaxConcurrency(), std::max<int64_t>(count, 0));
  if (workers <= 1) {
    for (int64_t i = 0; i < count; ++i)
      body(i);
    return;
  }
  std::atomic<int64_t> next{0};
  llvm::ThreadPoolTaskGroup group(pool);
  for (int64_t worker = 0; worker < workers; ++worker)
    group.async([&] {
      for (int64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1))
        body(i);
    });
  group.wait();
}

} // namespace mla::runtime
