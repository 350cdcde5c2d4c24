//===- KernelMode.cpp - Run any one kernel of a module --------------------===//
//
// The generic mode: binds every argument of one kernel from the command
// line, runs it once, optionally times it, and writes the buffers asked for.
//
//===----------------------------------------------------------------------===//

#include "Modes.h"

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Extents.h"
#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/KernelRunner.h"
#include "mla/Runtime/LaunchRules.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <array>
#include <cstdio>
#include <memory>
#include <optional>

using namespace mla::runtime;
using namespace mla::run;

namespace cl = llvm::cl;

namespace {

/// Programs per dimension.
using Grid = std::array<int64_t, 3>;

/// --grid X[,Y[,Z]]: one to three integers; missing dimensions are 1.
class GridParser : public FlagParser<Grid> {
public:
  using FlagParser::FlagParser;

  bool parse(cl::Option &option, llvm::StringRef argName, llvm::StringRef arg,
             Grid &grid) {
    llvm::SmallVector<llvm::StringRef, 3> dims;
    arg.split(dims, ',');
    if (dims.size() > grid.size())
      return option.error("'" + arg + "' has more than three dimensions");
    grid = {1, 1, 1};
    // Each dimension as any integer flag is parsed, with its errors.
    DecimalParser integer(option);
    for (auto [text, dim] : llvm::zip_first(dims, grid)) {
      long long value = 0;
      if (integer.parse(option, argName, text, value))
        return true;
      dim = value;
    }
    return false;
  }
};

/// A NAME=VALUE flag, split at its first '=' into `Spec::name` and `Value`;
/// neither part may be empty. `ValueName` is what messages call VALUE.
template <typename Spec, std::string Spec::*Value, const char *ValueName>
class BindingParser : public FlagParser<Spec> {
public:
  using FlagParser<Spec>::FlagParser;

  bool parse(cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             Spec &spec) {
    size_t equals = arg.find('=');
    if (equals == llvm::StringRef::npos)
      return option.error("'" + arg + "' is not NAME=" + ValueName);
    spec.name = arg.take_front(equals).str();
    spec.*Value = arg.drop_front(equals + 1).str();
    if (spec.name.empty())
      return option.error("'" + arg + "' has no name before '='");
    if ((spec.*Value).empty())
      return option.error("'" + arg + "' has no " + ValueName + " after '='");
    return false;
  }
};

constexpr char kArgValueName[] = "VALUE";
constexpr char kSaveValueName[] = "FILE.npy";

/// --arg NAME=VALUE; bindArgs interprets VALUE by the argument's type.
using ArgParser = BindingParser<ArgSpec, &ArgSpec::value, kArgValueName>;
/// --save NAME=FILE.npy.
using SaveParser = BindingParser<SaveSpec, &SaveSpec::path, kSaveValueName>;

} // namespace

static cl::opt<std::string> kernelFlag("kernel", cl::desc("the kernel to run"),
                                       cl::value_desc("SYMBOL"),
                                       cl::cat(genericCategory));
static cl::opt<Grid, false, GridParser>
    gridFlag("grid",
             cl::desc("programs per dimension, each >= 1 (Y and Z default "
                      "to 1); by default the kernel's grid rule, which a\n"
                      "given grid must reach unless the kernel's grid is "
                      "free"),
             cl::value_desc("X[,Y[,Z]]"), cl::cat(genericCategory));
static cl::list<ArgSpec, bool, ArgParser>
    argFlags("arg",
             cl::desc("binds argument NAME; every argument is bound once.\n"
                      "ptr:    @FILE.npy, whose dtype fits the element type\n"
                      "        (f32 <f4, bf16 <u2, f16 <f2 or <u2, i32 <i4,\n"
                      "        i64 <i8, i8 and f8 types |u1 or |i1), or\n"
                      "        empty:D0xD1x..., a new buffer of that shape\n"
                      "        filled with NaN (floats) or the largest value\n"
                      "        (integers), so that unwritten elements show\n"
                      "scalar: a number (i32, i64 or f32)"),
             cl::value_desc("NAME=VALUE"), cl::cat(genericCategory));
static cl::list<SaveSpec, bool, SaveParser>
    saveFlags("save",
              cl::desc("write buffer NAME after the run, with the shape it "
                       "was\nloaded or created with"),
              cl::value_desc("NAME=FILE.npy"), cl::cat(genericCategory));

Status mla::run::checkKernelValues() {
  if (Status s = checkNotEmpty(kernelFlag))
    return s;
  if (!gridFlag.getNumOccurrences())
    return Status::success();
  const Grid &grid = gridFlag;
  for (size_t d = 0; d < grid.size(); ++d) {
    int64_t limit = d == 0 ? kMaxGridX : kMaxGridYZ;
    if (grid[d] < 1)
      return Status::failure(
          "--grid", llvm::formatv("dimension {0} is {1}, expected at least 1",
                                  "xyz"[d], grid[d])
                        .str());
    if (grid[d] > limit)
      return Status::failure(
          "--grid", llvm::formatv("dimension {0} is {1}, more than {2} (the "
                                  "CUDA and HIP limit)",
                                  "xyz"[d], grid[d], limit)
                        .str());
  }
  return Status::success();
}

Status mla::run::runKernelMode(const CommonOptions &common) {
  if (kernelFlag.empty())
    return Status::failure("--kernel", "required with --grid, --arg and "
                                       "--save (the kernel to run)");
  llvm::StdThreadPool pool(llvm::hardware_concurrency(common.threads));
  std::unique_ptr<Backend> backend;
  Manifest manifest;
  if (Status s = openModule(common, pool, backend, manifest))
    return s;
  const KernelInfo *kernel = nullptr;
  if (Status s = findKernel(manifest, kernelFlag, kernel))
    return s;
  std::vector<BoundArg> args;
  if (Status s = bindArgs(*kernel, argFlags, args))
    return s;
  if (Status s = checkSaves(*kernel, saveFlags))
    return s;
  if (Status s = checkRequirements(*kernel, args))
    return s;
  std::optional<Grid> given;
  if (gridFlag.getNumOccurrences())
    given = gridFlag.getValue();
  Grid grid;
  if (Status s = launchGrid(*kernel, args, given, "--grid", grid))
    return s;
  // A rule may ask for no programs (rows = 0): nothing runs or is reached.
  bool empty = llvm::is_contained(grid, 0);
  if (!empty)
    if (Status s = checkExtents(*kernel, args, grid))
      return s;
  if (Status s = backend->loadModule(common.module, manifest))
    return s;

  std::printf("run: target=%s kernel=%s grid=%lldx%lldx%lld%s\n",
              common.targetName.c_str(), kernel->symbol.c_str(),
              static_cast<long long>(grid[0]), static_cast<long long>(grid[1]),
              static_cast<long long>(grid[2]),
              empty ? " (no programs: nothing to launch)" : "");
  std::fflush(stdout);
  KernelRunner runner(*backend, *kernel, std::move(args));
  if (Status s = runner.prepare())
    return s;
  if (!empty)
    if (Status s = runner.run(grid))
      return s;
  // Read back before timing: the timed launches may overwrite the buffers.
  std::vector<NpyArray> saved(saveFlags.size());
  for (size_t i = 0; i < saved.size(); ++i)
    if (Status s = runner.readBuffer(saveFlags[i].name, saved[i]))
      return s;

  if (common.bench && !empty) {
    double median = 0;
    if (Status s = runner.benchmark(grid, kWarmupIterations, common.iterations,
                                    median))
      return s;
    std::printf("bench: %.1f us median of %lld\n", median,
                static_cast<long long>(common.iterations));
    std::fflush(stdout);
  }

  for (size_t i = 0; i < saved.size(); ++i)
    if (Status s = writeNpy(saveFlags[i].path, saved[i].dtype, saved[i].shape,
                            saved[i].bytes.data()))
      return s;
  return Status::success();
}
