//===- GpuCodegen.h - GPU kernels to code objects ---------------*- C++ -*-===//
//
// The tail of the GPU targets: the LLVM-dialect kernels of a program's
// gpu.modules become an LLVM module for the chip, then an object, then a
// loadable code object (AMD: `ld.lld -shared` -> .hsaco). The resources the
// backend gave each kernel are read back from the code object's metadata.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_GPUCODEGEN_H
#define MLA_TARGET_GPUCODEGEN_H

#include "mla/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace mla {

/// Translates the kernels of the gpu.modules in `module` (one per kernel),
/// already in the LLVM dialect, to one LLVM module for `machine`. Emits
/// diagnostics on `module` on failure.
std::unique_ptr<llvm::Module> translateGpuKernels(mlir::ModuleOp module,
                                                  llvm::LLVMContext &context,
                                                  llvm::TargetMachine &machine);

/// What the AMDGPU backend gave one kernel (code object metadata).
struct KernelResources {
  std::string symbol;
  /// .vgpr_count: on CDNA3/4 the unified total, AGPRs included.
  int64_t vgprs = 0;
  int64_t agprs = 0;
  int64_t sgprs = 0;
  int64_t ldsBytes = 0;
  int64_t scratchBytes = 0;
  int64_t vgprSpills = 0;
  int64_t sgprSpills = 0;
  int64_t waveSize = 0;
  int64_t maxWorkgroupSize = 0;
};

/// Reads the kernels' resources from the AMDGPU metadata note of an AMDGPU
/// code object.
mlir::LogicalResult readAMDGPUResources(llvm::MemoryBufferRef codeObject,
                                        std::vector<KernelResources> &kernels,
                                        std::string &error);

/// The names of the undefined symbols of an ELF object.
mlir::LogicalResult undefinedSymbols(llvm::MemoryBufferRef object,
                                     std::vector<std::string> &symbols,
                                     std::string &error);

/// Checks a linked AMDGPU code object (no undefined symbols, no scratch,
/// no spills) and records each kernel's resources in `manifest`.
mlir::LogicalResult inspectCodeObject(llvm::StringRef path,
                                      llvm::json::Value &manifest,
                                      std::string &error);

} // namespace mla

#endif // MLA_TARGET_GPUCODEGEN_H
