//===- LLVMCodegen.h - LLVM dialect to machine code -------------*- C++ -*-===//

#ifndef MLA_TARGET_LLVMCODEGEN_H
#define MLA_TARGET_LLVMCODEGEN_H

#include "mla/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mla {

/// A target machine for `target`, position independent (the output is a
/// shared object). Reports failures on `error`.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetInfo &target, std::string &error);

/// Translates an LLVM-dialect module to LLVM IR for `machine`; only the
/// functions named in `exported` stay visible. Emits diagnostics on
/// `module` on failure.
std::unique_ptr<llvm::Module>
translateToLLVM(mlir::ModuleOp module, llvm::LLVMContext &context,
                llvm::TargetMachine &machine,
                llvm::ArrayRef<std::string> exported);

/// Runs the O2 pipeline on `module`.
mlir::LogicalResult optimizeModule(llvm::Module &module,
                                   llvm::TargetMachine &machine,
                                   std::string &error);

/// Writes `module` as assembly or an object file.
mlir::LogicalResult emitMachineCode(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    llvm::CodeGenFileType type,
                                    llvm::raw_pwrite_stream &os,
                                    std::string &error);

/// Runs `program` with `args` (args[0] is the program), reporting a
/// failure on `error`.
mlir::LogicalResult runProgram(llvm::StringRef program,
                               llvm::ArrayRef<llvm::StringRef> args,
                               std::string &error);

/// Sets the boolean LLVM option `name` to true unless the command line set
/// it. Called before any target machine is created, from one thread.
void setLLVMFlagDefault(llvm::StringRef name);

} // namespace mla

#endif // MLA_TARGET_LLVMCODEGEN_H
