//===- mla-run.cpp - Run, check and time compiled modules -----------------===//
//
// Loads a module written by mla-compile on the host, a HIP device or a CUDA
// device, runs MLA decode on generated or loaded inputs, and optionally
// checks the result against a float64 reference, times it, and saves it. In
// generic mode it runs any one kernel of the module instead, with every
// argument given on the command line.
// Links no MLIR or LLVM, so it runs from a copied binary on a GPU machine.
//
//===----------------------------------------------------------------------===//

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Check.h"
#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/KernelRunner.h"
#include "mla/Runtime/LaunchPlan.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/MlaDriver.h"
#include "mla/Runtime/Npy.h"
#include "mla/Runtime/Problem.h"
#include "mla/Runtime/Reference.h"
#include "mla/Runtime/Status.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "llvm/Support/ThreadPool.h"

using namespace mla::runtime;

namespace {

/// Exit statuses.
constexpr int kExitError = 1;
constexpr int kExitCheckFailed = 2;

/// The largest --batch; far beyond any decode batch, small enough that the
/// per-sequence bookkeeping always fits in memory.
constexpr int64_t kMaxBatch = 1 << 20;
constexpr int64_t kMaxThreads = 4096;

/// Untimed launches before a benchmark.
constexpr int64_t kWarmupIterations = 3;

constexpr const char *kUsage =
    R"(usage: mla-run --target host|hip|cuda|emu --module FILE
               --kv-dtype bf16|fp8|mxfp4
               (--kv-len L [--batch B] | --kv-lens L1,L2,...) [--q-len Q]
               [--heads H] [--seed S] [--kv-spare-rows N] | --inputs DIR
               [--out FILE.npy] [--save-inputs DIR] [--check]
               [--plan reproducible|throughput]
               [--bench [--iters N]] [--threads N] [--sm-scale X]
       mla-run --target host|hip|cuda|emu --module FILE
               --kernel SYMBOL --grid X[,Y[,Z]] --arg NAME=VALUE ...
               [--save NAME=FILE.npy ...] [--bench [--iters N]] [--threads N]

Runs the MLA decode kernels of a module compiled by mla-compile, or with
--kernel (generic mode) any one kernel of it. FILE is the binary (.so,
.hsaco, .ptx or .cubin); its manifest is FILE.json. The modes' flags do not
mix; --target, --module, --bench, --iters and --threads serve both.

  --target T        host (the .so on a thread pool), hip, cuda, or emu (a
                    module compiled for gfx950-emu or gfx942-emu on a
                    thread pool)
  --module FILE     the compiled module
  --kv-dtype D      KV cache format: bf16, fp8 (per-tensor scale) or mxfp4
                    (packed fp4 with E8M0 scales per 32 elements)
Generated inputs (randn, quantized like the problem):
  --batch B         sequences, each --kv-len long (default 1)
  --kv-len L        KV rows per sequence
  --kv-lens L1,...  one KV length per sequence (batch = their count)
  --q-len Q         queries per sequence, 1..4 (default 1)
  --heads H         query heads, a multiple of 16 up to 128 (default 16)
  --seed S          random seed (default: a fresh one, printed)
  --kv-spare-rows N rows the KV cache (and mxfp4 scale tensor) has past the
                    last sequence, as a preallocated pool has; they hold
                    NaN, so a kernel that reads them shows (default 0)
Loaded inputs:
  --inputs DIR      q.npy, kv.npy, kv_scale.npy (fp8, mxfp4), qo_indptr.npy,
                    kv_indptr.npy (docs/ABI.md); kv.npy and kv_scale.npy
                    may have rows past the last sequence's
  --save-inputs DIR write the inputs of this run there, in that form (for
                    other tools, or to replay the run with --inputs)
Launch plan:
  --plan P          how sequences are split into KV ranges (docs/ABI.md):
                    reproducible (default): a sequence's ranges depend only
                    on its own length, so the output bits do not depend on
                    the batch, --threads or the device; throughput: one
                    range length for the batch, chosen by a cost model for
                    the device's parallelism (outputs may differ in the
                    last bits between thread counts and batches)
Results:
  --out FILE.npy    write the output, [total_q, H, 512] bf16 bits as uint16
  --check           compare with a float64 reference (rtol = atol = 1e-2)
  --bench           time the launches: median of --iters runs (default 20)
  --threads N       host threads (default: all hardware threads)
  --sm-scale X      softmax scale (default 1/sqrt(576))
  --help            print this text
Generic mode:
  --kernel SYMBOL   the kernel to run
  --grid X[,Y[,Z]]  programs per dimension, each >= 1 (Y and Z default to 1)
  --arg NAME=VALUE  binds argument NAME; every argument is bound once.
                    ptr:    @FILE.npy, whose dtype fits the element type
                            (f32 <f4, bf16 <u2, f16 <f2 or <u2, i32 <i4,
                            i64 <i8, i8 and f8 types |u1 or |i1), or
                            empty:D0xD1x..., a new buffer of that shape
                            filled with NaN (floats) or the largest value
                            (integers), so that unwritten elements show
                    scalar: a number (i32, i64 or f32)
  --save NAME=FILE.npy
                    write buffer NAME after the run, with the shape it was
                    loaded or created with

Exit status: 0 success, 1 error, 2 --check failed. Nothing is written to
--out or --save unless the run (and the check, with --check) succeeded.
)";

/// The command line, parsed.
struct Options {
  std::string target;
  std::string module;
  std::optional<KvDType> kvDType;
  std::optional<int64_t> batch;
  std::optional<int64_t> qLen;
  std::optional<int64_t> kvLen;
  std::optional<std::vector<int64_t>> kvLens;
  std::optional<int64_t> heads;
  std::optional<uint64_t> seed;
  std::optional<int64_t> spareKvRows;
  std::string inputs;
  std::string saveInputs;
  std::string out;
  bool check = false;
  bool bench = false;
  std::optional<int64_t> iters;
  std::optional<int64_t> threads;
  std::optional<float> smScale;
  PlanMode plan = PlanMode::Reproducible;
  bool help = false;
  /// Generic mode: set by any of kKernelFlags.
  bool kernelMode = false;
  std::string kernel;
  std::optional<std::array<int64_t, 3>> grid;
  std::vector<ArgSpec> args;
  std::vector<SaveSpec> saves;
  /// Every flag given, in order, for the checks between flags.
  std::vector<std::string> flags;
};

/// The flags of the generic mode.
const char *const kKernelFlags[] = {"--kernel", "--grid", "--arg", "--save"};
/// The flags both modes take.
const char *const kSharedFlags[] = {"--target", "--module",  "--bench",
                                    "--iters",  "--threads", "--help"};

/// Whether `list` holds `flag`.
template <size_t N>
bool contains(const char *const (&list)[N], const std::string &flag) {
  return std::find(std::begin(list), std::end(list), flag) != std::end(list);
}

} // namespace

static Status parseInteger(const std::string &flag, const std::string &text,
                           int64_t minimum, int64_t &value,
                           int64_t maximum = INT64_MAX) {
  errno = 0;
  char *end = nullptr;
  long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE)
    return Status::failure(flag, "'" + text + "' is not an integer");
  if (parsed < minimum)
    return Status::failure(flag, formatString("%lld is less than %lld", parsed,
                                              static_cast<long long>(minimum)));
  if (parsed > maximum)
    return Status::failure(flag, formatString("%lld is more than %lld", parsed,
                                              static_cast<long long>(maximum)));
  value = parsed;
  return Status::success();
}

static Status parseLengths(const std::string &flag, const std::string &text,
                           std::vector<int64_t> &lengths) {
  lengths.clear();
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    int64_t length;
    if (Status s =
            parseInteger(flag, text.substr(start, comma - start), 0, length))
      return s;
    lengths.push_back(length);
    if (comma == std::string::npos)
      return Status::success();
    start = comma + 1;
  }
}

/// Parses argv into `options`; every error names the flag.
static Status parseArguments(int argc, char **argv, Options &options) {
  std::vector<std::string> &seen = options.flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.compare(0, 2, "--") != 0)
      return Status::failure(arg, "unexpected argument (flags start with --; "
                                  "see --help)");
    std::string flag = arg, value;
    bool inlineValue = false;
    if (size_t equals = arg.find('='); equals != std::string::npos) {
      flag = arg.substr(0, equals);
      value = arg.substr(equals + 1);
      inlineValue = true;
    }
    bool repeatable = flag == "--arg" || flag == "--save";
    if (!repeatable && std::find(seen.begin(), seen.end(), flag) != seen.end())
      return Status::failure(flag, "given more than once");
    seen.push_back(flag);
    options.kernelMode |= contains(kKernelFlags, flag);

    bool isSwitch = flag == "--check" || flag == "--bench" || flag == "--help";
    if (isSwitch) {
      if (inlineValue)
        return Status::failure(flag, "takes no value");
      if (flag == "--check")
        options.check = true;
      else if (flag == "--bench")
        options.bench = true;
      else
        options.help = true;
      continue;
    }
    static const char *const kValueFlags[] = {
        "--target",       "--module",   "--kv-dtype",    "--batch",
        "--q-len",        "--kv-len",   "--kv-lens",     "--heads",
        "--seed",         "--inputs",   "--out",         "--iters",
        "--threads",      "--sm-scale", "--kernel",      "--grid",
        "--arg",          "--save",     "--save-inputs", "--plan",
        "--kv-spare-rows"};
    if (!contains(kValueFlags, flag))
      return Status::failure(flag, "unknown flag (see --help)");
    if (!inlineValue) {
      if (i + 1 >= argc)
        return Status::failure(flag, "missing value");
      value = argv[++i];
    }
    if (value.empty())
      return Status::failure(flag, "empty value");

    int64_t number = 0;
    if (flag == "--target") {
      if (value != "host" && value != "hip" && value != "cuda" &&
          value != "emu")
        return Status::failure(flag,
                               "'" + value + "' is not host, hip, cuda or emu");
      options.target = value;
    } else if (flag == "--module") {
      options.module = value;
    } else if (flag == "--kv-dtype") {
      KvDType dtype;
      if (!parseKvDType(value, dtype))
        return Status::failure(flag,
                               "'" + value + "' is not bf16, fp8 or mxfp4");
      options.kvDType = dtype;
    } else if (flag == "--batch") {
      if (Status s = parseInteger(flag, value, 1, number, kMaxBatch))
        return s;
      options.batch = number;
    } else if (flag == "--q-len") {
      if (Status s = parseInteger(flag, value, 1, number, kMaxQLen))
        return s;
      options.qLen = number;
    } else if (flag == "--kv-len") {
      if (Status s = parseInteger(flag, value, 0, number))
        return s;
      options.kvLen = number;
    } else if (flag == "--kv-lens") {
      std::vector<int64_t> lengths;
      if (Status s = parseLengths(flag, value, lengths))
        return s;
      options.kvLens = lengths;
    } else if (flag == "--heads") {
      if (Status s = parseInteger(flag, value, 1, number))
        return s;
      if (Status s = checkHeadCount(number, flag))
        return s;
      options.heads = number;
    } else if (flag == "--seed") {
      if (Status s = parseInteger(flag, value, 0, number))
        return s;
      options.seed = static_cast<uint64_t>(number);
    } else if (flag == "--kv-spare-rows") {
      if (Status s = parseInteger(flag, value, 0, number, INT32_MAX))
        return s;
      options.spareKvRows = number;
    } else if (flag == "--inputs") {
      options.inputs = value;
    } else if (flag == "--out") {
      options.out = value;
    } else if (flag == "--save-inputs") {
      options.saveInputs = value;
    } else if (flag == "--iters") {
      if (Status s = parseInteger(flag, value, 1, number))
        return s;
      options.iters = number;
    } else if (flag == "--threads") {
      if (Status s = parseInteger(flag, value, 1, number, kMaxThreads))
        return s;
      options.threads = number;
    } else if (flag == "--sm-scale") {
      char *end = nullptr;
      errno = 0;
      float scale = std::strtof(value.c_str(), &end);
      if (*end != '\0' || errno == ERANGE || !std::isfinite(scale) ||
          scale <= 0)
        return Status::failure(flag,
                               "'" + value + "' is not a positive number");
      options.smScale = scale;
    } else if (flag == "--plan") {
      if (!parsePlanMode(value, options.plan))
        return Status::failure(flag, "'" + value +
                                         "' is not reproducible or throughput");
    } else if (flag == "--kernel") {
      options.kernel = value;
    } else if (flag == "--grid") {
      std::array<int64_t, 3> grid;
      if (Status s = parseGrid(value, grid))
        return s;
      options.grid = grid;
    } else if (flag == "--arg") {
      if (Status s = parseArgSpec(value, options.args.emplace_back()))
        return s;
    } else if (flag == "--save") {
      if (Status s = parseSaveSpec(value, options.saves.emplace_back()))
        return s;
    }
  }
  return Status::success();
}

/// Fails when flags of the generic mode and of the MLA mode are mixed.
static Status checkOneMode(const Options &options) {
  std::string kernelFlag, mlaFlag;
  for (const std::string &flag : options.flags) {
    if (contains(kKernelFlags, flag)) {
      if (kernelFlag.empty())
        kernelFlag = flag;
    } else if (!contains(kSharedFlags, flag) && mlaFlag.empty()) {
      mlaFlag = flag;
    }
  }
  if (!kernelFlag.empty() && !mlaFlag.empty())
    return Status::failure(kernelFlag, "conflicts with " + mlaFlag +
                                           " (the generic and MLA modes are "
                                           "exclusive; see --help)");
  return Status::success();
}

/// The checks of validateOptions for the generic mode.
static Status validateKernelOptions(const Options &options) {
  if (options.kernel.empty())
    return Status::failure("--kernel", "required with --grid, --arg and "
                                       "--save (the kernel to run)");
  if (!options.grid)
    return Status::failure("--grid", "required with --kernel (programs per "
                                     "dimension: X[,Y[,Z]])");
  if (options.iters && !options.bench)
    return Status::failure("--iters", "only meaningful with --bench");
  return Status::success();
}

/// Checks required flags and conflicts between flags.
static Status validateOptions(const Options &options) {
  if (Status s = checkOneMode(options))
    return s;
  if (options.target.empty())
    return Status::failure("--target", "required (host, hip, cuda or emu)");
  if (options.module.empty())
    return Status::failure("--module", "required (the compiled module)");
  if (options.kernelMode)
    return validateKernelOptions(options);
  if (!options.kvDType)
    return Status::failure("--kv-dtype", "required (bf16, fp8 or mxfp4)");
  if (!options.inputs.empty()) {
    const char *generatorFlags[] = {"--batch",        "--q-len", "--kv-len",
                                    "--kv-lens",      "--heads", "--seed",
                                    "--kv-spare-rows"};
    bool given[] = {options.batch.has_value(),      options.qLen.has_value(),
                    options.kvLen.has_value(),      options.kvLens.has_value(),
                    options.heads.has_value(),      options.seed.has_value(),
                    options.spareKvRows.has_value()};
    for (size_t i = 0; i < std::size(given); ++i)
      if (given[i])
        return Status::failure(
            "--inputs", std::string("conflicts with ") + generatorFlags[i] +
                            " (the input files fix the problem)");
  } else {
    if (options.kvLen && options.kvLens)
      return Status::failure("--kv-len", "conflicts with --kv-lens");
    if (!options.kvLen && !options.kvLens)
      return Status::failure("--kv-len",
                             "required (or --kv-lens, or --inputs)");
    if (options.kvLens && options.batch &&
        *options.batch != static_cast<int64_t>(options.kvLens->size()))
      return Status::failure(
          "--batch",
          formatString("%lld differs from the %zu lengths of --kv-lens",
                       static_cast<long long>(*options.batch),
                       options.kvLens->size()));
  }
  if (options.iters && !options.bench)
    return Status::failure("--iters", "only meaningful with --bench");
  if (!options.out.empty()) {
    size_t slash = options.out.rfind('/');
    std::string directory =
        slash == std::string::npos ? "." : options.out.substr(0, slash + 1);
    struct stat info;
    if (stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
      return Status::failure("--out",
                             "directory '" + directory + "' does not exist");
  }
  return Status::success();
}

/// "a" when all values are a, else "min..max".
static std::string describeRange(int64_t low, int64_t high) {
  if (low == high)
    return std::to_string(low);
  return std::to_string(low) + ".." + std::to_string(high);
}

/// One line saying what runs, so that logs show the problem and the plan.
static void printSummary(const Options &options, const MlaProblem &problem,
                         const LaunchPlan &plan, std::optional<uint64_t> seed) {
  int64_t minQ = INT64_MAX, maxQ = 0, minKv = INT64_MAX, maxKv = 0;
  for (int64_t seq = 0; seq < problem.batch(); ++seq) {
    minQ = std::min(minQ, problem.qLen(seq));
    maxQ = std::max(maxQ, problem.qLen(seq));
    minKv = std::min(minKv, problem.kvLen(seq));
    maxKv = std::max(maxKv, problem.kvLen(seq));
  }
  std::printf(
      "run: target=%s batch=%lld heads=%lld q_len=%s kv_len=%s "
      "total_kv=%lld kv_dtype=%s plan=%s work_items=%zu combine_items=%zu "
      "max_splits=%lld chunk=%lld part_bytes=%lld\n",
      options.target.c_str(), static_cast<long long>(problem.batch()),
      static_cast<long long>(problem.heads), describeRange(minQ, maxQ).c_str(),
      describeRange(minKv, maxKv).c_str(),
      static_cast<long long>(problem.totalKv()), kvDTypeName(problem.kvDType),
      planModeName(plan.mode), plan.items.size(), plan.combineItems.size(),
      static_cast<long long>(plan.maxSplitsUsed),
      static_cast<long long>(plan.chunkRows),
      static_cast<long long>(plan.partialBytes()));
  if (seed)
    std::printf("inputs: generated, seed=%llu\n",
                static_cast<unsigned long long>(*seed));
  std::fflush(stdout);
}

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

/// The MLA mode after argument parsing. Sets `checkFailed` when --check ran
/// and failed.
static Status runTool(const Options &options, bool &checkFailed) {
  checkFailed = false;
  llvm::StdThreadPool pool(llvm::hardware_concurrency(
      static_cast<unsigned>(options.threads.value_or(0))));
  std::unique_ptr<Backend> backend;
  if (Status s = createBackend(options.target, pool, backend))
    return s;

  float smScale = options.smScale.value_or(1.0f / std::sqrt(576.0f));
  MlaProblem problem;
  std::optional<uint64_t> seed;
  if (!options.inputs.empty()) {
    if (Status s =
            loadProblem(options.inputs, *options.kvDType, smScale, problem))
      return s;
  } else {
    GeneratorOptions generator;
    generator.kvDType = *options.kvDType;
    generator.heads = options.heads.value_or(16);
    generator.qLen = options.qLen.value_or(1);
    // Without --seed every run gets fresh inputs; the summary prints the
    // seed so that a failure can be replayed.
    generator.seed = options.seed.value_or(std::random_device{}());
    seed = generator.seed;
    generator.smScale = smScale;
    generator.spareKvRows = options.spareKvRows.value_or(0);
    if (options.kvLens) {
      generator.kvLens = *options.kvLens;
      generator.kvLensFlag = "--kv-lens";
    } else {
      generator.kvLens.assign(options.batch.value_or(1), *options.kvLen);
      generator.kvLensFlag = "--kv-len";
    }
    if (Status s = generateProblem(generator, pool, problem))
      return s;
  }

  Manifest manifest;
  if (Status s = loadManifest(options.module, manifest))
    return s;
  if (Status s = checkModuleTarget(*backend, manifest))
    return s;
  MlaKernels kernels;
  if (Status s =
          selectMlaKernels(manifest, problem.kvDType, problem.heads, kernels))
    return s;
  if (Status s = backend->loadModule(options.module, manifest))
    return s;

  LaunchPlan plan;
  if (Status s = planSplitKv(problem.qoIndptr, problem.kvIndptr,
                             planOptionsFor(problem, kernels, options.plan,
                                            backend->parallelism()),
                             plan))
    return s;
  printSummary(options, problem, plan, seed);
  if (!options.saveInputs.empty())
    if (Status s = saveProblem(problem, options.saveInputs))
      return s;

  MlaDriver driver(*backend, kernels, problem, plan);
  if (Status s = driver.prepare())
    return s;
  if (Status s = driver.run())
    return s;
  std::vector<uint16_t> out;
  if (Status s = driver.readOutput(out))
    return s;

  if (options.check) {
    std::vector<double> reference = computeReference(problem, pool);
    CheckResult result = compareWithReference(out.data(), reference.data(),
                                              static_cast<int64_t>(out.size()));
    std::printf("%s\n", result.summary().c_str());
    std::fflush(stdout);
    if (!result.passed()) {
      checkFailed = true;
      return Status::failure("--check", "the output differs from the "
                                        "reference");
    }
  }

  if (options.bench) {
    double median = 0;
    int64_t iterations = options.iters.value_or(20);
    if (Status s = driver.benchmark(kWarmupIterations, iterations, median))
      return s;
    int64_t bytes = problem.essentialBytes();
    std::printf("bench: %.1f us median of %lld, %.3g GB/s effective (%lld "
                "bytes), %s plan\n",
                median, static_cast<long long>(iterations),
                median > 0 ? bytes / (median * 1e3) : 0.0,
                static_cast<long long>(bytes), planModeName(plan.mode));
    std::fflush(stdout);
  }

  if (!options.out.empty())
    return writeNpy(options.out, NpyDType::UInt16,
                    {problem.totalQ(), problem.heads, kVDim}, out.data());
  return Status::success();
}

/// The generic mode after argument parsing: binds the arguments, runs the
/// kernel once, optionally times it, and writes the --save buffers.
static Status runKernelMode(const Options &options) {
  llvm::StdThreadPool pool(llvm::hardware_concurrency(
      static_cast<unsigned>(options.threads.value_or(0))));
  std::unique_ptr<Backend> backend;
  if (Status s = createBackend(options.target, pool, backend))
    return s;
  Manifest manifest;
  if (Status s = loadManifest(options.module, manifest))
    return s;
  if (Status s = checkModuleTarget(*backend, manifest))
    return s;
  const KernelInfo *kernel = nullptr;
  if (Status s = findKernel(manifest, options.kernel, kernel))
    return s;
  std::vector<BoundArg> args;
  if (Status s = bindArgs(*kernel, options.args, args))
    return s;
  if (Status s = checkSaves(*kernel, options.saves))
    return s;
  if (Status s = backend->loadModule(options.module, manifest))
    return s;

  const std::array<int64_t, 3> &grid = *options.grid;
  std::printf("run: target=%s kernel=%s grid=%lldx%lldx%lld\n",
              options.target.c_str(), kernel->symbol.c_str(),
              static_cast<long long>(grid[0]), static_cast<long long>(grid[1]),
              static_cast<long long>(grid[2]));
  std::fflush(stdout);
  KernelRunner runner(*backend, *kernel, std::move(args));
  if (Status s = runner.prepare())
    return s;
  if (Status s = runner.run(grid))
    return s;
  // Read back before timing: the timed launches may overwrite the buffers.
  std::vector<NpyArray> saved(options.saves.size());
  for (size_t i = 0; i < saved.size(); ++i)
    if (Status s = runner.readBuffer(options.saves[i].name, saved[i]))
      return s;

  if (options.bench) {
    double median = 0;
    int64_t iterations = options.iters.value_or(20);
    if (Status s =
            runner.benchmark(grid, kWarmupIterations, iterations, median))
      return s;
    std::printf("bench: %.1f us median of %lld\n", median,
                static_cast<long long>(iterations));
    std::fflush(stdout);
  }

  for (size_t i = 0; i < saved.size(); ++i)
    if (Status s = writeNpy(options.saves[i].path, saved[i].dtype,
                            saved[i].shape, saved[i].bytes.data()))
      return s;
  return Status::success();
}

int main(int argc, char **argv) {
  Options options;
  Status status = parseArguments(argc, argv, options);
  if (status.ok() && options.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (status.ok())
    status = validateOptions(options);
  bool checkFailed = false;
  if (status.ok())
    status = options.kernelMode ? runKernelMode(options)
                                : runTool(options, checkFailed);
  if (status.ok())
    return 0;
  std::fprintf(stderr, "mla-run: error: %s\n", status.message().c_str());
  return checkFailed ? kExitCheckFailed : kExitError;
}
