//===- LaunchKeys.h - Launch keys the GPU passes read ----------*- C++ -*-===//

#ifndef MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAUNCHKEYS_H
#define MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAUNCHKEYS_H

#include "mla/Dialect/Tile/IR/TileOps.h"

namespace mla::tilegpu {

/// The launch key `key` of `kernel` (`tile.launch`), a count such as the
/// waves or stages, `fallback` when the kernel does not state it. A value
/// that is not an integer `accept` takes fails, with an error on the kernel
/// saying the key "must be `expected`".
mlir::FailureOr<unsigned>
getLaunchCount(tile::KernelOp kernel, llvm::StringRef key, unsigned fallback,
               llvm::function_ref<bool(int64_t)> accept,
               llvm::StringRef expected);

/// The most tiles in flight per loop a kernel may ask for.
constexpr unsigned kMaxStages = 8;

/// The tiles in flight per loop of `kernel` (tilegpu-pipeline-loads): its
/// launch key `stages`, else `fallback`; 1 (no pipelining) to kMaxStages.
mlir::FailureOr<unsigned> getLaunchStages(tile::KernelOp kernel,
                                          unsigned fallback);

} // namespace mla::tilegpu

#endif // MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAUNCHKEYS_H
