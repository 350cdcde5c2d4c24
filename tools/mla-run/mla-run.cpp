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

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Check.h"
#include "mla/Runtime/DevicePlan.h"
#include "mla/Runtime/Extents.h"
#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/KernelRunner.h"
#include "mla/Runtime/LaunchRules.h"
#include "mla/Runtime/LaunchPlan.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/MlaDriver.h"
#include "mla/Runtime/Npy.h"
#include "mla/Runtime/Problem.h"
#include "mla/Runtime/Reference.h"
#include "mla/Runtime/Status.h"
#include "mla/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace mla::runtime;

namespace cl = llvm::cl;

namespace {

/// Exit statuses.
constexpr int kExitError = 1;
constexpr int kExitCheckFailed = 2;

/// The largest --batch; far beyond any decode batch, small enough that the
/// per-sequence bookkeeping always fits in memory.
constexpr int64_t kMaxBatch = 1 << 20;
constexpr int64_t kMaxThreads = 4096;
/// The most timed launches of --bench: the median of more says nothing new.
constexpr int64_t kMaxIterations = 1000000;

/// Untimed launches before a benchmark.
constexpr int64_t kWarmupIterations = 3;
/// The most --rotate-mib: 64 GiB.
constexpr int64_t kMaxRotateMib = 65536;
/// --rotate-mib on a GPU: above the last-level cache of the chips we target
/// (H200: 60 MiB of L2; MI355X: 256 MiB of Infinity Cache).
constexpr int64_t kDeviceRotateMib = 512;

} // namespace

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

// Flags take their values as text: mla-run's own checks turn them into
// numbers and names, so that every error names the flag in one line.
static cl::OptionCategory bothModes("Both modes");
static cl::OptionCategory
    mlaMode("MLA mode",
            "Runs the MLA decode kernels of the module (docs/ABI.md).");
static cl::OptionCategory generatedInputs("MLA mode: generated inputs",
                                          "randn, quantized like the problem");
static cl::OptionCategory loadedInputs("MLA mode: loaded inputs");
static cl::OptionCategory launchPlan("MLA mode: launch plan");
static cl::OptionCategory results("MLA mode: results");
static cl::OptionCategory
    genericMode("Generic mode",
                "Runs any one kernel, every argument given here.");

static cl::opt<std::string>
    targetFlag("target",
               cl::desc("host (the .so on a thread pool), hip, cuda, or emu\n"
                        "(a module compiled for gfx950-emu or gfx942-emu on\n"
                        "a thread pool)"),
               cl::value_desc("host|hip|cuda|emu"), cl::cat(bothModes));
static cl::opt<std::string> moduleFlag("module",
                                       cl::desc("the compiled module"),
                                       cl::value_desc("FILE"),
                                       cl::cat(bothModes));
static cl::opt<bool> benchFlag("bench",
                               cl::desc("time the launches: median of --iters "
                                        "runs queued back to back (MLA "
                                        "mode: also of --iters whole calls, "
                                        "planning included)"),
                               cl::ValueDisallowed, cl::cat(bothModes));
static cl::opt<std::string>
    itersFlag("iters", cl::desc("timed launches of --bench (default 20)"),
              cl::value_desc("N"), cl::cat(bothModes));
static cl::opt<std::string> rotateFlag(
    "rotate-mib",
    cl::desc("MLA mode --bench: launches cycle through copies of q and the "
             "KV cache such that the copies read between two uses of one "
             "total at least M MiB, so a launch does not find its inputs in "
             "the cache (default: 512 on hip and cuda, 0 on host and emu)"),
    cl::value_desc("M"), cl::cat(results));
static cl::opt<std::string>
    threadsFlag("threads",
                cl::desc("host threads (default: all hardware threads)"),
                cl::value_desc("N"), cl::cat(bothModes));

static cl::opt<std::string> kvDTypeFlag(
    "kv-dtype",
    cl::desc("KV cache format: bf16, fp8 (OCP e4m3fn, per-tensor scale),\n"
             "fp8_fnuz (e4m3fnuz, MI300X's fp8, per-tensor scale) or\n"
             "mxfp4 (packed fp4 with E8M0 scales per 32 elements)"),
    cl::value_desc("bf16|fp8|fp8_fnuz|mxfp4"), cl::cat(mlaMode));
static cl::opt<std::string>
    smScaleFlag("sm-scale", cl::desc("softmax scale (default 1/sqrt(576))"),
                cl::value_desc("X"), cl::cat(mlaMode));

static cl::opt<std::string>
    batchFlag("batch", cl::desc("sequences, each --kv-len long (default 1)"),
              cl::value_desc("B"), cl::cat(generatedInputs));
static cl::opt<std::string> kvLenFlag("kv-len",
                                      cl::desc("KV rows per sequence"),
                                      cl::value_desc("L"),
                                      cl::cat(generatedInputs));
static cl::opt<std::string>
    kvLensFlag("kv-lens",
               cl::desc("one KV length per sequence (batch = their count)"),
               cl::value_desc("L1,L2,..."), cl::cat(generatedInputs));
static cl::opt<std::string>
    qLenFlag("q-len", cl::desc("queries per sequence, 1..4 (default 1)"),
             cl::value_desc("Q"), cl::cat(generatedInputs));
static cl::opt<std::string>
    headsFlag("heads",
              cl::desc("query heads, a multiple of 16 up to 128 (default 16)"),
              cl::value_desc("H"), cl::cat(generatedInputs));
static cl::opt<std::string>
    seedFlag("seed", cl::desc("random seed (default: a fresh one, printed)"),
             cl::value_desc("S"), cl::cat(generatedInputs));
static cl::opt<std::string> spareKvRowsFlag(
    "kv-spare-rows",
    cl::desc("rows the KV cache (and mxfp4 scale tensor) has past the\n"
             "last sequence, as a preallocated pool has; they hold\n"
             "NaN, so a kernel that reads them shows (default 0)"),
    cl::value_desc("N"), cl::cat(generatedInputs));

static cl::opt<std::string> inputsFlag(
    "inputs",
    cl::desc("q.npy, kv.npy, kv_scale.npy (fp8, mxfp4), qo_indptr.npy,\n"
             "kv_indptr.npy (docs/ABI.md); kv.npy and kv_scale.npy\n"
             "may have rows past the last sequence's"),
    cl::value_desc("DIR"), cl::cat(loadedInputs));
static cl::opt<std::string> saveInputsFlag(
    "save-inputs",
    cl::desc("write the inputs of this run there, in that form (for\n"
             "other tools, or to replay the run with --inputs)"),
    cl::value_desc("DIR"), cl::cat(loadedInputs));

static cl::opt<std::string> planFlag(
    "plan",
    cl::desc("how sequences are split into KV ranges (docs/ABI.md):\n"
             "reproducible (default): a sequence's ranges depend only\n"
             "on its own length, so the output bits do not depend on\n"
             "the batch, --threads or the device; balanced: ranges of\n"
             "the batch's work over the programs the device runs at\n"
             "once, one program each, longest first; throughput: as\n"
             "many programs as the device runs at once, each an\n"
             "equal share of the batch's keys, sequences split where\n"
             "a share ends (outputs may differ in the last bits\n"
             "between thread counts and batches)"),
    cl::value_desc("reproducible|balanced|throughput"), cl::cat(launchPlan));
static cl::opt<bool> planOnDeviceFlag(
    "plan-on-device",
    cl::desc("make the reproducible or balanced plan with the module's\n"
             "mla.plan kernel, check its tables against the host\n"
             "planner's bit for bit, and launch with them (sized from\n"
             "the shapes alone, as a caller that never waits for the\n"
             "device sizes them)"),
    cl::ValueDisallowed, cl::cat(launchPlan));

static cl::opt<std::string>
    outFlag("out",
            cl::desc("write the output, [total_q, H, 512] bf16 bits as "
                     "uint16"),
            cl::value_desc("FILE.npy"), cl::cat(results));
static cl::opt<bool>
    checkFlag("check",
              cl::desc("compare with a float64 reference (rtol = atol = "
                       "1e-2)"),
              cl::ValueDisallowed, cl::cat(results));

static cl::opt<std::string> kernelFlag("kernel", cl::desc("the kernel to run"),
                                       cl::value_desc("SYMBOL"),
                                       cl::cat(genericMode));
static cl::opt<std::string>
    gridFlag("grid",
             cl::desc("programs per dimension, each >= 1 (Y and Z default "
                      "to 1); by default the kernel's grid rule, which a\n"
                      "given grid must reach unless the kernel's grid is "
                      "free"),
             cl::value_desc("X[,Y[,Z]]"), cl::cat(genericMode));
static cl::list<std::string>
    argFlags("arg",
             cl::desc("binds argument NAME; every argument is bound once.\n"
                      "ptr:    @FILE.npy, whose dtype fits the element type\n"
                      "        (f32 <f4, bf16 <u2, f16 <f2 or <u2, i32 <i4,\n"
                      "        i64 <i8, i8 and f8 types |u1 or |i1), or\n"
                      "        empty:D0xD1x..., a new buffer of that shape\n"
                      "        filled with NaN (floats) or the largest value\n"
                      "        (integers), so that unwritten elements show\n"
                      "scalar: a number (i32, i64 or f32)"),
             cl::value_desc("NAME=VALUE"), cl::cat(genericMode));
static cl::list<std::string>
    saveFlags("save",
              cl::desc("write buffer NAME after the run, with the shape it "
                       "was\nloaded or created with"),
              cl::value_desc("NAME=FILE.npy"), cl::cat(genericMode));

/// Unknown flags, and arguments that are no flag at all.
static cl::list<std::string> unknownFlags(cl::Sink, cl::Hidden,
                                          cl::cat(bothModes));
static cl::list<std::string> strayArguments(cl::Positional, cl::Hidden,
                                            cl::cat(bothModes));

namespace {

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
  std::optional<int64_t> rotateMib;
  std::optional<int64_t> threads;
  std::optional<float> smScale;
  PlanMode plan = PlanMode::Reproducible;
  bool planOnDevice = false;
  /// Generic mode: set by any flag of its category.
  bool kernelMode = false;
  std::string kernel;
  std::optional<std::array<int64_t, 3>> grid;
  std::vector<ArgSpec> args;
  std::vector<SaveSpec> saves;
  /// The first flag given of each mode, for the check that they do not mix.
  std::string firstKernelFlag;
  std::string firstMlaFlag;
};

} // namespace

static Status parseInteger(const std::string &flag, llvm::StringRef text,
                           int64_t minimum, int64_t &value,
                           int64_t maximum = INT64_MAX) {
  long long parsed;
  if (text.getAsInteger(10, parsed))
    return Status::failure(flag, "'" + text.str() + "' is not an integer");
  if (parsed < minimum)
    return Status::failure(flag, formatString("%lld is less than %lld", parsed,
                                              static_cast<long long>(minimum)));
  if (parsed > maximum)
    return Status::failure(flag, formatString("%lld is more than %lld", parsed,
                                              static_cast<long long>(maximum)));
  value = parsed;
  return Status::success();
}

static Status parseLengths(const std::string &flag, llvm::StringRef text,
                           std::vector<int64_t> &lengths) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  lengths.clear();
  for (llvm::StringRef item : items) {
    int64_t length;
    if (Status s = parseInteger(flag, item, 0, length))
      return s;
    lengths.push_back(length);
  }
  return Status::success();
}

/// "--NAME" of `option`.
static std::string flagName(const cl::Option &option) {
  return "--" + option.ArgStr.str();
}

/// The first of the unknown flags and stray arguments, as an error.
static Status checkStrayArguments() {
  std::optional<std::pair<unsigned, std::string>> first;
  auto consider = [&](const cl::list<std::string> &list) {
    for (unsigned i = 0; i < list.size(); ++i)
      if (!first || list.getPosition(i) < first->first)
        first = {list.getPosition(i), list[i]};
  };
  consider(unknownFlags);
  consider(strayArguments);
  if (!first)
    return Status::success();
  llvm::StringRef arg = first->second;
  if (arg.starts_with("--"))
    return Status::failure(arg.split('=').first.str(),
                           "unknown flag (see --help)");
  return Status::failure(arg.str(), "unexpected argument (flags start with "
                                    "--; see --help)");
}

/// Parses argv into `options`; every error names the flag. llvm::cl itself
/// reports a flag without its value and a value given to a switch, and
/// exits; it also answers --help and --version.
static Status parseArguments(int argc, char **argv, Options &options) {
  const cl::OptionCategory *mlaCategories[] = {
      &mlaMode, &generatedInputs, &loadedInputs, &launchPlan, &results};
  cl::HideUnrelatedOptions({&bothModes, &mlaMode, &generatedInputs,
                            &loadedInputs, &launchPlan, &results,
                            &genericMode});
  cl::ParseCommandLineOptions(argc, argv, kOverview, /*Errs=*/nullptr,
                              /*VFS=*/nullptr, /*EnvVar=*/nullptr,
                              /*LongOptionsUseDoubleDash=*/true);
  if (Status s = checkStrayArguments())
    return s;

  // Every flag given, first occurrences in order, for the checks below.
  // (cl::list's operator& yields its storage, hence std::addressof.)
  const cl::Option *repeatable[] = {std::addressof(argFlags),
                                    std::addressof(saveFlags)};
  const cl::Option *strays[] = {std::addressof(unknownFlags),
                                std::addressof(strayArguments)};
  std::vector<std::pair<unsigned, cl::Option *>> given;
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (option->getNumOccurrences() && !llvm::is_contained(strays, option))
      given.push_back({option->getPosition(), option});
  }
  for (auto &[position, option] : given)
    if (llvm::is_contained(repeatable, option))
      position = static_cast<cl::list<std::string> *>(option)->getPosition(0);
  llvm::sort(given,
             [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto [position, option] : given) {
    std::string flag = flagName(*option);
    if (!llvm::is_contained(repeatable, option) &&
        option->getNumOccurrences() > 1)
      return Status::failure(flag, "given more than once");
    const cl::OptionCategory *category = option->Categories.front();
    bool kernelFlag = category == &genericMode;
    bool mlaFlag = llvm::is_contained(mlaCategories, category);
    options.kernelMode |= kernelFlag;
    if (kernelFlag && options.firstKernelFlag.empty())
      options.firstKernelFlag = flag;
    if (mlaFlag && options.firstMlaFlag.empty())
      options.firstMlaFlag = flag;
  }

  // Values, flag by flag.
  auto value = [](const cl::opt<std::string> &option,
                  std::string &text) -> Status {
    text = option;
    if (option.getNumOccurrences() && text.empty())
      return Status::failure(flagName(option), "empty value");
    return Status::success();
  };
  auto integer = [&](const cl::opt<std::string> &option, int64_t minimum,
                     std::optional<int64_t> &result,
                     int64_t maximum = INT64_MAX) -> Status {
    std::string text;
    if (Status s = value(option, text))
      return s;
    if (!option.getNumOccurrences())
      return Status::success();
    int64_t number;
    if (Status s =
            parseInteger(flagName(option), text, minimum, number, maximum))
      return s;
    result = number;
    return Status::success();
  };
  std::string text;
  if (Status s = value(targetFlag, text))
    return s;
  if (targetFlag.getNumOccurrences() && text != "host" && text != "hip" &&
      text != "cuda" && text != "emu")
    return Status::failure("--target",
                           "'" + text + "' is not host, hip, cuda or emu");
  options.target = text;
  if (Status s = value(moduleFlag, options.module))
    return s;
  if (Status s = value(kvDTypeFlag, text))
    return s;
  if (kvDTypeFlag.getNumOccurrences()) {
    KvDType dtype;
    if (!parseKvDType(text, dtype))
      return Status::failure("--kv-dtype",
                             "'" + text +
                                 "' is not bf16, fp8, fp8_fnuz or mxfp4");
    options.kvDType = dtype;
  }
  if (Status s = integer(batchFlag, 1, options.batch, kMaxBatch))
    return s;
  if (Status s = integer(qLenFlag, 1, options.qLen, kMaxQLen))
    return s;
  if (Status s = integer(kvLenFlag, 0, options.kvLen))
    return s;
  if (Status s = value(kvLensFlag, text))
    return s;
  if (kvLensFlag.getNumOccurrences()) {
    std::vector<int64_t> lengths;
    if (Status s = parseLengths("--kv-lens", text, lengths))
      return s;
    options.kvLens = lengths;
  }
  if (Status s = integer(headsFlag, 1, options.heads))
    return s;
  if (options.heads)
    if (Status s = checkHeadCount(*options.heads, "--heads"))
      return s;
  std::optional<int64_t> seed;
  if (Status s = integer(seedFlag, 0, seed))
    return s;
  if (seed)
    options.seed = static_cast<uint64_t>(*seed);
  if (Status s = integer(spareKvRowsFlag, 0, options.spareKvRows, INT32_MAX))
    return s;
  if (Status s = value(inputsFlag, options.inputs))
    return s;
  if (Status s = value(outFlag, options.out))
    return s;
  if (Status s = value(saveInputsFlag, options.saveInputs))
    return s;
  if (Status s = integer(itersFlag, 1, options.iters, kMaxIterations))
    return s;
  if (Status s = integer(rotateFlag, 0, options.rotateMib, kMaxRotateMib))
    return s;
  if (Status s = integer(threadsFlag, 1, options.threads, kMaxThreads))
    return s;
  if (Status s = value(smScaleFlag, text))
    return s;
  if (smScaleFlag.getNumOccurrences()) {
    char *end = nullptr;
    errno = 0;
    float scale = std::strtof(text.c_str(), &end);
    if (*end != '\0' || errno == ERANGE || !std::isfinite(scale) || scale <= 0)
      return Status::failure("--sm-scale",
                             "'" + text + "' is not a positive number");
    options.smScale = scale;
  }
  if (Status s = value(planFlag, text))
    return s;
  if (planFlag.getNumOccurrences() && !parsePlanMode(text, options.plan))
    return Status::failure(
        "--plan", "'" + text + "' is not reproducible, balanced or throughput");
  options.planOnDevice = planOnDeviceFlag;
  if (options.planOnDevice && options.plan == PlanMode::Throughput)
    return Status::failure("--plan-on-device",
                           "the plan kernel makes the reproducible and "
                           "balanced plans, not --plan throughput");
  options.check = checkFlag;
  options.bench = benchFlag;
  if (Status s = value(kernelFlag, options.kernel))
    return s;
  if (Status s = value(gridFlag, text))
    return s;
  if (gridFlag.getNumOccurrences()) {
    std::array<int64_t, 3> grid;
    if (Status s = parseGrid(text, grid))
      return s;
    options.grid = grid;
  }
  for (const std::string &arg : argFlags) {
    if (arg.empty())
      return Status::failure("--arg", "empty value");
    if (Status s = parseArgSpec(arg, options.args.emplace_back()))
      return s;
  }
  for (const std::string &save : saveFlags) {
    if (save.empty())
      return Status::failure("--save", "empty value");
    if (Status s = parseSaveSpec(save, options.saves.emplace_back()))
      return s;
  }
  return Status::success();
}

/// Fails when flags of the generic mode and of the MLA mode are mixed.
static Status checkOneMode(const Options &options) {
  if (!options.firstKernelFlag.empty() && !options.firstMlaFlag.empty())
    return Status::failure(options.firstKernelFlag,
                           "conflicts with " + options.firstMlaFlag +
                               " (the generic and MLA modes are "
                               "exclusive; see --help)");
  return Status::success();
}

/// The checks of validateOptions for the generic mode.
static Status validateKernelOptions(const Options &options) {
  if (options.kernel.empty())
    return Status::failure("--kernel", "required with --grid, --arg and "
                                       "--save (the kernel to run)");
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
    return Status::failure("--kv-dtype", "required (bf16, fp8, fp8_fnuz or mxfp4)");
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
  if (options.rotateMib && !options.bench)
    return Status::failure("--rotate-mib", "only meaningful with --bench");
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

/// Replaces the host's `plan` by the plan kernel's, once it has checked
/// that the two agree: the launches then run the padded tables a caller
/// that plans on the device runs.
static Status useDevicePlan(Backend &backend, const Manifest &manifest,
                            const MlaProblem &problem,
                            const PlanOptions &options, LaunchPlan &plan) {
  const KernelInfo *kernel = nullptr;
  if (Status s = selectPlanKernel(manifest, kernel))
    return s;
  LaunchPlan device;
  if (Status s = planOnDevice(backend, *kernel, problem.qoIndptr,
                              problem.kvIndptr, problem.kvRows(), options,
                              device))
    return s;
  if (Status s = compareWithHostPlan(device, plan))
    return s;
  std::printf("plan: %s matches the host plan (%zu work items, %zu combine "
              "items) within capacities of %lld programs, %zu combine items "
              "and %lld part rows\n",
              kernel->symbol.c_str(), plan.items.size(),
              plan.combineItems.size(),
              static_cast<long long>(device.programs()),
              device.combineItems.size(),
              static_cast<long long>(device.partRows));
  std::fflush(stdout);
  plan = std::move(device);
  return Status::success();
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
      "total_kv=%lld kv_dtype=%s plan=%s programs=%lld work_items=%zu "
      "combine_items=%zu max_splits=%lld part_bytes=%lld\n",
      options.target.c_str(), static_cast<long long>(problem.batch()),
      static_cast<long long>(problem.heads), describeRange(minQ, maxQ).c_str(),
      describeRange(minKv, maxKv).c_str(),
      static_cast<long long>(problem.totalKv()), kvDTypeName(problem.kvDType),
      planModeName(plan.mode), static_cast<long long>(plan.programs()),
      plan.items.size(), plan.combineItems.size(),
      static_cast<long long>(plan.maxSplitsUsed),
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
          selectMlaKernels(manifest, problem.kvDType, problem.heads,
                           problem.maxQueryRows(), kernels))
    return s;
  if (Status s = backend->loadModule(options.module, manifest))
    return s;

  PlanOptions planOptions =
      planOptionsFor(problem, kernels, options.plan,
                     backend->parallelism(*kernels.partial));
  LaunchPlan plan;
  if (Status s = planSplitKv(problem.qoIndptr, problem.kvIndptr, planOptions,
                             plan))
    return s;
  if (options.planOnDevice)
    if (Status s = useDevicePlan(*backend, manifest, problem, planOptions,
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
    bool device = options.target == "hip" || options.target == "cuda";
    int64_t rotateMib =
        options.rotateMib.value_or(device ? kDeviceRotateMib : 0);
    int64_t copies = 1;
    if (Status s = driver.benchmark(kWarmupIterations, iterations,
                                    static_cast<size_t>(rotateMib) << 20,
                                    median, copies))
      return s;
    int64_t bytes = problem.essentialBytes();
    std::printf("bench: %.1f us median of %lld queued back to back, %.3g GB/s "
                "effective (%lld bytes), %s plan, inputs in %lld cop%s\n",
                median, static_cast<long long>(iterations),
                median > 0 ? bytes / (median * 1e3) : 0.0,
                static_cast<long long>(bytes), planModeName(plan.mode),
                static_cast<long long>(copies), copies == 1 ? "y" : "ies");
    std::fflush(stdout);
    double wholeCall = 0;
    if (Status s = driver.benchmarkWholeCall(
            planOptions, kWarmupIterations, iterations,
            static_cast<size_t>(rotateMib) << 20, wholeCall))
      return s;
    std::printf("whole call: %.1f us median of %lld timed alone (indptrs "
                "read back, planned on the host, plan uploaded, launched)\n",
                wholeCall, static_cast<long long>(iterations));
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
  if (Status s = checkRequirements(*kernel, args))
    return s;
  std::array<int64_t, 3> grid;
  if (Status s = launchGrid(*kernel, args, options.grid, "--grid", grid))
    return s;
  // A rule may ask for no programs (rows = 0): nothing runs or is reached.
  bool empty = llvm::is_contained(grid, 0);
  if (!empty)
    if (Status s = checkExtents(*kernel, args, grid))
      return s;
  if (Status s = backend->loadModule(options.module, manifest))
    return s;

  std::printf("run: target=%s kernel=%s grid=%lldx%lldx%lld%s\n",
              options.target.c_str(), kernel->symbol.c_str(),
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
  std::vector<NpyArray> saved(options.saves.size());
  for (size_t i = 0; i < saved.size(); ++i)
    if (Status s = runner.readBuffer(options.saves[i].name, saved[i]))
      return s;

  if (options.bench && !empty) {
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
  Options options;
  Status status = parseArguments(argc, argv, options);
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
