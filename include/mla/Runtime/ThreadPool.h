//===- ThreadPool.h - Parallel loops on host threads ------------*- C++ -*-===//
//
// A fixed set of threads that runs parallel loops: the host backend's program
// instances, the problem generator and the reference.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_THREADPOOL_H
#define MLA_RUNTIME_THREADPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mla::runtime {

/// Runs `parallelFor` loops on `size()` threads: the caller plus size() - 1
/// workers that live as long as the pool. Iterations are handed out one at a
/// time in index order, so uneven iterations balance themselves.
class ThreadPool {
public:
  /// `numThreads` 0 means one per hardware thread.
  explicit ThreadPool(unsigned numThreads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned size() const { return numThreads; }

  /// Calls `body(i)` for every i in [0, count) and returns when all calls
  /// have returned. Not reentrant: `body` must not call parallelFor.
  void parallelFor(int64_t count, const std::function<void(int64_t)> &body);

private:
  void workerLoop();
  void runIterations();

  unsigned numThreads;
  std::vector<std::thread> workers;
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable finished;
  /// Bumped for every loop, so a worker runs each loop once.
  uint64_t generation = 0;
  bool stopping = false;
  /// Workers still inside the current loop.
  unsigned busyWorkers = 0;
  const std::function<void(int64_t)> *loopBody = nullptr;
  int64_t loopCount = 0;
  std::atomic<int64_t> nextIndex{0};
};

} // namespace mla::runtime

#endif // MLA_RUNTIME_THREADPOOL_H
