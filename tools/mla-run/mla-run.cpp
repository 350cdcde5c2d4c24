//===- mla-run.cpp - Run, check and time compiled modules -----------------===//
//
// Loads a module written by mla-compile on the host, a HIP device or a CUDA
// device, runs MLA decode on generated or loaded inputs, and optionally
// checks the result against a float64 reference, times it, and saves it. In
// generic mode it runs any one kernel of the module instead, with every
// argument given on the command line.
// Links no MLIR and no LLVM shared library (LLVM's Support library is linked
// statically), so it runs from a copied binary on a GPU machine.
//
//===----------------------------------------------------------------------===//

#include "Modes.h"
#include "Options.h"

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <new>

using namespace mla::runtime;
using namespace mla::run;

namespace cl = llvm::cl;

/// Exit statuses.
constexpr int kExitError = 1;
constexpr int kExitCheckFailed = 2;

static const char *const kOverview =
    R"(run, check and time the kernels of a module compiled by mla-compile

  mla-run --target host|hip|cuda|emu --module FILE
          --kv-dtype bf16|fp8|fp8_fnuz|mxfp4
          (--kv-len L [--batch B] | --kv-lens L1,L2,...) [--q-len Q]
          [--heads H] [--seed S] [--kv-spare-rows N] | --inputs DIR
          [--out FILE.npy] [--save-inputs DIR] [--check]
          [--plan reproducible|balanced|throughput] [--plan-on-device]
          [--bench [--iters N]] [--threads N] [--sm-scale X]
  mla-run --target host|hip|cuda|emu --module FILE
          --kernel SYMBOL [--grid X[,Y[,Z]]] --arg NAME=VALUE ...
          [--save NAME=FILE.npy ...] [--bench [--iters N]] [--threads N]

Runs the MLA decode kernels of a module, or with --kernel (generic mode) any
one kernel of it. FILE is the binary (.so, .hsaco, .ptx or .cubin); its
manifest is FILE.json. The modes' flags do not mix; the flags of "Both
modes" serve both.
)";

static cl::extrahelp exitStatusHelp(R"(
Exit status: 0 success, 1 error, 2 --check failed. Nothing is written to
--out or --save unless the run (and the check, with --check) succeeded.
)");

/// Fails unless modules compiled for `manifest`'s target run on `backend`.
static Status checkModuleTarget(const Backend &backend,
                                const Manifest &manifest) {
  std::string expected;
  if (backend.acceptsTarget(manifest.target, expected))
    return Status::success();
  return Status::failure(manifest.path, "module target '" + manifest.target +
                                            "' cannot run on --target " +
                                            backend.name() + " (it runs " +
                                            expected + ")");
}

Status mla::run::openModule(const CommonOptions &common,
                            llvm::ThreadPoolInterface &pool,
                            std::unique_ptr<Backend> &backend,
                            Manifest &manifest) {
  if (Status s = createBackend(common.targetName, pool, backend))
    return s;
  if (Status s = loadManifest(common.module, manifest))
    return s;
  return checkModuleTarget(*backend, manifest);
}

/// An allocation that fails ends the run with one line, as any other error
/// does: sizes are checked before allocating, but the memory left may still
/// run out.
static void outOfMemory() {
  std::fputs("mla-run: error: out of memory\n", stderr);
  std::_Exit(kExitError);
}

int main(int argc, char **argv) {
  std::set_new_handler(outOfMemory);
  cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { mla::printVersion(os, "mla-run"); });
  Mode mode = Mode::Mla;
  CommonOptions common;
  bool checkFailed = false;
  Status status = parseCommandLine(argc, argv, kOverview, mode);
  // Values first, then what is required, so that a bad value is reported
  // even when other flags are missing.
  if (status.ok())
    status = mode == Mode::Kernel ? checkKernelValues() : checkMlaValues();
  if (status.ok())
    status = readCommonOptions(common);
  if (status.ok())
    status = mode == Mode::Kernel ? runKernelMode(common)
                                  : runMlaMode(common, checkFailed);
  if (status.ok())
    return 0;
  std::fprintf(stderr, "mla-run: error: %s\n", status.message().c_str());
  return checkFailed ? kExitCheckFailed : kExitError;
}
