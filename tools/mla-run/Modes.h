//===- Modes.h - mla-run's two modes ----------------------------*- C++ -*-===//
//
// The MLA mode (MlaMode.cpp) runs the MLA decode kernels of a module on a
// problem; the generic mode (KernelMode.cpp) runs any one kernel, every
// argument given on the command line. Each checks its values before the
// flags of both modes are read, and the rest of its flags when it runs.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TOOLS_MLA_RUN_MODES_H
#define MLA_TOOLS_MLA_RUN_MODES_H

#include "Options.h"

#include <memory>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace mla::runtime {
class Backend;
struct Manifest;
} // namespace mla::runtime

namespace mla::run {

/// Untimed launches before a benchmark.
constexpr int64_t kWarmupIterations = 3;

/// Fails when a value of the MLA mode's flags is out of range.
Status checkMlaValues();
/// Runs the MLA mode. Sets `checkFailed` when --check ran and failed.
Status runMlaMode(const CommonOptions &common, bool &checkFailed);

/// Fails when a value of the generic mode's flags is out of range.
Status checkKernelValues();
/// Runs the generic mode.
Status runKernelMode(const CommonOptions &common);

/// Creates the backend of `common`'s target on `pool` and reads the
/// manifest of its module; fails unless modules compiled for the
/// manifest's target run on that backend.
Status openModule(const CommonOptions &common, llvm::ThreadPoolInterface &pool,
                  std::unique_ptr<runtime::Backend> &backend,
                  runtime::Manifest &manifest);

} // namespace mla::run

#endif // MLA_TOOLS_MLA_RUN_MODES_H
