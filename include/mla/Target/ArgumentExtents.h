//===- ArgumentExtents.h - How far a kernel reaches past its pointers -*- C++
//-*-===//
//
// The manifest's `extent` of each pointer argument (docs/ABI.md, "Extents"):
// how many elements past the pointer the kernel's views and scalar loads
// can reach, as an expression of the kernel's scalar arguments and the
// grid, for launchers to check buffers against before they launch.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_ARGUMENTEXTENTS_H
#define MLA_TARGET_ARGUMENTEXTENTS_H

#include "mla/Dialect/Tile/IR/TileOps.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mla {

/// The extent of pointer argument `index` of `kernel` (a specialized
/// kernel: no calls left), or nullopt with `unknown` saying why none can be
/// derived.
std::optional<llvm::json::Value>
argumentExtent(tile::KernelOp kernel, unsigned index, std::string &unknown);

} // namespace mla

#endif // MLA_TARGET_ARGUMENTEXTENTS_H
