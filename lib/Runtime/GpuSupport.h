//===- GpuSupport.h - Shared pieces of the GPU backends ---------*- C++ -*-===//
//
// The HIP and CUDA backends load their runtime library with dlopen and
// resolve each entry point by name, with their own minimal declarations, so
// that neither SDK is needed to build or run mla-run.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_RUNTIME_GPUSUPPORT_H
#define MLA_LIB_RUNTIME_GPUSUPPORT_H

#include "mla/Runtime/Status.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace mla::runtime {

/// A shared library opened with dlopen, closed on destruction.
class DynamicLibrary {
public:
  DynamicLibrary() = default;
  DynamicLibrary(const DynamicLibrary &) = delete;
  DynamicLibrary &operator=(const DynamicLibrary &) = delete;
  ~DynamicLibrary();

  /// Opens the first of `names` that loads; false when none does.
  bool open(std::initializer_list<const char *> names);
  /// The file name that was opened.
  const std::string &fileName() const { return openedName; }

  /// Sets `function` to the entry point `symbol`; false when it is missing.
  template <typename FunctionPointer>
  bool resolve(const char *symbol, FunctionPointer &function) const {
    void *address = lookup(symbol);
    function = reinterpret_cast<FunctionPointer>(address);
    return address != nullptr;
  }

private:
  void *lookup(const char *symbol) const;

  void *handle = nullptr;
  std::string openedName;
};

/// The largest code object readBinaryFile reads (a module of many kernels
/// is a few MiB).
constexpr size_t kMaxModuleBytes = size_t(1) << 30;

/// Reads the whole file at `path`, at most kMaxModuleBytes; errors name the
/// file.
Status readBinaryFile(const std::string &path, std::vector<char> &bytes);

/// Calls queued behind one device-side wait: few enough launches and
/// events that a runtime's queue takes them all without blocking the host,
/// which would never release the wait.
constexpr int64_t kQueuedCalls = 32;

/// What a GPU runtime does for timeQueuedCalls, on its default stream.
struct QueuedTimer {
  /// Enqueues a wait until the word the host sets to 1 (gate) is 1.
  std::function<Status()> waitForGate;
  /// Records timer mark `i` (0..kQueuedCalls).
  std::function<Status(int64_t i)> mark;
  /// Waits on the host for mark `i`.
  std::function<Status(int64_t i)> synchronize;
  /// The milliseconds between marks `from` and `to`.
  std::function<Status(int64_t from, int64_t to, float &ms)> elapsed;
};

/// Backend::timeQueued for a GPU runtime: chunks of up to kQueuedCalls
/// calls of `enqueue`, each between two marks, queued behind a wait on
/// `gate` (host memory the device reads) that is released once the chunk is
/// queued, also when queueing fails.
Status timeQueuedCalls(uint32_t *gate, const QueuedTimer &timer,
                       int64_t iterations,
                       const std::function<Status()> &enqueue,
                       std::vector<double> &microseconds);

} // namespace mla::runtime

#endif // MLA_LIB_RUNTIME_GPUSUPPORT_H
