//===- mla-compile.cpp - Compile tile programs to loadable binaries -------===//
//
//   mla-compile FILE.mlir --target=host -o OUT.so
//   [--emit=mlir|llvm|asm|obj|bin|submission]
//   [--instances=KERNEL:PARAM=V1,V2...]
//   [--jobs=N]
//
// writes OUT (and, for --emit=bin, the manifest OUT.json of docs/ABI.md;
// --emit=submission writes a leaderboard submission.py around the binary).
// A failed compilation leaves no output file behind.
//
//===----------------------------------------------------------------------===//

#include "CompileCache.h"
#include "Submission.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"
#include "mla/InitAll.h"
#include "mla/Pipelines/Pipelines.h"
#include "mla/Target/LLVMCodegen.h"
#include "mla/Target/Manifest.h"
#include "mla/Target/OutputFile.h"
#include "mla/Target/TargetBackend.h"
#include "mla/Version.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mla;

/// The targets, comma-separated, or those that can write `stage`.
static std::string listTargets(std::optional<EmitStage> stage = {}) {
  std::string names;
  for (const TargetBackend *backend : getTargetBackends())
    if (!stage || backend->refuseStage(*stage).empty())
      names += (names.empty() ? "" : ", ") + backend->getName().str();
  return names;
}

/// --help's list of targets, one line each.
static std::string describeTargets() {
  std::string text = "\nTargets (--target):\n";
  for (const TargetBackend *backend : getTargetBackends())
    text += llvm::formatv("  {0,-12} {1}\n", backend->getName(),
                          backend->getDescription());
  return text;
}

// --help lists these; LLVM's and MLIR's own options stay accepted. The
// input, -o and --target are required, which main checks itself so that a
// missing one gets the tool's own one-line error.
static llvm::cl::OptionCategory compileOptions("mla-compile options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input .mlir>"),
                                            llvm::cl::cat(compileOptions));
static llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("Output file"),
                                             llvm::cl::value_desc("path"),
                                             llvm::cl::cat(compileOptions));
static llvm::cl::opt<std::string>
    targetName("target", llvm::cl::desc("The target (listed below)"),
               llvm::cl::value_desc("name"), llvm::cl::cat(compileOptions));
static std::string targetsHelpText = describeTargets();
static llvm::cl::extrahelp targetsHelp(targetsHelpText);
static llvm::cl::opt<EmitStage> emit(
    "emit", llvm::cl::desc("Stage to stop at"), llvm::cl::init(EmitStage::Bin),
    llvm::cl::values(
        clEnumValN(EmitStage::MLIR, "mlir", "LLVM-dialect MLIR after lowering"),
        clEnumValN(EmitStage::LLVM, "llvm", "optimized LLVM IR"),
        clEnumValN(EmitStage::Asm, "asm", "target assembly"),
        clEnumValN(EmitStage::Obj, "obj", "relocatable object"),
        clEnumValN(EmitStage::Bin, "bin", "loadable binary and its manifest"),
        clEnumValN(EmitStage::Submission, "submission",
                   "GPU MODE amd-mixed-mla submission.py embedding the "
                   "binary (DESIGN section 8)")),
    llvm::cl::cat(compileOptions));

static llvm::cl::opt<unsigned>
    jobs("jobs",
         llvm::cl::desc("Threads that compile kernels side by side, at "
                        "most one per hardware thread (default 0: that "
                        "many); the binary is the same for any count"),
         llvm::cl::init(0), llvm::cl::cat(compileOptions));

static llvm::cl::list<std::string> instanceSets(
    "instances",
    llvm::cl::desc("Instances of one parameterized kernel, replacing its "
                   "tile.instances (repeatable; one kernel named several "
                   "times gets the union)"),
    llvm::cl::value_desc("KERNEL:PARAM=V1,V2[:PARAM=...]"),
    llvm::cl::cat(compileOptions));

static llvm::cl::opt<bool> noCache(
    "no-cache",
    llvm::cl::desc("Compile without the cache of outputs ($MLA_CACHE_DIR, "
                   "else ~/.cache/mla); options beyond those listed here "
                   "also bypass it"),
    llvm::cl::cat(compileOptions));

static llvm::cl::opt<bool>
    verbose("verbose",
            llvm::cl::desc("Say on stderr whether the outputs came from the "
                           "cache, and when each kernel is compiled (as on "
                           "a terminal)"),
            llvm::cl::cat(compileOptions));

static llvm::cl::extrahelp mlirFlagsHelp(R"(
MLIR's own flags work as in mlir-opt (--help-hidden lists them), e.g.
--mlir-print-ir-after-all, --mlir-print-ir-after=PASS, --mlir-timing (the
passes and the LLVM stages), --mlir-pass-statistics, --mlir-disable-threading.
)");

static int fail(const llvm::Twine &message) {
  llvm::errs() << "mla-compile: error: " << message << "\n";
  return 1;
}

/// Why the command line cannot be compiled, or empty.
static std::string checkCommandLine(const TargetBackend *&backend) {
  if (inputFile.getNumOccurrences() == 0)
    return "no input file: mla-compile FILE.mlir --target=TARGET -o OUTPUT "
           "(--help lists the options)";
  if (targetName.getNumOccurrences() == 0)
    return "--target is missing: one of " + listTargets();
  if (outputFile.getNumOccurrences() == 0)
    return "-o is missing: the output file ('-' for the text stages of "
           "--emit)";
  backend = lookupTargetBackend(targetName);
  if (!backend)
    return "--target: unknown target '" + targetName + "'; expected one of " +
           listTargets();
  std::string refusal = backend->refuseStage(emit);
  if (!refusal.empty()) {
    // --emit's values are listed in EmitStage's order.
    std::string stage =
        "--emit=" + emit.getParser()
                        .getOption(static_cast<unsigned>(emit.getValue()))
                        .str();
    if (emit == EmitStage::Submission)
      refusal += "; a submission runs on " + listTargets(EmitStage::Submission);
    return stage + ": " + refusal;
  }
  if (emit == EmitStage::Bin && outputFile == "-")
    return "-o: a binary and its manifest need a file name, not '-'";
  if (emit == EmitStage::Submission && outputFile == "-")
    return "-o: a submission needs a file name, not '-'";
  for (const std::string &set : instanceSets) {
    SmallVector<tile::InstanceOverride> overrides;
    std::string error;
    if (failed(tile::parseInstanceOverrides(set, overrides, error)))
      return "--instances: " + error;
  }
  return "";
}

/// A program is a set of kernels and their helpers; anything else at the
/// top level has no launcher and no lowering.
static LogicalResult checkTopLevel(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations())
    if (!isa<tile::KernelOp, tile::FuncOp>(op))
      return op.emitError()
             << "'" << op.getName()
             << "' at the top level: a program holds tile.kernel and "
                "tile.func ops only";
  return success();
}

/// Writes the text or object stage `emit` of `module` to `output`.
static int writeStage(llvm::Module &module, llvm::TargetMachine &machine,
                      llvm::StringRef output) {
  auto write = [&](llvm::raw_pwrite_stream &os, std::string &message) {
    if (emit == EmitStage::LLVM) {
      module.print(os, nullptr);
      return success();
    }
    return emitMachineCode(module, machine,
                           emit == EmitStage::Asm
                               ? llvm::CodeGenFileType::AssemblyFile
                               : llvm::CodeGenFileType::ObjectFile,
                           os, message);
  };
  std::string error;
  if (failed(writeOutputFile(output, write, error)))
    return fail(error);
  return 0;
}

/// Whether an option other than mla-compile's own and its targets' was
/// given: those look inside the compiler (IR printing, timing, LLVM's
/// flags), so such a compile runs rather than comes from the cache.
static bool hasInspectionOptions() {
  for (llvm::cl::Option *option :
       llvm::make_second_range(llvm::cl::getRegisteredOptions())) {
    if (option->getNumOccurrences() == 0)
      continue;
    if (!llvm::any_of(option->Categories, [](llvm::cl::OptionCategory *cat) {
          return cat == &compileOptions || cat == &getTargetOptionCategory();
        }))
      return true;
  }
  return false;
}

/// The cache key of this compile: the compiler (its executable's hash and
/// LLVM's version), the target and the outside tools it runs, the options
/// that decide the output, the source, and the names the outputs carry.
static std::string computeCacheKey(const TargetBackend &backend,
                                   llvm::StringRef source, const char *argv0,
                                   std::string &error) {
  std::string executable =
      llvm::sys::fs::getMainExecutable(argv0, (void *)&computeCacheKey);
  auto compiler = llvm::MemoryBuffer::getFile(executable, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!compiler) {
    error = executable + ": " + compiler.getError().message();
    return "";
  }
  CacheKey key;
  key.add("mla-compile cache 1");
  key.add((*compiler)->getBuffer());
  key.add(LLVM_VERSION_STRING);
  key.add(backend.getName());
  key.add(backend.describeOutsideTools());
  key.add(std::to_string(static_cast<int>(emit.getValue())));
  key.add(std::to_string(instanceSets.size()));
  for (const std::string &set : instanceSets)
    key.add(set);
  key.add(source);
  // The submission names its source; the manifest names its binary.
  key.add(llvm::sys::path::filename(inputFile));
  key.add(llvm::sys::path::filename(outputFile));
  return key.str();
}

/// Compiles `input` for `backend`, writing `output` (and what goes next to
/// it); non-zero after an error.
static int compile(const TargetBackend &backend,
                   std::unique_ptr<llvm::MemoryBuffer> input,
                   llvm::StringRef output) {
  std::string error;
  // A submission embeds the binary, first written to a scratch directory
  // as --emit=bin writes it.
  std::string submissionFile, binaryPath = output.str();
  llvm::SmallString<128> scratch;
  llvm::scope_exit removeScratch([&] {
    if (!scratch.empty())
      llvm::sys::fs::remove_directories(scratch);
  });
  if (emit == EmitStage::Submission) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("mla-submission", scratch))
      return fail("creating a scratch directory: " + ec.message());
    submissionFile = output;
    llvm::SmallString<128> binary(scratch);
    llvm::sys::path::append(binary,
                            "mla_decode." + backend.getBinaryExtension());
    binaryPath = binary.str().str();
  }

  // --mlir-timing reports the passes of both pass managers and the LLVM
  // stages in one tree, printed when compile returns.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTiming = timing.getRootScope();

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  // Diagnostics point at the source; the IR of a failed stage is noise.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || failed(checkTopLevel(*module)))
    return 1;

  // The manifest lists the instances, so specialize first.
  PassManager specialize(&context);
  if (failed(applyPassManagerCLOptions(specialize)))
    return 1;
  specialize.enableTiming(rootTiming);
  addSpecializePass(specialize, instanceSets, backend.getInstanceChip());
  if (failed(specialize.run(*module)))
    return 1;
  llvm::json::Value manifest = buildManifest(
      *module, backend.getInfo(), llvm::sys::path::filename(binaryPath));
  std::vector<std::string> kernels;
  for (auto kernel : module->getOps<tile::KernelOp>())
    kernels.push_back(kernel.getSymName().str());
  if (kernels.empty())
    return fail(inputFile + ": the program has no tile.kernel");

  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  pm.enableTiming(rootTiming);
  backend.buildPipeline(pm);
  if (failed(pm.run(*module)))
    return 1;
  if (emit == EmitStage::MLIR) {
    auto print = [&](llvm::raw_pwrite_stream &os, std::string &) {
      module->print(os);
      return success();
    };
    if (failed(writeOutputFile(binaryPath, print, error)))
      return fail(error);
    return 0;
  }

  std::unique_ptr<llvm::TargetMachine> machine =
      backend.createTargetMachine(error);
  if (!machine)
    return fail(error);
  llvm::LLVMContext llvmContext;
  TimingScope translateTiming = rootTiming.nest("Translate to LLVM IR");
  std::unique_ptr<llvm::Module> llvmModule =
      backend.translate(*module, llvmContext, *machine, kernels);
  if (!llvmModule)
    return 1;
  translateTiming.stop();
  // Until compile returns: LLVM's optimization, code generation and output.
  TimingScope codegenTiming =
      rootTiming.nest("LLVM optimization, code generation and output");
  if (emit != EmitStage::Bin && emit != EmitStage::Submission) {
    if (failed(backend.prepareForEmit(*llvmModule, *machine, manifest, error)))
      return fail(error);
    return writeStage(*llvmModule, *machine, binaryPath);
  }
  BinaryJob job{*module,    *llvmModule, *machine, kernels, std::move(manifest),
                binaryPath, jobs};
  if (verbose || llvm::errs().is_displayed())
    job.progress = &llvm::errs();
  if (failed(backend.writeBinary(job, error)))
    return fail(error);
  if (submissionFile.empty())
    return 0;
  return writeSubmission(submissionFile, backend.getSubmittedBinary(binaryPath),
                         inputFile, backend.getName());
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAllPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  llvm::cl::HideUnrelatedOptions({&compileOptions, &getTargetOptionCategory()});
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { mla::printVersion(os, "mla-compile"); });
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "Compile tile programs to loadable binaries\n");

  const TargetBackend *backend = nullptr;
  std::string error = checkCommandLine(backend);
  if (!error.empty())
    return fail(error);
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  if (noCache || hasInspectionOptions())
    return compile(*backend, std::move(input), outputFile);

  // Through the cache: the outputs are made in a staging directory that
  // becomes the entry, and copied out of it or out of an earlier entry.
  std::unique_ptr<CompileCache> cache = CompileCache::open(error);
  std::string key;
  if (cache)
    key = computeCacheKey(*backend, input->getBuffer(), argv[0], error);
  if (key.empty()) {
    llvm::errs() << "mla-compile: warning: compiling without the cache: "
                 << error << "\n";
    return compile(*backend, std::move(input), outputFile);
  }
  bool toStdout = outputFile == "-";
  llvm::StringRef directory = llvm::sys::path::parent_path(outputFile);
  if (directory.empty())
    directory = ".";
  std::vector<std::string> owned;
  for (const std::string &path : backend->getOutputFiles(outputFile, emit))
    owned.push_back(llvm::sys::path::filename(path).str());
  if (std::optional<std::string> entry = cache->lookup(key)) {
    if (verbose)
      llvm::errs() << "mla-compile: cache hit: " << *entry << "\n";
    if (failed(copyEntryFiles(*entry, directory, toStdout, owned, error)))
      return fail(error);
    return 0;
  }
  if (verbose)
    llvm::errs() << "mla-compile: cache miss: " << key << "\n";
  std::optional<std::string> staging = cache->createStaging(error);
  if (!staging)
    return fail("the compile cache: " + error);
  llvm::SmallString<128> stagedOutput(*staging);
  llvm::sys::path::append(stagedOutput, "files",
                          toStdout ? llvm::StringRef("stdout")
                                   : llvm::sys::path::filename(outputFile));
  if (int status = compile(*backend, std::move(input), stagedOutput)) {
    CompileCache::discard(*staging);
    return status;
  }
  if (failed(copyEntryFiles(*staging, directory, toStdout, owned, error))) {
    CompileCache::discard(*staging);
    return fail(error);
  }
  if (failed(cache->publish(*staging, key, error))) {
    llvm::errs() << "mla-compile: warning: not cached: " << error << "\n";
    CompileCache::discard(*staging);
  }
  return 0;
}
