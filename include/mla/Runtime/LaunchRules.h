//===- LaunchRules.h - A kernel's grid rule and requirements ----*- C++ -*-===//
//
// A program may state its grid as expressions of its scalar arguments
// (launch.grid) and conditions those arguments must meet (launch.requires;
// docs/ABI.md). Launchers check the requirements, compute the grid when
// none is given and refuse a given grid smaller than the rule's.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_LAUNCHRULES_H
#define MLA_RUNTIME_LAUNCHRULES_H

#include "mla/Runtime/LaunchExpr.h"
#include "mla/Runtime/Status.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mla::runtime {

struct BoundArg;
struct KernelInfo;

/// The integer scalar arguments of a launch, for expressions to read.
LaunchExprInputs launchInputs(const std::vector<BoundArg> &args,
                              const std::array<int64_t, 3> &grid = {1, 1, 1});

/// Checks each of `kernel`'s requirements against the bound arguments; the
/// error names the kernel, the condition and the values it read.
Status checkRequirements(const KernelInfo &kernel,
                         const std::vector<BoundArg> &args);

/// The grid of a launch of `kernel`: `given` where there is one (`flag`
/// names it in errors), refused where smaller than the kernel's rule
/// unless its grid is free; otherwise the rule's, whose sizes may be 0
/// (nothing to launch). A rule that names a problem quantity needs a given
/// grid.
Status launchGrid(const KernelInfo &kernel, const std::vector<BoundArg> &args,
                  const std::optional<std::array<int64_t, 3>> &given,
                  const std::string &flag, std::array<int64_t, 3> &grid);

} // namespace mla::runtime

#endif // MLA_RUNTIME_LAUNCHRULES_H
