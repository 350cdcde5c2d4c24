//===- Extents.h - How far a kernel reaches past its pointers ---*- C++ -*-===//
//
// A manifest gives each pointer argument an `extent` (docs/ABI.md,
// "Extents"): an expression of the kernel's scalar arguments and the grid
// for the elements the kernel may access past the pointer. Launchers
// evaluate it before launching and refuse a buffer that holds fewer.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_EXTENTS_H
#define MLA_RUNTIME_EXTENTS_H

#include "mla/Runtime/Status.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mla::runtime {

struct BoundArg;
struct KernelInfo;

/// The elements of `type` (a manifest element type) that `bytes` bytes
/// hold: f4E2M1FN packs two to a byte.
int64_t elementsInBytes(const std::string &type, uint64_t bytes);

/// Checks every pointer argument of `kernel` that has an extent against
/// its bound buffer for a launch over `grid`: an error names the kernel,
/// the argument, the elements needed and the elements given.
Status checkExtents(const KernelInfo &kernel, const std::vector<BoundArg> &args,
                    const std::array<int64_t, 3> &grid);

} // namespace mla::runtime

#endif // MLA_RUNTIME_EXTENTS_H
