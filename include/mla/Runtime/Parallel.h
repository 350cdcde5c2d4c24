//===- Parallel.h - Parallel loops on a thread pool -------------*- C++ -*-===//
//
// The host and emulation backends, the problem generator and the reference
// run their loops on an llvm::ThreadPoolInterface (LLVM's Support library,
// linked statically); this is the loop they share.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_PARALLEL_H
#define MLA_RUNTIME_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ThreadPool.h"

#include <cstdint>

namespace mla::runtime {

/// Calls `body(i)` for every i in [0, count) on the threads of `pool` and
/// returns when all calls have returned. Indices are handed out one at a
/// time in order, so uneven iterations balance themselves. `body` must not
/// wait for work of the same pool.
void parallelFor(llvm::ThreadPoolInterface &pool, int64_t count,
                 llvm::function_ref<void(int64_t)> body);

} // namespace mla::runtime

#endif // MLA_RUNTIME_PARALLEL_H
