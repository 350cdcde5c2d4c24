//===- PtxCodegen.h - NVIDIA kernels as PTX and cubin -----------*- C++ -*-===//
//
// The tail of the NVIDIA target: the NVPTX backend writes PTX, which the
// CUDA driver can load as it is; where the toolkit's ptxas is installed it
// also assembles a cubin, and its `-v` report gives each kernel's registers,
// shared memory and spills. Nothing here needs a CUDA installation.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_TARGET_PTXCODEGEN_H
#define MLA_TARGET_PTXCODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace mla {

/// What the lowered module itself says about one NVIDIA kernel.
struct PtxKernel {
  std::string symbol;
  /// Threads per block the kernel was built for (`nvvm.maxntid`).
  int64_t threads = 0;
  /// Bytes of the `.shared` variables the kernel uses.
  int64_t staticSharedBytes = 0;
  /// Bytes of dynamic shared memory the launch must provide.
  int64_t dynamicSharedBytes = 0;
};

/// The kernels of the (single) gpu.module of `module`, already lowered to
/// the LLVM dialect with NVVM kernels.
std::vector<PtxKernel> describePtxKernels(mlir::ModuleOp module);

/// The functions `module` calls but does not define, intrinsics aside:
/// PTX is loaded without linking, so each would fail at load time (MLIR
/// lowers some math ops to libdevice calls).
std::vector<std::string> externalFunctions(const llvm::Module &module);

/// Static shared memory a CUDA kernel may declare (48 KiB); more needs
/// dynamic shared memory and an opt-in at launch.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// What `ptxas -v` reported for one kernel.
struct PtxasResources {
  std::string symbol;
  int64_t registers = 0;
  int64_t sharedBytes = 0;
  int64_t barriers = 0;
  int64_t stackFrameBytes = 0;
  int64_t spillStoreBytes = 0;
  int64_t spillLoadBytes = 0;
};

/// Parses the report `ptxas -v` writes for each entry function. Fails on
/// `error` when no entry function is reported.
mlir::LogicalResult parsePtxasReport(llvm::StringRef report,
                                     std::vector<PtxasResources> &kernels,
                                     std::string &error);

/// The ptxas to assemble with: `requested` when given ("none" for no
/// ptxas), else ptxas on PATH, else the one in /usr/local/cuda/bin; empty
/// when there is none.
std::string findPtxas(llvm::StringRef requested);

/// Assembles `ptxPath` for `chip` into `cubinPath` with `ptxas -v` and
/// reads the resources it reports.
mlir::LogicalResult assemblePtx(llvm::StringRef ptxas, llvm::StringRef chip,
                                llvm::StringRef ptxPath,
                                llvm::StringRef cubinPath,
                                std::vector<PtxasResources> &kernels,
                                std::string &error);

/// Fills each kernel's workgroup size and shared memory of `manifest` from
/// the module, and registers, spills and the ptxas report from `resources`
/// where ptxas ran (registers and spills stay null otherwise).
void addPtxKernelInfo(llvm::json::Value &manifest,
                      llvm::ArrayRef<PtxKernel> kernels,
                      std::optional<llvm::ArrayRef<PtxasResources>> resources);

} // namespace mla

#endif // MLA_TARGET_PTXCODEGEN_H
