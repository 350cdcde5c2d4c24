//===- Options.cpp - mla-run's command line -------------------------------===//

#include "Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

using namespace mla::runtime;

namespace cl = llvm::cl;

namespace mla::run {

cl::OptionCategory bothModesCategory("Both modes");
cl::OptionCategory
    mlaCategory("MLA mode",
                "Runs the MLA decode kernels of the module (docs/ABI.md).");
cl::OptionCategory generatedInputsCategory("MLA mode: generated inputs",
                                           "randn, quantized like the problem");
cl::OptionCategory loadedInputsCategory("MLA mode: loaded inputs");
cl::OptionCategory launchPlanCategory("MLA mode: launch plan");
cl::OptionCategory resultsCategory("MLA mode: results");
cl::OptionCategory
    genericCategory("Generic mode",
                    "Runs any one kernel, every argument given here.");

} // namespace mla::run

using namespace mla::run;

/// The most host threads and timed launches (the median of more says
/// nothing new).
constexpr int64_t kMaxThreads = 4096;
constexpr int64_t kMaxIterations = 1000000;

static cl::opt<Target, false, ChoiceParser<Target>>
    targetFlag("target",
               cl::desc("host (the .so on a thread pool), hip, cuda, or emu\n"
                        "(a module compiled for gfx950-emu or gfx942-emu on\n"
                        "a thread pool)"),
               cl::value_desc("host|hip|cuda|emu"),
               cl::values(clEnumValN(Target::Host, "host", ""),
                          clEnumValN(Target::Hip, "hip", ""),
                          clEnumValN(Target::Cuda, "cuda", ""),
                          clEnumValN(Target::Emu, "emu", "")),
               cl::cat(bothModesCategory));
static cl::opt<std::string> moduleFlag("module",
                                       cl::desc("the compiled module"),
                                       cl::value_desc("FILE"),
                                       cl::cat(bothModesCategory));
static cl::opt<bool> benchFlag("bench",
                               cl::desc("time the launches: median of --iters "
                                        "runs queued back to back (MLA "
                                        "mode: also of --iters whole calls, "
                                        "planning included)"),
                               cl::ValueDisallowed, cl::cat(bothModesCategory));
static IntegerFlag itersFlag("iters",
                             cl::desc("timed launches of --bench (default 20)"),
                             cl::value_desc("N"), cl::init(20),
                             cl::cat(bothModesCategory));
static IntegerFlag
    threadsFlag("threads",
                cl::desc("host threads (default: all hardware threads)"),
                cl::value_desc("N"), cl::init(0), cl::cat(bothModesCategory));

/// Unknown flags, and arguments that are no flag at all: collected rather
/// than rejected by llvm::cl, so that the error names them in our words.
static cl::list<std::string> unknownFlags(cl::Sink, cl::Hidden,
                                          cl::cat(bothModesCategory));
static cl::list<std::string> strayArguments(cl::Positional, cl::Hidden,
                                            cl::cat(bothModesCategory));

std::string mla::run::flagName(const cl::Option &option) {
  return "--" + option.ArgStr.str();
}

Status mla::run::checkRange(const IntegerFlag &flag, int64_t minimum,
                            int64_t maximum) {
  if (!flag.getNumOccurrences())
    return Status::success();
  int64_t value = flag;
  if (value < minimum)
    return Status::failure(
        flagName(flag),
        llvm::formatv("{0} is less than {1}", value, minimum).str());
  if (value > maximum)
    return Status::failure(
        flagName(flag),
        llvm::formatv("{0} is more than {1}", value, maximum).str());
  return Status::success();
}

Status mla::run::checkNotEmpty(const cl::opt<std::string> &flag) {
  if (flag.getNumOccurrences() && flag.empty())
    return Status::failure(flagName(flag), "empty value");
  return Status::success();
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

Status mla::run::parseCommandLine(int argc, char **argv, const char *overview,
                                  Mode &mode) {
  const cl::OptionCategory *mlaCategories[] = {
      &mlaCategory, &generatedInputsCategory, &loadedInputsCategory,
      &launchPlanCategory, &resultsCategory};
  cl::HideUnrelatedOptions({&bothModesCategory, &mlaCategory,
                            &generatedInputsCategory, &loadedInputsCategory,
                            &launchPlanCategory, &resultsCategory,
                            &genericCategory});
  cl::ParseCommandLineOptions(argc, argv, overview, /*Errs=*/nullptr,
                              /*VFS=*/nullptr, /*EnvVar=*/nullptr,
                              /*LongOptionsUseDoubleDash=*/true);
  if (Status s = checkStrayArguments())
    return s;

  // The flags given, in order; a list (which may repeat) at its last
  // occurrence.
  std::vector<cl::Option *> given;
  for (auto &entry : cl::getRegisteredOptions())
    if (entry.second->getNumOccurrences())
      given.push_back(entry.second);
  llvm::sort(given, [](const cl::Option *a, const cl::Option *b) {
    return a->getPosition() < b->getPosition();
  });
  const cl::Option *firstMla = nullptr;
  const cl::Option *firstKernel = nullptr;
  for (const cl::Option *option : given) {
    // llvm::cl keeps the last value of a cl::opt given twice.
    if (option->getNumOccurrencesFlag() == cl::Optional &&
        option->getNumOccurrences() > 1)
      return Status::failure(flagName(*option), "given more than once");
    const cl::OptionCategory *category = option->Categories.front();
    if (category == &genericCategory && !firstKernel)
      firstKernel = option;
    if (llvm::is_contained(mlaCategories, category) && !firstMla)
      firstMla = option;
  }
  if (firstKernel && firstMla)
    return Status::failure(flagName(*firstKernel),
                           "conflicts with " + flagName(*firstMla) +
                               " (the generic and MLA modes are exclusive; "
                               "see --help)");
  mode = firstKernel ? Mode::Kernel : Mode::Mla;
  return Status::success();
}

Status mla::run::readCommonOptions(CommonOptions &options) {
  if (Status s = checkRange(itersFlag, 1, kMaxIterations))
    return s;
  if (Status s = checkRange(threadsFlag, 1, kMaxThreads))
    return s;
  if (Status s = checkNotEmpty(moduleFlag))
    return s;
  if (!targetFlag.getNumOccurrences())
    return Status::failure("--target",
                           "required (" + targetFlag.getParser().names() + ")");
  if (moduleFlag.empty())
    return Status::failure("--module", "required (the compiled module)");
  if (itersFlag.getNumOccurrences() && !benchFlag)
    return Status::failure("--iters", "only meaningful with --bench");
  options.target = targetFlag;
  options.targetName = targetFlag.getParser().nameOf(targetFlag).str();
  options.module = moduleFlag;
  options.bench = benchFlag;
  options.iterations = itersFlag;
  options.threads = static_cast<unsigned>(threadsFlag);
  return Status::success();
}
