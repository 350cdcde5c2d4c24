//===- LinkedBinary.cpp - Kernels compiled apart, then linked -------------===//

#include "Backends.h"

#include "mla/Target/AbiRecord.h"
#include "mla/Target/LLVMCodegen.h"
#include "mla/Target/OutputFile.h"
#include "mla/Target/ParallelCodegen.h"

using namespace mlir;
using namespace mla;

LogicalResult mla::writeLinkedBinary(
    const TargetBackend &backend, BinaryJob &job, const LinkCommand &link,
    llvm::function_ref<LogicalResult(llvm::StringRef, llvm::json::Value &,
                                     std::string &)>
        inspect,
    std::string &error) {
  if (llvm::Error recordError = addAbiRecord(job.module, job.manifest)) {
    error = llvm::toString(std::move(recordError));
    return failure();
  }
  // Objects to scratch files, link into a temporary next to the output,
  // then publish it with its manifest (docs/ABI.md).
  std::vector<llvm::SmallString<0>> objects;
  if (failed(compileKernelsApart(backend, job.module, job.kernels, job.jobs,
                                 objects, error, job.progress)))
    return failure();
  std::vector<std::unique_ptr<TemporaryFile>> objectFiles;
  std::vector<std::string> objectPaths;
  for (const llvm::SmallString<0> &object : objects) {
    objectFiles.push_back(
        TemporaryFile::createScratch("mla-compile", "o", error));
    if (!objectFiles.back())
      return failure();
    objectFiles.back()->os() << object;
    if (failed(objectFiles.back()->close(error)))
      return failure();
    objectPaths.push_back(objectFiles.back()->getPath().str());
  }
  std::unique_ptr<TemporaryFile> binary =
      TemporaryFile::createFor(job.outputPath, error);
  if (!binary || failed(binary->close(error)))
    return failure();
  std::vector<llvm::StringRef> args = {link.program};
  llvm::append_range(args, link.flags);
  args.push_back("-o");
  args.push_back(binary->getPath());
  llvm::append_range(args, objectPaths);
  llvm::append_range(args, link.libraries);
  if (failed(runProgram(link.program, args, error))) {
    error = "linking " + job.outputPath + ": " + error;
    return failure();
  }
  if (inspect && failed(inspect(binary->getPath(), job.manifest, error))) {
    error = job.outputPath + ": " + error;
    return failure();
  }
  return publishModule(*binary, job.manifest, job.outputPath, error);
}
