//===- MlaMode.cpp - Run MLA decode on a problem --------------------------===//
//
// Generates or loads an MLA decode problem, plans it, runs the module's MLA
// kernels on it, and optionally checks the output against a float64
// reference, times it and saves it.
//
//===----------------------------------------------------------------------===//

#include "Modes.h"

#include "mla/Decode/Check.h"
#include "mla/Decode/DevicePlan.h"
#include "mla/Decode/LaunchPlan.h"
#include "mla/Decode/MlaDriver.h"
#include "mla/Decode/Problem.h"
#include "mla/Decode/Reference.h"
#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/Npy.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <sys/stat.h>

using namespace mla::decode;
using namespace mla::runtime;
using namespace mla::run;

namespace cl = llvm::cl;

/// The largest --batch; far beyond any decode batch, small enough that the
/// per-sequence bookkeeping always fits in memory.
constexpr int64_t kMaxBatch = 1 << 20;
/// The most --rotate-mib: 64 GiB.
constexpr int64_t kMaxRotateMib = 65536;
/// --rotate-mib on a GPU: above the last-level cache of the chips we target
/// (H200: 60 MiB of L2; MI355X: 256 MiB of Infinity Cache).
constexpr int64_t kDeviceRotateMib = 512;

/// A --kv-dtype value, spelled as the runtime spells it.
static cl::OptionEnumValue kvDTypeValue(KvDType dtype) {
  return clEnumValN(dtype, kvDTypeName(dtype), "");
}

/// A --plan value, spelled as the runtime spells it.
static cl::OptionEnumValue planValue(PlanMode mode) {
  return clEnumValN(mode, planModeName(mode), "");
}

static cl::opt<KvDType, false, ChoiceParser<KvDType>> kvDTypeFlag(
    "kv-dtype",
    cl::desc("KV cache format: bf16, fp8 (OCP e4m3fn, per-tensor scale),\n"
             "fp8_fnuz (e4m3fnuz, MI300X's fp8, per-tensor scale) or\n"
             "mxfp4 (packed fp4 with E8M0 scales per 32 elements)"),
    cl::value_desc("bf16|fp8|fp8_fnuz|mxfp4"),
    cl::values(kvDTypeValue(KvDType::BF16), kvDTypeValue(KvDType::FP8),
               kvDTypeValue(KvDType::FP8_FNUZ), kvDTypeValue(KvDType::MXFP4)),
    cl::cat(mlaCategory));
static cl::opt<float>
    smScaleFlag("sm-scale", cl::desc("softmax scale (default 1/sqrt(576))"),
                cl::value_desc("X"), cl::init(1.0f / std::sqrt(576.0f)),
                cl::cat(mlaCategory));

static IntegerFlag
    batchFlag("batch", cl::desc("sequences, each --kv-len long (default 1)"),
              cl::value_desc("B"), cl::init(1),
              cl::cat(generatedInputsCategory));
static IntegerFlag kvLenFlag("kv-len", cl::desc("KV rows per sequence"),
                             cl::value_desc("L"),
                             cl::cat(generatedInputsCategory));
static IntegerListFlag
    kvLensFlag("kv-lens",
               cl::desc("one KV length per sequence (batch = their count)"),
               cl::value_desc("L1,L2,..."), cl::CommaSeparated,
               cl::cat(generatedInputsCategory));
static IntegerFlag qLenFlag("q-len",
                            cl::desc("queries per sequence, 1..4 (default 1)"),
                            cl::value_desc("Q"), cl::init(1),
                            cl::cat(generatedInputsCategory));
static IntegerFlag headsFlag(
    "heads", cl::desc("query heads, a multiple of 16 up to 128 (default 16)"),
    cl::value_desc("H"), cl::init(16), cl::cat(generatedInputsCategory));
static IntegerFlag
    seedFlag("seed", cl::desc("random seed (default: a fresh one, printed)"),
             cl::value_desc("S"), cl::cat(generatedInputsCategory));
static IntegerFlag spareKvRowsFlag(
    "kv-spare-rows",
    cl::desc("rows the KV cache (and mxfp4 scale tensor) has past the\n"
             "last sequence, as a preallocated pool has; they hold\n"
             "NaN, so a kernel that reads them shows (default 0)"),
    cl::value_desc("N"), cl::init(0), cl::cat(generatedInputsCategory));

static cl::opt<std::string> inputsFlag(
    "inputs",
    cl::desc("q.npy, kv.npy, kv_scale.npy (fp8, mxfp4), qo_indptr.npy,\n"
             "kv_indptr.npy (docs/ABI.md); kv.npy and kv_scale.npy\n"
             "may have rows past the last sequence's"),
    cl::value_desc("DIR"), cl::cat(loadedInputsCategory));
static cl::opt<std::string> saveInputsFlag(
    "save-inputs",
    cl::desc("write the inputs of this run there, in that form (for\n"
             "other tools, or to replay the run with --inputs)"),
    cl::value_desc("DIR"), cl::cat(loadedInputsCategory));

static cl::opt<PlanMode, false, ChoiceParser<PlanMode>> planFlag(
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
    cl::value_desc("reproducible|balanced|throughput"),
    cl::values(planValue(PlanMode::Reproducible), planValue(PlanMode::Balanced),
               planValue(PlanMode::Throughput)),
    cl::init(PlanMode::Reproducible), cl::cat(launchPlanCategory));
static cl::opt<bool> planOnDeviceFlag(
    "plan-on-device",
    cl::desc("make the reproducible or balanced plan with the module's\n"
             "mla.plan kernel, check its tables against the host\n"
             "planner's bit for bit, and launch with them (sized from\n"
             "the shapes alone, as a caller that never waits for the\n"
             "device sizes them)"),
    cl::ValueDisallowed, cl::cat(launchPlanCategory));

static cl::opt<std::string>
    outFlag("out",
            cl::desc("write the output, [total_q, H, 512] bf16 bits as "
                     "uint16"),
            cl::value_desc("FILE.npy"), cl::cat(resultsCategory));
static cl::opt<bool>
    checkFlag("check",
              cl::desc("compare with a float64 reference (rtol = atol = "
                       "1e-2)"),
              cl::ValueDisallowed, cl::cat(resultsCategory));
static IntegerFlag rotateFlag(
    "rotate-mib",
    cl::desc("MLA mode --bench: launches cycle through copies of q and the "
             "KV cache such that the copies read between two uses of one "
             "total at least M MiB, so a launch does not find its inputs in "
             "the cache (default: 512 on hip and cuda, 0 on host and emu)"),
    cl::value_desc("M"), cl::cat(resultsCategory));

Status mla::run::checkMlaValues() {
  if (Status s = checkRange(batchFlag, 1, kMaxBatch))
    return s;
  if (Status s = checkRange(qLenFlag, 1, kMaxQLen))
    return s;
  if (Status s = checkRange(kvLenFlag, 0))
    return s;
  for (int64_t length : kvLensFlag)
    if (length < 0)
      return Status::failure("--kv-lens",
                             llvm::formatv("{0} is less than 0", length).str());
  if (Status s = checkRange(headsFlag, 1))
    return s;
  if (headsFlag.getNumOccurrences())
    if (Status s = checkHeadCount(headsFlag, "--heads"))
      return s;
  if (Status s = checkRange(seedFlag, 0))
    return s;
  if (Status s = checkRange(spareKvRowsFlag, 0, INT32_MAX))
    return s;
  if (Status s = checkRange(rotateFlag, 0, kMaxRotateMib))
    return s;
  if (!std::isfinite(smScaleFlag) || smScaleFlag <= 0)
    return Status::failure(
        "--sm-scale",
        // formatv has no %g.
        llvm::formatv("'{0}' is not a positive number",
                      llvm::format("%g", static_cast<double>(smScaleFlag)))
            .str());
  for (const cl::opt<std::string> *flag :
       {&inputsFlag, &saveInputsFlag, &outFlag})
    if (Status s = checkNotEmpty(*flag))
      return s;
  if (planOnDeviceFlag && planFlag == PlanMode::Throughput)
    return Status::failure("--plan-on-device",
                           "the plan kernel makes the reproducible and "
                           "balanced plans, not --plan throughput");
  return Status::success();
}

/// The flags the generated problem takes and that loaded inputs fix.
static const cl::Option *const generatorFlags[] = {
    &batchFlag,
    &qLenFlag,
    &kvLenFlag,
    // cl::list's operator& yields its storage.
    std::addressof(kvLensFlag),
    &headsFlag,
    &seedFlag,
    &spareKvRowsFlag,
};

/// Checks required flags and conflicts between flags.
static Status checkMlaFlags(const CommonOptions &common) {
  if (!kvDTypeFlag.getNumOccurrences())
    return Status::failure(
        "--kv-dtype", "required (" + kvDTypeFlag.getParser().names() + ")");
  if (inputsFlag.getNumOccurrences()) {
    for (const cl::Option *flag : generatorFlags)
      if (flag->getNumOccurrences())
        return Status::failure("--inputs", "conflicts with " + flagName(*flag) +
                                               " (the input files fix the "
                                               "problem)");
  } else {
    bool kvLen = kvLenFlag.getNumOccurrences();
    bool kvLens = kvLensFlag.getNumOccurrences();
    if (kvLen && kvLens)
      return Status::failure("--kv-len", "conflicts with --kv-lens");
    if (!kvLen && !kvLens)
      return Status::failure("--kv-len",
                             "required (or --kv-lens, or --inputs)");
    if (kvLens && batchFlag.getNumOccurrences() &&
        batchFlag != static_cast<int64_t>(kvLensFlag.size()))
      return Status::failure(
          "--batch",
          llvm::formatv("{0} differs from the {1} lengths of --kv-lens",
                        static_cast<int64_t>(batchFlag), kvLensFlag.size())
              .str());
  }
  if (rotateFlag.getNumOccurrences() && !common.bench)
    return Status::failure("--rotate-mib", "only meaningful with --bench");
  if (!outFlag.empty()) {
    size_t slash = outFlag.rfind('/');
    std::string directory =
        slash == std::string::npos ? "." : outFlag.substr(0, slash + 1);
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
  if (Status s =
          planOnDevice(backend, *kernel, problem.qoIndptr, problem.kvIndptr,
                       problem.kvRows(), options, device))
    return s;
  if (Status s = compareWithHostPlan(device, plan))
    return s;
  std::printf(
      "plan: %s matches the host plan (%zu work items, %zu combine "
      "items) within capacities of %lld programs, %zu combine items "
      "and %lld part rows\n",
      kernel->symbol.c_str(), plan.items.size(), plan.combineItems.size(),
      static_cast<long long>(device.programs()), device.combineItems.size(),
      static_cast<long long>(device.partRows));
  std::fflush(stdout);
  plan = std::move(device);
  return Status::success();
}

/// One line saying what runs, so that logs show the problem, the plan and
/// the partial kernel chosen for its rows.
static void printSummary(const CommonOptions &common, const MlaProblem &problem,
                         const LaunchPlan &plan, const MlaKernels &kernels,
                         std::optional<uint64_t> seed) {
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
      "combine_items=%zu max_splits=%lld part_bytes=%lld partial=%s\n",
      common.targetName.c_str(), static_cast<long long>(problem.batch()),
      static_cast<long long>(problem.heads), describeRange(minQ, maxQ).c_str(),
      describeRange(minKv, maxKv).c_str(),
      static_cast<long long>(problem.totalKv()), kvDTypeName(problem.kvDType),
      planModeName(plan.mode), static_cast<long long>(plan.programs()),
      plan.items.size(), plan.combineItems.size(),
      static_cast<long long>(plan.maxSplitsUsed),
      static_cast<long long>(plan.partialBytes()),
      kernels.partial->symbol.c_str());
  if (seed)
    std::printf("inputs: generated, seed=%llu\n",
                static_cast<unsigned long long>(*seed));
  std::fflush(stdout);
}

/// The problem of --inputs, or one generated from the flags. Sets `seed` to
/// the generator's.
static Status makeProblem(llvm::ThreadPoolInterface &pool, MlaProblem &problem,
                          std::optional<uint64_t> &seed) {
  if (inputsFlag.getNumOccurrences())
    return loadProblem(inputsFlag, kvDTypeFlag, smScaleFlag, problem);
  GeneratorOptions generator;
  generator.kvDType = kvDTypeFlag;
  generator.heads = headsFlag;
  generator.qLen = qLenFlag;
  // Without --seed every run gets fresh inputs; the summary prints the seed
  // so that a failure can be replayed.
  generator.seed = seedFlag.getNumOccurrences()
                       ? static_cast<uint64_t>(seedFlag)
                       : std::random_device{}();
  seed = generator.seed;
  generator.smScale = smScaleFlag;
  generator.spareKvRows = spareKvRowsFlag;
  if (kvLensFlag.getNumOccurrences()) {
    generator.kvLens.assign(kvLensFlag.begin(), kvLensFlag.end());
    generator.kvLensFlag = "--kv-lens";
  } else {
    generator.kvLens.assign(static_cast<size_t>(batchFlag.getValue()),
                            kvLenFlag.getValue());
    generator.kvLensFlag = "--kv-len";
  }
  return generateProblem(generator, pool, problem);
}

/// Times the launches and the whole calls, planning included.
static Status benchmark(const CommonOptions &common, MlaDriver &driver,
                        const MlaProblem &problem, const LaunchPlan &plan,
                        const PlanOptions &planOptions) {
  bool device = common.target == Target::Hip || common.target == Target::Cuda;
  int64_t rotateMib = rotateFlag.getNumOccurrences()
                          ? static_cast<int64_t>(rotateFlag)
                          : (device ? kDeviceRotateMib : 0);
  size_t rotateBytes = static_cast<size_t>(rotateMib) << 20;
  double median = 0;
  int64_t copies = 1;
  if (Status s = driver.benchmark(kWarmupIterations, common.iterations,
                                  rotateBytes, median, copies))
    return s;
  int64_t bytes = problem.essentialBytes();
  std::printf("bench: %.1f us median of %lld queued back to back, %.3g GB/s "
              "effective (%lld bytes), %s plan, inputs in %lld cop%s\n",
              median, static_cast<long long>(common.iterations),
              median > 0 ? bytes / (median * 1e3) : 0.0,
              static_cast<long long>(bytes), planModeName(plan.mode),
              static_cast<long long>(copies), copies == 1 ? "y" : "ies");
  std::fflush(stdout);
  double wholeCall = 0;
  if (Status s =
          driver.benchmarkWholeCall(planOptions, kWarmupIterations,
                                    common.iterations, rotateBytes, wholeCall))
    return s;
  std::printf("whole call: %.1f us median of %lld timed alone (indptrs "
              "read back, planned on the host, plan uploaded, launched)\n",
              wholeCall, static_cast<long long>(common.iterations));
  std::fflush(stdout);
  return Status::success();
}

Status mla::run::runMlaMode(const CommonOptions &common, bool &checkFailed) {
  checkFailed = false;
  if (Status s = checkMlaFlags(common))
    return s;
  llvm::StdThreadPool pool(llvm::hardware_concurrency(common.threads));
  MlaProblem problem;
  std::optional<uint64_t> seed;
  if (Status s = makeProblem(pool, problem, seed))
    return s;

  std::unique_ptr<Backend> backend;
  Manifest manifest;
  if (Status s = openModule(common, pool, backend, manifest))
    return s;
  MlaKernels kernels;
  if (Status s = selectMlaKernels(manifest, problem.kvDType, problem.heads,
                                  problem.maxQueryRows(), kernels))
    return s;
  if (Status s = backend->loadModule(common.module, manifest))
    return s;

  PlanOptions planOptions = planOptionsFor(
      problem, kernels, planFlag, backend->parallelism(*kernels.partial));
  LaunchPlan plan;
  if (Status s =
          planSplitKv(problem.qoIndptr, problem.kvIndptr, planOptions, plan))
    return s;
  if (planOnDeviceFlag)
    if (Status s =
            useDevicePlan(*backend, manifest, problem, planOptions, plan))
      return s;
  printSummary(common, problem, plan, kernels, seed);
  if (saveInputsFlag.getNumOccurrences())
    if (Status s = saveProblem(problem, saveInputsFlag))
      return s;

  MlaDriver driver(*backend, kernels, problem, plan);
  if (Status s = driver.prepare())
    return s;
  if (Status s = driver.run())
    return s;
  std::vector<uint16_t> out;
  if (Status s = driver.readOutput(out))
    return s;

  if (checkFlag) {
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

  if (common.bench)
    if (Status s = benchmark(common, driver, problem, plan, planOptions))
      return s;

  if (outFlag.getNumOccurrences())
    return writeNpy(outFlag, NpyDType::UInt16,
                    {problem.totalQ(), problem.heads, kVDim}, out.data());
  return Status::success();
}
