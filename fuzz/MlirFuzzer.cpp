//===- MlirFuzzer.cpp - libFuzzer harness of parsing and tile-to-primitives
//===//
//
// An input is the text of a .mlir file. Whatever it is, parsing and
// verifying it gives diagnostics or a valid module, and tile-to-primitives
// on a valid module fails with diagnostics or leaves valid IR after every
// pass: a pass that breaks the verifier is a finding.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "mla/InitAll.h"
#include "mla/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {
/// Verifies the IR after each pass that succeeded.
class VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    FUZZ_CHECK(succeeded(verify(op)),
               "invalid IR after " + pass->getName().str());
  }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *result = new DialectRegistry;
    mla::registerAllDialects(*result);
    return result;
  }();
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) {});

  // The lexer relies on the terminating NUL that file buffers have.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 0;

  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  mla::buildTileToPrimitivesPipeline(pm);
  (void)pm.run(*module);
  return 0;
}
