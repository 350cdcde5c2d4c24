//===- Lds.cpp - LDS variables as offsets into the workgroup's block ------===//
//
// On the chip, addrspace(3) variables are 32-bit offsets into the
// workgroup's LDS, assigned by the backend. The emulator packs each
// kernel's variables with their alignment (variables that functions other
// than kernels use come first, at one offset for every kernel) and turns
// each use into the runtime's LDS base plus the offset.
//
//===----------------------------------------------------------------------===//

#include "Steps.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace mla::emu;

/// The kernels that can reach each function through direct calls; every
/// kernel when a function makes indirect calls.
static DenseMap<const Function *, SmallVector<const Function *, 1>>
kernelsReaching(Module &module, ArrayRef<KernelInfo> kernels) {
  DenseMap<const Function *, SmallVector<const Function *, 1>> result;
  bool indirect = false;
  for (const KernelInfo &kernel : kernels) {
    SmallVector<const Function *> worklist = {kernel.function};
    SmallPtrSet<const Function *, 16> seen = {kernel.function};
    while (!worklist.empty()) {
      const Function *function = worklist.pop_back_val();
      result[function].push_back(kernel.function);
      for (const Instruction &inst : instructions(function)) {
        const auto *call = dyn_cast<CallBase>(&inst);
        if (!call)
          continue;
        const Function *callee = call->getCalledFunction();
        if (!callee)
          indirect |= !call->isInlineAsm();
        else if (!callee->isDeclaration() && seen.insert(callee).second)
          worklist.push_back(callee);
      }
    }
  }
  if (indirect)
    for (Function &function : module)
      for (const KernelInfo &kernel : kernels)
        if (!llvm::is_contained(result[&function], kernel.function))
          result[&function].push_back(kernel.function);
  return result;
}

Error mla::emu::lowerLdsVariables(Module &module, Chip chip,
                                  MutableArrayRef<KernelInfo> kernels,
                                  RuntimeCalls &calls) {
  SmallVector<GlobalVariable *> variables;
  for (GlobalVariable &global : module.globals())
    if (global.getAddressSpace() == 3)
      variables.push_back(&global);
  if (variables.empty())
    return Error::success();

  SmallVector<Constant *> constants(variables.begin(), variables.end());
  convertUsersOfConstantsToInstructions(constants);
  for (GlobalVariable *variable : variables) {
    if (variable->hasInitializer() &&
        !isa<UndefValue>(variable->getInitializer()))
      return createStringError("LDS variable @" + variable->getName() +
                               " has an initializer; LDS cannot be "
                               "initialized");
    for (User *user : variable->users())
      if (!isa<Instruction>(user))
        return createStringError("LDS variable @" + variable->getName() +
                                 " is used outside a function");
  }

  // Variables used outside kernel bodies need one offset for every kernel
  // that reaches them; the others are laid out per kernel.
  auto reaching = kernelsReaching(module, kernels);
  auto isKernel = [](const Function *function) {
    return function->getCallingConv() == CallingConv::AMDGPU_KERNEL;
  };
  const DataLayout &layout = module.getDataLayout();
  SetVector<GlobalVariable *> shared, dynamic;
  for (GlobalVariable *variable : variables) {
    if (layout.getTypeAllocSize(variable->getValueType()) == 0) {
      dynamic.insert(variable);
      continue;
    }
    for (User *user : variable->users())
      if (!isKernel(cast<Instruction>(user)->getFunction()))
        shared.insert(variable);
  }
  auto place = [&](uint64_t &end, GlobalVariable *variable) {
    Align align =
        variable->getAlign().value_or(layout.getPreferredAlign(variable));
    end = alignTo(end, align);
    uint64_t offset = end;
    end += layout.getTypeAllocSize(variable->getValueType());
    return offset;
  };
  DenseMap<GlobalVariable *, uint64_t> sharedOffsets;
  SmallPtrSet<const Function *, 4> seeShared;
  uint64_t sharedEnd = 0;
  for (GlobalVariable *variable : shared) {
    sharedOffsets[variable] = place(sharedEnd, variable);
    for (User *user : variable->users())
      for (const Function *kernel :
           reaching.lookup(cast<Instruction>(user)->getFunction()))
        seeShared.insert(kernel);
  }
  DenseMap<std::pair<GlobalVariable *, const Function *>, uint64_t>
      kernelOffsets;
  for (KernelInfo &kernel : kernels) {
    uint64_t end = seeShared.count(kernel.function) ? sharedEnd : 0;
    for (GlobalVariable *variable : variables) {
      if (shared.count(variable) || dynamic.count(variable))
        continue;
      bool used = llvm::any_of(variable->users(), [&](User *user) {
        return cast<Instruction>(user)->getFunction() == kernel.function;
      });
      if (used)
        kernelOffsets[{variable, kernel.function}] = place(end, variable);
    }
    if (end > ldsLimit(chip))
      return createStringError("kernel @" + kernel.function->getName() +
                               " uses " + Twine(end) + " bytes of LDS; " +
                               chipName(chip) + " has " +
                               Twine(ldsLimit(chip)) + " per workgroup");
    kernel.staticLdsBytes = static_cast<uint32_t>(end);
  }

  // Replace the uses, function by function, by the LDS base plus offset.
  Type *ldsPointer = PointerType::get(module.getContext(), 3);
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    Value *base = nullptr;
    for (GlobalVariable *variable : variables) {
      SmallVector<Use *> uses;
      for (Use &use : variable->uses())
        if (cast<Instruction>(use.getUser())->getFunction() == &function)
          uses.push_back(&use);
      if (uses.empty())
        continue;
      Instruction *entry = &*function.getEntryBlock().getFirstInsertionPt();
      Value *replacement;
      if (dynamic.count(variable)) {
        Align align = variable->getAlign().value_or(Align(16));
        replacement =
            calls.call(entry, "dynamic_lds_base",
                       {ConstantInt::get(Type::getInt32Ty(module.getContext()),
                                         align.value())},
                       ldsPointer, kNoSite);
      } else {
        if (!base)
          base = calls.call(entry, "lds_base", {}, ldsPointer, kNoSite);
        IRBuilder<> builder(cast<Instruction>(base)->getNextNode());
        uint64_t offset = shared.count(variable)
                              ? sharedOffsets[variable]
                              : kernelOffsets.lookup({variable, &function});
        replacement = builder.CreateConstGEP1_64(builder.getInt8Ty(), base,
                                                 offset, variable->getName());
      }
      for (Use *use : uses)
        use->set(replacement);
    }
  }
  for (GlobalVariable *variable : variables)
    variable->eraseFromParent();
  return Error::success();
}
