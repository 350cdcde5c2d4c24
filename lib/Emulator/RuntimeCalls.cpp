//===- RuntimeCalls.cpp - Calls into the emulation runtime ----------------===//

#include "RuntimeCalls.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mla::emu;

/// FILE:LINE:COL of `inst`, or its text printed with `slots`.
static std::string describe(const Instruction &inst, ModuleSlotTracker &slots) {
  std::string text;
  raw_string_ostream os(text);
  if (const DILocation *loc = inst.getDebugLoc().get()) {
    os << loc->getFilename() << ":" << loc->getLine() << ":"
       << loc->getColumn();
    return text;
  }
  // Without debug locations the instruction itself says where it is.
  inst.print(os, slots);
  StringRef trimmed = StringRef(text).trim();
  constexpr size_t kMaxLength = 160;
  std::string result = "`" + trimmed.take_front(kMaxLength).str() +
                       (trimmed.size() > kMaxLength ? "...`" : "`");
  return result;
}

std::string mla::emu::describeLocation(const Instruction &inst) {
  ModuleSlotTracker slots(inst.getModule());
  return describe(inst, slots);
}

void SiteTable::describeModule(const Module &module) {
  ModuleSlotTracker slots(&module);
  for (const Function &function : module) {
    if (function.isDeclaration())
      continue;
    slots.incorporateFunction(function);
    for (const BasicBlock &block : function)
      for (const Instruction &inst : block)
        if (inst.mayReadOrWriteMemory() || isa<CallBase>(inst) ||
            isa<UnreachableInst>(inst) || inst.isIntDivRem())
          descriptions[&inst] = describe(inst, slots);
  }
}

Error mla::emu::errorAt(const Instruction &inst, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           message + " (at " + describeLocation(inst) +
                               " in @" + inst.getFunction()->getName() + ")");
}

uint32_t SiteTable::add(const Instruction &inst) {
  auto described = descriptions.find(&inst);
  entries.push_back({inst.getFunction()->getName().str(),
                     described != descriptions.end() ? described->second
                                                     : describeLocation(inst)});
  return static_cast<uint32_t>(entries.size() - 1);
}

AllocaInst *RuntimeCalls::temporary(Function &function, Type *type,
                                    unsigned slot) {
  AllocaInst *&temporary = temporaries[{&function, type, slot}];
  if (!temporary) {
    const DataLayout &layout = module.getDataLayout();
    IRBuilder<> builder(&*function.getEntryBlock().getFirstInsertionPt());
    temporary = builder.CreateAlloca(type, layout.getAllocaAddrSpace());
  }
  return temporary;
}

/// Whether values of `type` travel in registers (see RuntimeCalls.h).
static bool passedByValue(Type *type) {
  if (type->isPointerTy() || type->isFloatTy() || type->isDoubleTy() ||
      type->isHalfTy() || type->isBFloatTy())
    return true;
  if (auto *integer = dyn_cast<IntegerType>(type))
    return integer->getBitWidth() <= 32 || integer->getBitWidth() == 64;
  return false;
}

Value *RuntimeCalls::call(Instruction *before, StringRef name,
                          ArrayRef<Value *> args, Type *resultType,
                          uint32_t site) {
  Function &function = *before->getFunction();
  IRBuilder<> builder(before);
  Type *i32 = builder.getInt32Ty();
  SmallVector<Value *> operands;
  AllocaInst *result = nullptr;
  Type *returnType = builder.getVoidTy();
  if (resultType && !resultType->isVoidTy()) {
    if (passedByValue(resultType)) {
      returnType = resultType;
      if (resultType->isHalfTy() || resultType->isBFloatTy() ||
          (resultType->isIntegerTy() && resultType->getIntegerBitWidth() < 32))
        returnType = i32;
    } else {
      result = temporary(function, resultType, 0);
      operands.push_back(result);
    }
  }
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type *type = arg->getType();
    if (!passedByValue(type)) {
      AllocaInst *slot = temporary(function, type, i + 1);
      builder.CreateStore(arg, slot);
      operands.push_back(slot);
    } else if (type->isHalfTy() || type->isBFloatTy()) {
      operands.push_back(builder.CreateZExt(
          builder.CreateBitCast(arg, builder.getInt16Ty()), i32));
    } else if (type->isIntegerTy() && type->getIntegerBitWidth() < 32) {
      operands.push_back(builder.CreateZExt(arg, i32));
    } else {
      operands.push_back(arg);
    }
  }
  operands.push_back(ConstantInt::get(i32, site));

  SmallVector<Type *> paramTypes;
  for (Value *operand : operands)
    paramTypes.push_back(operand->getType());
  auto *type = FunctionType::get(returnType, paramTypes, /*isVarArg=*/false);
  // Runtime functions are declared once per address-space signature; the
  // host module merges declarations that differ only after the suffix.
  std::string symbol = (kRuntimePrefix + name).str();
  Function *callee = module.getFunction(symbol);
  for (unsigned variant = 1; callee && callee->getFunctionType() != type;
       ++variant) {
    symbol = (kRuntimePrefix + name + "." + Twine(variant)).str();
    callee = module.getFunction(symbol);
  }
  if (!callee) {
    callee =
        Function::Create(type, GlobalValue::ExternalLinkage, symbol, module);
    callee->addFnAttr(Attribute::NoUnwind);
  }
  CallInst *call = builder.CreateCall(callee, operands);
  if (result)
    return builder.CreateLoad(resultType, result);
  if (returnType->isVoidTy())
    return nullptr;
  if (returnType == resultType)
    return call;
  Value *narrow = builder.CreateTrunc(
      call, resultType->isIntegerTy()
                ? resultType
                : static_cast<Type *>(builder.getInt16Ty()));
  return resultType->isIntegerTy() ? narrow
                                   : builder.CreateBitCast(narrow, resultType);
}
