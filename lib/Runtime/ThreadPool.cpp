//===- ThreadPool.cpp - Parallel loops on host threads --------------------===//

#include "mla/Runtime/ThreadPool.h"

#include <algorithm>

namespace mla::runtime {

ThreadPool::ThreadPool(unsigned numThreads) : numThreads(numThreads) {
  if (this->numThreads == 0)
    this->numThreads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 1; i < this->numThreads; ++i)
    workers.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  for (std::thread &worker : workers)
    worker.join();
}

void ThreadPool::runIterations() {
  for (int64_t i = nextIndex.fetch_add(1); i < loopCount;
       i = nextIndex.fetch_add(1))
    (*loopBody)(i);
}

void ThreadPool::workerLoop() {
  uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return stopping || generation != seen; });
      if (stopping)
        return;
      seen = generation;
    }
    runIterations();
    std::lock_guard<std::mutex> lock(mutex);
    if (--busyWorkers == 0)
      finished.notify_one();
  }
}

void ThreadPool::parallelFor(int64_t count,
                             const std::function<void(int64_t)> &body) {
  if (workers.empty() || count <= 1) {
    for (int64_t i = 0; i < count; ++i)
      body(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    loopBody = &body;
    loopCount = count;
    nextIndex.store(0);
    busyWorkers = static_cast<unsigned>(workers.size());
    ++generation;
  }
  wake.notify_all();
  runIterations();
  std::unique_lock<std::mutex> lock(mutex);
  finished.wait(lock, [&] { return busyWorkers == 0; });
  loopBody = nullptr;
}

} // namespace mla::runtime
