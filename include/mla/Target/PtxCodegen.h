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
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
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

/// The kernels of the gpu.modules of `module`, already lowered to the LLVM
/// dialect with NVVM kernels.
std::vector<PtxKernel> describePtxKernels(mlir::ModuleOp module);

/// Joins the PTX of kernels compiled apart (compileKernelsApart) into one
/// module: the first part's header, then every part's declarations and
/// definitions in order. Fails when the parts' headers differ, when two
/// parts define one symbol (an internal helper that survived inlining in
/// two kernels would; none of the examples keeps one, and such a program
/// is refused by name rather than given a module ptxas rejects), or when a
/// function is declared that no part defines: PTX is loaded without linking, so
/// such a call (MLIR lowers some math ops to libdevice) could never resolve.
mlir::LogicalResult mergePtxParts(llvm::ArrayRef<llvm::SmallString<0>> parts,
                                  std::string &merged, std::string &error);

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

/// Assembles `ptxPath` for `chip` into `cubinPath` with `ptxas -v`, on
/// every CPU where this ptxas can, and reads the resources it reports.
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
