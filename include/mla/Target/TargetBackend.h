//===- TargetBackend.h - One target's way from tile IR to a binary -*- C++
//-*-===//
//
// mla-compile drives every target through this interface: it specializes a
// program for the backend's chip, runs the backend's pipeline, has it
// translate the result to LLVM IR and write the stage the user asked for.
// Backends are found by --target name in the registry (Registry.cpp); a new
// chip is a new backend or a new registry entry (docs/adding-a-target.md).
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_TARGETBACKEND_H
#define MLA_TARGET_TARGETBACKEND_H

#include "mla/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace mla {

/// The stages mla-compile can stop at (--emit).
enum class EmitStage { MLIR, LLVM, Asm, Obj, Bin, Submission };

/// What a backend writes a binary from.
struct BinaryJob {
  /// The program lowered by the backend's pipeline.
  mlir::ModuleOp lowered;
  /// Its LLVM IR from `translate`, not yet optimized.
  llvm::Module &module;
  llvm::TargetMachine &machine;
  /// The kernels' symbols.
  llvm::ArrayRef<std::string> kernels;
  /// The manifest (docs/ABI.md), completed by the backend.
  llvm::json::Value manifest;
  std::string outputPath;
  /// Threads that may compile kernels side by side (0: one per hardware
  /// thread).
  unsigned jobs = 0;
  /// Where a line per compiled kernel goes, if anywhere.
  llvm::raw_ostream *progress = nullptr;
};

class TargetBackend {
public:
  explicit TargetBackend(TargetInfo info) : info(info) {}
  virtual ~TargetBackend() = default;

  const TargetInfo &getInfo() const { return info; }
  /// The name users pass to --target.
  llvm::StringRef getName() const { return info.name; }
  /// One line for --help.
  llvm::StringRef getDescription() const { return info.description; }
  /// The chip a program's tile.instances are chosen for.
  virtual llvm::StringRef getInstanceChip() const { return info.name; }
  /// Why the backend cannot write `stage`; empty where it can.
  virtual std::string refuseStage(EmitStage stage) const { return ""; }
  /// The extension of the binary --emit=bin writes, without the dot.
  virtual llvm::StringRef getBinaryExtension() const = 0;

  /// Appends the lowering of a specialized program to the LLVM dialect.
  virtual void buildPipeline(mlir::OpPassManager &pm) const = 0;
  /// An LLVM target machine for the backend's chip.
  std::unique_ptr<llvm::TargetMachine>
  createTargetMachine(std::string &error) const;
  /// The LLVM IR of the lowered program, for `machine`'s triple and data
  /// layout; null after an error diagnostic on `lowered`.
  virtual std::unique_ptr<llvm::Module>
  translate(mlir::ModuleOp lowered, llvm::LLVMContext &context,
            llvm::TargetMachine &machine,
            llvm::ArrayRef<std::string> kernels) const = 0;
  /// Makes `module` what --emit=llvm, asm and obj print: optimized, and
  /// carrying what mla-run checks the manifest against.
  virtual mlir::LogicalResult prepareForEmit(llvm::Module &module,
                                             llvm::TargetMachine &machine,
                                             llvm::json::Value &manifest,
                                             std::string &error) const;
  /// Writes the binary and its manifest at job.outputPath, or nothing.
  virtual mlir::LogicalResult writeBinary(BinaryJob &job,
                                          std::string &error) const = 0;
  /// The binary a submission embeds once writeBinary wrote `outputPath`.
  virtual std::string getSubmittedBinary(llvm::StringRef outputPath) const {
    return outputPath.str();
  }
  /// Every file a compile to `outputPath` may write: those it does not
  /// write this time are removed, so that none is left from an earlier
  /// compile that no longer matches.
  virtual std::vector<std::string> getOutputFiles(llvm::StringRef outputPath,
                                                  EmitStage stage) const;
  /// What identifies the outside tools whose output the binary holds (a
  /// path, size and time each), for the compile cache's key; empty where
  /// LLVM makes all of it.
  virtual std::string describeOutsideTools() const { return ""; }

protected:
  /// Sets the LLVM options the backend's code generation needs, unless the
  /// command line set them; called before each target machine is made.
  virtual void setCodegenDefaults() const {}

  TargetInfo info;
};

/// Every target, in the order --help lists them.
llvm::ArrayRef<const TargetBackend *> getTargetBackends();

/// The backend called `name`, or null.
const TargetBackend *lookupTargetBackend(llvm::StringRef name);

/// The category of the backends' own command-line options (e.g. --ptxas),
/// which mla-compile's --help shows.
llvm::cl::OptionCategory &getTargetOptionCategory();

} // namespace mla

#endif // MLA_TARGET_TARGETBACKEND_H
