//===- ParallelCodegen.cpp - Kernels compiled side by side ----------------===//

#include "mla/Target/ParallelCodegen.h"
#include "mla/Target/LLVMCodegen.h"
#include "mla/Target/TargetBackend.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"

#include "llvm/Support/Threading.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <chrono>
#include <mutex>
#include <numeric>

using namespace mlir;
using namespace mla;

/// `module` cut down to `kernel`, as bitcode: the other kernels go, and so
/// do the external definitions other than the kernels unless `withShared`.
/// Internal helpers and globals stay; the optimizer drops those unused.
static llvm::SmallString<0> extractKernel(const llvm::Module &module,
                                          ArrayRef<std::string> kernels,
                                          StringRef kernel, bool withShared) {
  llvm::ValueToValueMapTy mapping;
  std::unique_ptr<llvm::Module> part =
      llvm::CloneModule(module, mapping, [&](const llvm::GlobalValue *value) {
        if (llvm::is_contained(kernels, value->getName()))
          return value->getName() == kernel;
        return withShared || value->hasLocalLinkage();
      });
  // What was not cloned is left as a declaration; unused, it goes.
  for (llvm::Function &function : llvm::make_early_inc_range(*part))
    if (function.isDeclaration() && function.use_empty() &&
        !function.isIntrinsic())
      function.eraseFromParent();
  for (llvm::GlobalVariable &global :
       llvm::make_early_inc_range(part->globals()))
    if (global.isDeclaration() && global.use_empty())
      global.eraseFromParent();
  llvm::SmallString<0> bitcode;
  llvm::raw_svector_ostream os(bitcode);
  llvm::WriteBitcodeToFile(*part, os);
  return bitcode;
}

/// Parses `bitcode` into a context of its own, optimizes it and writes its
/// object (or assembly) into `object`.
static LogicalResult compilePart(StringRef bitcode,
                                 llvm::TargetMachine &machine,
                                 llvm::CodeGenFileType type,
                                 llvm::SmallString<0> &object,
                                 std::string &error) {
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> part =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "kernel"), context);
  if (!part) {
    error = llvm::toString(part.takeError());
    return failure();
  }
  if (failed(optimizeModule(**part, machine, error)))
    return failure();
  llvm::raw_svector_ostream os(object);
  return emitMachineCode(**part, machine, type, os, error);
}

LogicalResult mla::compileKernelsApart(
    const TargetBackend &backend, const llvm::Module &module,
    ArrayRef<std::string> kernels, unsigned jobs,
    std::vector<llvm::SmallString<0>> &objects, std::string &error,
    llvm::raw_ostream *progress, llvm::CodeGenFileType type) {
  size_t count = kernels.size();
  if (count == 0) {
    error = "the program has no kernels";
    return failure();
  }
  std::vector<llvm::SmallString<0>> bitcode;
  // Target machines are made here: their creation registers the targets,
  // which is not meant to run on several threads at once.
  std::vector<std::unique_ptr<llvm::TargetMachine>> machines;
  for (auto [i, kernel] : llvm::enumerate(kernels)) {
    bitcode.push_back(extractKernel(module, kernels, kernel, i == 0));
    machines.push_back(backend.createTargetMachine(error));
    if (!machines.back())
      return failure();
  }

  objects.assign(count, {});
  std::vector<std::string> errors(count);
  std::mutex progressMutex;
  size_t done = 0;
  auto start = std::chrono::steady_clock::now();
  {
    // No more threads than the machine has: each holds a whole compilation.
    llvm::ThreadPoolStrategy threads = llvm::hardware_concurrency(jobs);
    threads.Limit = true;
    llvm::DefaultThreadPool pool(threads);
    // Largest kernels first, so that no large one is left to run alone at
    // the end (its bitcode's size stands for its compile time).
    std::vector<size_t> order(count);
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(order, [&](size_t a, size_t b) {
      return bitcode[a].size() > bitcode[b].size();
    });
    for (size_t i : order)
      pool.async([&, i] {
        if (failed(compilePart(bitcode[i], *machines[i], type, objects[i],
                               errors[i])) &&
            errors[i].empty())
          errors[i] = "compilation failed";
        if (!progress)
          return;
        std::lock_guard<std::mutex> lock(progressMutex);
        std::chrono::duration<double> elapsed =
            std::chrono::steady_clock::now() - start;
        *progress << llvm::formatv("mla-compile: {0} of {1} kernels, {2:f1} s: "
                                   "{3}\n",
                                   ++done, count, elapsed.count(), kernels[i]);
        progress->flush();
      });
    pool.wait();
  }
  for (auto [kernel, message] : llvm::zip(kernels, errors))
    if (!message.empty()) {
      error = "kernel '" + kernel + "': " + message;
      return failure();
    }
  return success();
}
