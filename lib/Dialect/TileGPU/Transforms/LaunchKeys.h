//===- LaunchKeys.h - Launch keys the GPU passes read ----------*- C++ -*-===//

#ifndef MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAUNCHKEYS_H
#define MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAUNCHKEYS_H

#include "mla/Dialect/Tile/IR/TileOps.h"

namespace mla::tilegpu {

/// The integer launch key `key` of `kernel` (`tile.launch`), `fallback`
/// when the kernel does not state it. A value that is not an integer
/// `accept` takes fails, with an error on the kernel saying the key "must
/// be `expected`".
mlir::FailureOr<int64_t>
getLaunchInteger(tile::KernelOp kernel, llvm::StringRef key, int64_t fallback,
                 llvm::function_ref<bool(int64_t)> accept,
                 llvm::StringRef expected);

} // namespace mla::tilegpu

#endif // MLA_LIB_DIALECT_TILEGPU_TRANSFORMS_LAUNCHKEYS_H
