//===- HostBackend.cpp - Shared objects for the host ----------------------===//

#include "Backends.h"

#include "mla/Pipelines/Pipelines.h"
#include "mla/Target/LLVMCodegen.h"

using namespace mlir;
using namespace mla;

/// Links through the clang driver with lld against libc and libm, pulling
/// the compiler-runtime helpers the x86 backend calls for bf16 (without
/// exporting them). Every symbol must resolve at link time, so a module that
/// cannot load fails here rather than in dlopen.
static const LinkCommand kHostLink = {MLA_CLANG_PATH,
                                      {"-shared", "-nostartfiles",
                                       "-fuse-ld=lld", "--rtlib=compiler-rt",
                                       "-Wl,-z,defs", "-Wl,--exclude-libs,ALL"},
                                      {"-lm"}};

namespace {
class HostBackend : public TargetBackend {
public:
  using TargetBackend::TargetBackend;

  llvm::StringRef getBinaryExtension() const override { return "so"; }

  void buildPipeline(OpPassManager &pm) const override {
    buildHostPipeline(pm, Specialize::No);
  }

  std::unique_ptr<llvm::Module>
  translate(ModuleOp lowered, llvm::LLVMContext &context,
            llvm::TargetMachine &machine,
            llvm::ArrayRef<std::string> kernels) const override {
    return translateToLLVM(lowered, context, machine, kernels);
  }

  LogicalResult writeBinary(BinaryJob &job, std::string &error) const override {
    return writeLinkedBinary(*this, job, kHostLink, nullptr, error);
  }
};
} // namespace

std::unique_ptr<TargetBackend> mla::createHostBackend(TargetInfo info) {
  return std::make_unique<HostBackend>(info);
}
