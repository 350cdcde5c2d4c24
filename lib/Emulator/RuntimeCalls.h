//===- RuntimeCalls.h - Calls into the emulation runtime --------*- C++ -*-===//
//
// The retargeted code reaches the runtime (lib/EmulatorRuntime) through C
// functions named __mla_emu_NAME with one calling convention:
// - integers of up to 32 bits (i1 included) are passed zero-extended to
//   i32, i64 as is, f32 and f64 as is, f16 and bf16 as their bits in an i32,
//   pointers as pointers;
// - vectors, structs and other values are passed by address (a temporary
//   in the caller's frame);
// - a result of such a type is written through an extra first argument;
// - the last argument is the i32 id of the calling instruction in the
//   module's site table (UINT32_MAX for none), for the runtime's reports.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_EMULATOR_RUNTIMECALLS_H
#define MLA_LIB_EMULATOR_RUNTIMECALLS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mla::emu {

/// The prefix of every runtime function.
constexpr const char *kRuntimePrefix = "__mla_emu_";
constexpr uint32_t kNoSite = UINT32_MAX;

/// Where `inst` is: FILE:LINE:COL of its debug location, or its text.
std::string describeLocation(const llvm::Instruction &inst);

/// `message` plus where `inst` is, as an error.
llvm::Error errorAt(const llvm::Instruction &inst, const llvm::Twine &message);

/// The instructions the runtime may name in a report.
class SiteTable {
public:
  struct Site {
    std::string function;
    std::string location;
  };

  /// Records where the instructions of `module` are before any rewriting,
  /// so that reports quote the input (with its value numbering).
  void describeModule(const llvm::Module &module);

  /// Adds `inst`; returns its id.
  uint32_t add(const llvm::Instruction &inst);
  const std::vector<Site> &sites() const { return entries; }

private:
  std::vector<Site> entries;
  llvm::DenseMap<const llvm::Instruction *, std::string> descriptions;
};

class RuntimeCalls {
public:
  RuntimeCalls(llvm::Module &module, SiteTable &sites)
      : module(module), sites(sites) {}

  /// Emits __mla_emu_`name`(`args`..., `site`) before `before` and returns
  /// its result as a value of `resultType` (null for void).
  llvm::Value *call(llvm::Instruction *before, llvm::StringRef name,
                    llvm::ArrayRef<llvm::Value *> args, llvm::Type *resultType,
                    uint32_t site);

  /// A temporary for a value of `type` in the entry block of `function`,
  /// shared by every runtime call of the function that passes such a value
  /// as its operand `slot`: calls run one after another and their operands
  /// die with them, so the lane's frame stays small however many calls the
  /// function makes.
  llvm::AllocaInst *temporary(llvm::Function &function, llvm::Type *type,
                              unsigned slot);

  SiteTable &siteTable() { return sites; }

private:
  llvm::Module &module;
  SiteTable &sites;
  llvm::DenseMap<std::tuple<llvm::Function *, llvm::Type *, unsigned>,
                 llvm::AllocaInst *>
      temporaries;
};

} // namespace mla::emu

#endif // MLA_LIB_EMULATOR_RUNTIMECALLS_H
