//===- mla-compile.cpp - Compile tile programs to loadable binaries -------===//
//
//   mla-compile FILE.mlir --target=host -o OUT.so
//   [--emit=mlir|llvm|asm|obj|bin|submission] [--instances=KERNEL:PARAM=V1,V2...]
//   [--jobs=N]
//
// writes OUT (and, for --emit=bin, the manifest OUT.json of docs/ABI.md;
// --emit=submission writes a leaderboard submission.py around the binary).
// A failed compilation leaves no output file behind.
//
//===----------------------------------------------------------------------===//

#include "EmuTarget.h"
#include "PtxTarget.h"
#include "Submission.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"
#include "mla/InitAll.h"
#include "mla/Pipelines/Pipelines.h"
#include "mla/Target/AbiRecord.h"
#include "mla/Target/GpuCodegen.h"
#include "mla/Target/LLVMCodegen.h"
#include "mla/Target/Manifest.h"
#include "mla/Target/OutputFile.h"
#include "mla/Target/ParallelCodegen.h"
#include "mla/Target/TargetInfo.h"
#include "mla/Version.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mla;

namespace {
enum class Emit { MLIR, LLVM, Asm, Obj, Bin, Submission };
} // namespace

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
    targetName("target",
               llvm::cl::desc("host, gfx950, gfx942, sm_90, gfx950-emu or "
                              "gfx942-emu"),
               llvm::cl::cat(compileOptions));
static llvm::cl::opt<Emit>
    emit("emit", llvm::cl::desc("Stage to stop at"), llvm::cl::init(Emit::Bin),
         llvm::cl::values(
             clEnumValN(Emit::MLIR, "mlir", "LLVM-dialect MLIR after lowering"),
             clEnumValN(Emit::LLVM, "llvm", "optimized LLVM IR"),
             clEnumValN(Emit::Asm, "asm", "target assembly"),
             clEnumValN(Emit::Obj, "obj", "relocatable object"),
             clEnumValN(Emit::Bin, "bin", "loadable binary and its manifest"),
             clEnumValN(Emit::Submission, "submission",
                        "GPU MODE amd-mixed-mla submission.py embedding the "
                        "binary (DESIGN section 8)")),
         llvm::cl::cat(compileOptions));
static llvm::cl::opt<std::string> ptxasPath(
    "ptxas",
    llvm::cl::desc("ptxas that assembles sm_90 PTX into a cubin (default: "
                   "ptxas on PATH, else in /usr/local/cuda/bin; 'none': PTX "
                   "only)"),
    llvm::cl::value_desc("path"), llvm::cl::cat(compileOptions));

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

static llvm::cl::extrahelp mlirFlagsHelp(R"(
MLIR's own flags work as in mlir-opt (--help-hidden lists them), e.g.
--mlir-print-ir-after-all, --mlir-print-ir-after=PASS, --mlir-timing (the
passes and the LLVM stages), --mlir-pass-statistics, --mlir-disable-threading.
)");

/// The extension of the binary --emit=bin writes for `target`.
static std::string binaryExtension(const TargetInfo &target) {
  switch (target.kind) {
  case TargetKind::Host:
    return "so";
  case TargetKind::AMDGPU:
    return "hsaco";
  case TargetKind::NVPTX:
    return "ptx";
  }
  llvm_unreachable("unknown target kind");
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "mla-compile: error: " << message << "\n";
  return 1;
}

static int writeBinary(const TargetInfo &target, const llvm::Module &llvmModule,
                       ArrayRef<std::string> kernels,
                       llvm::json::Value &manifest) {
  // Objects to scratch files, link and print the manifest into temporaries
  // next to the outputs, then publish both (docs/ABI.md).
  std::string error;
  std::vector<llvm::SmallString<0>> objects;
  if (failed(compileKernelsApart(target, llvmModule, kernels, jobs, objects,
                                 error)))
    return fail(error);
  std::vector<std::unique_ptr<TemporaryFile>> objectFiles;
  std::vector<std::string> objectPaths;
  for (const llvm::SmallString<0> &object : objects) {
    objectFiles.push_back(
        TemporaryFile::createScratch("mla-compile", "o", error));
    if (!objectFiles.back())
      return fail(error);
    objectFiles.back()->os() << object;
    if (failed(objectFiles.back()->close(error)))
      return fail(error);
    objectPaths.push_back(objectFiles.back()->getPath().str());
  }
  std::unique_ptr<TemporaryFile> binary =
      TemporaryFile::createFor(outputFile, error);
  if (!binary || failed(binary->close(error)))
    return fail(error);
  if (failed(linkSharedObject(target, objectPaths, binary->getPath(), error)))
    return fail("linking " + outputFile + ": " + error);
  // A GPU code object reports what the backend gave each kernel.
  if (target.kind == TargetKind::AMDGPU &&
      failed(inspectCodeObject(binary->getPath(), manifest, error)))
    return fail(outputFile + ": " + error);
  std::unique_ptr<TemporaryFile> manifestFile =
      TemporaryFile::createFor(outputFile + ".json", error);
  if (!manifestFile)
    return fail(error);
  manifestFile->os() << llvm::formatv("{0:2}", manifest) << "\n";
  if (failed(publishModule(*binary, *manifestFile, outputFile, error)))
    return fail(error);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAllPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  llvm::cl::HideUnrelatedOptions(compileOptions);
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { mla::printVersion(os, "mla-compile"); });
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "Compile tile programs to loadable binaries\n");

  std::string known;
  for (const TargetInfo &t : getTargets())
    known += (known.empty() ? "" : ", ") + t.name.str();
  if (inputFile.getNumOccurrences() == 0)
    return fail("no input file: mla-compile FILE.mlir --target=TARGET -o "
                "OUTPUT (--help lists the options)");
  if (targetName.getNumOccurrences() == 0)
    return fail("--target is missing: one of " + known);
  if (outputFile.getNumOccurrences() == 0)
    return fail("-o is missing: the output file ('-' for the text stages "
                "of --emit)");
  const TargetInfo *target = lookupTarget(targetName);
  if (!target)
    return fail("--target: unknown target '" + targetName +
                "'; expected one of " + known);
  if (emit == Emit::Bin && outputFile == "-")
    return fail("-o: a binary and its manifest need a file name, not '-'");
  // A submission embeds the binary, which is first written to a scratch
  // directory as --emit=bin writes it.
  std::string submissionFile;
  llvm::SmallString<128> scratch;
  llvm::scope_exit removeScratch([&] {
    if (!scratch.empty())
      llvm::sys::fs::remove_directories(scratch);
  });
  if (emit == Emit::Submission) {
    if (target->emulated)
      return fail("--emit=submission: " + targetName +
                  " modules run through mla-run only; a submission runs on "
                  "host, gfx950, gfx942 or sm_90");
    if (outputFile == "-")
      return fail("-o: a submission needs a file name, not '-'");
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(
            "mla-submission", scratch))
      return fail("creating a scratch directory: " + ec.message());
    submissionFile = outputFile;
    llvm::SmallString<128> binary(scratch);
    llvm::sys::path::append(binary, "mla_decode." + binaryExtension(*target));
    outputFile.setValue(binary.str().str());
    emit.setValue(Emit::Bin);
  }
  for (const std::string &set : instanceSets) {
    SmallVector<tile::InstanceOverride> overrides;
    std::string error;
    if (failed(tile::parseInstanceOverrides(set, overrides, error)))
      return fail("--instances: " + error);
  }
  if (target->kind == TargetKind::NVPTX && emit == Emit::Obj)
    return fail("--emit=obj: " + targetName +
                " has no object stage; --emit=asm writes the PTX");

  // For --emit=submission, once the binary is written: the submission
  // around it (for sm_90 the cubin, which needs no JIT, where ptxas made
  // one).
  auto finishSubmission = [&]() -> int {
    if (submissionFile.empty())
      return 0;
    std::string binary = outputFile;
    llvm::SmallString<128> cubin(binary);
    llvm::sys::path::replace_extension(cubin, "cubin");
    if (target->kind == TargetKind::NVPTX && llvm::sys::fs::exists(cubin))
      binary = cubin.str().str();
    return writeSubmission(submissionFile, binary, inputFile,
                           target->name);
  };

  // --mlir-timing reports the passes of both pass managers and the LLVM
  // stages in one tree, printed when main returns.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTiming = timing.getRootScope();

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  // Diagnostics point at the source; the IR of a failed stage is noise.
  context.printOpOnDiagnostic(false);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  // A program is a set of kernels and their helpers; anything else at the
  // top level has no launcher and no lowering.
  for (Operation &op : module->getBody()->getOperations()) {
    if (isa<tile::KernelOp, tile::FuncOp>(op))
      continue;
    op.emitError() << "'" << op.getName()
                   << "' at the top level: a program holds tile.kernel and "
                      "tile.func ops only";
    return 1;
  }

  // The manifest lists the instances, so specialize first.
  PassManager specialize(&context);
  if (failed(applyPassManagerCLOptions(specialize)))
    return 1;
  specialize.enableTiming(rootTiming);
  // An emulated chip gets the chip's instances.
  addSpecializePass(specialize, instanceSets,
                    target->emulated ? target->cpu : target->name);
  if (failed(specialize.run(*module)))
    return 1;

  llvm::json::Value manifest =
      buildManifest(*module, *target, llvm::sys::path::filename(outputFile));
  std::vector<std::string> kernels;
  for (auto kernel : module->getOps<tile::KernelOp>())
    kernels.push_back(kernel.getSymName().str());
  if (kernels.empty())
    return fail(inputFile + ": the program has no tile.kernel");

  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  pm.enableTiming(rootTiming);
  // Specialized above.
  if (target->kind == TargetKind::Host) {
    buildHostPipeline(pm, Specialize::No);
  } else {
    GpuPipelineOptions options;
    options.chip = target->chip.str();
    buildTileToGpuLLVMPipeline(pm, options, Specialize::No);
  }
  if (failed(pm.run(*module)))
    return 1;

  if (emit == Emit::MLIR) {
    if (failed(writeOutputFile(
            outputFile,
            [&](llvm::raw_pwrite_stream &os, std::string &) {
              module->print(os);
              return success();
            },
            error)))
      return fail(error);
    return 0;
  }

  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(*target, error);
  if (!machine)
    return fail(error);
  llvm::LLVMContext llvmContext;
  TimingScope translateTiming = rootTiming.nest("Translate to LLVM IR");
  std::unique_ptr<llvm::Module> llvmModule =
      target->kind == TargetKind::Host
          ? translateToLLVM(*module, llvmContext, *machine, kernels)
          : translateGpuKernels(*module, llvmContext, *machine);
  if (!llvmModule)
    return 1;
  translateTiming.stop();
  // Until main returns: LLVM's optimization, code generation and linking.
  TimingScope codegenTiming =
      rootTiming.nest("LLVM optimization, code generation and output");
  // The binary carries what mla-run checks the manifest against; an
  // emulated module gets it once retargeted (EmuTarget.cpp).
  auto addRecord = [&] {
    if (llvm::Error error = addAbiRecord(*llvmModule, manifest)) {
      fail(llvm::toString(std::move(error)));
      return false;
    }
    return true;
  };
  // A binary's kernels are optimized and compiled apart, side by side; the
  // other outputs are one module (PTX is one file for ptxas).
  if (emit == Emit::Bin && !target->emulated &&
      target->kind != TargetKind::NVPTX) {
    if (!addRecord())
      return 1;
    if (int status = writeBinary(*target, *llvmModule, kernels, manifest))
      return status;
    return finishSubmission();
  }
  if (failed(optimizeModule(*llvmModule, *machine, error)))
    return fail(error);
  if (!target->emulated && !addRecord())
    return 1;

  if (emit == Emit::LLVM || emit == Emit::Asm || emit == Emit::Obj) {
    auto write = [&](llvm::raw_pwrite_stream &os, std::string &message) {
      if (emit == Emit::LLVM) {
        llvmModule->print(os, nullptr);
        return success();
      }
      return emitMachineCode(*llvmModule, *machine,
                             emit == Emit::Asm
                                 ? llvm::CodeGenFileType::AssemblyFile
                                 : llvm::CodeGenFileType::ObjectFile,
                             os, message);
    };
    if (failed(writeOutputFile(outputFile, write, error)))
      return fail(error);
    return 0;
  }
  if (target->emulated)
    return writeEmulatedModule(*target, *llvmModule, manifest, outputFile);
  std::string ptxas = findPtxas(ptxasPath);
  if (int status = writePtxModule(*target, *machine, *llvmModule,
                                  describePtxKernels(*module), manifest,
                                  outputFile, ptxas))
    return status;
  return finishSubmission();
}
