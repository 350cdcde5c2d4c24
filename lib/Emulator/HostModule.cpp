//===- HostModule.cpp - The rewritten module as host code -----------------===//
//
// Clones the rewritten AMDGPU module into a host module in which every
// pointer lives in address space 0 (address-space casts vanish), adds an
// exported lane entry per kernel and the descriptor the runtime reads
// (EmuABI.h).
//
//===----------------------------------------------------------------------===//

#include "Steps.h"

#include "mla/Emulator/EmuABI.h"

#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace mla::emu;

namespace {

/// Maps every type to its host form: pointers to address space 0.
class HostTypes : public ValueMapTypeRemapper {
public:
  explicit HostTypes(LLVMContext &context) : context(context) {}

  Type *remapType(Type *type) override {
    auto found = cache.find(type);
    if (found != cache.end())
      return found->second;
    Type *result = compute(type);
    cache[type] = result;
    return result;
  }

private:
  Type *compute(Type *type) {
    if (type->isPointerTy())
      return PointerType::get(context, 0);
    if (auto *vector = dyn_cast<VectorType>(type))
      return VectorType::get(remapType(vector->getElementType()),
                             vector->getElementCount());
    if (auto *array = dyn_cast<ArrayType>(type))
      return ArrayType::get(remapType(array->getElementType()),
                            array->getNumElements());
    if (auto *function = dyn_cast<FunctionType>(type)) {
      SmallVector<Type *> params;
      for (Type *param : function->params())
        params.push_back(remapType(param));
      return FunctionType::get(remapType(function->getReturnType()), params,
                               function->isVarArg());
    }
    if (auto *structure = dyn_cast<StructType>(type)) {
      SmallVector<Type *> elements;
      bool changed = false;
      for (Type *element : structure->elements()) {
        elements.push_back(remapType(element));
        changed |= elements.back() != element;
      }
      if (!changed)
        return type;
      if (structure->isLiteral())
        return StructType::get(context, elements, structure->isPacked());
      return StructType::create(context, elements,
                                (structure->getName() + ".host").str(),
                                structure->isPacked());
    }
    return type;
  }

  LLVMContext &context;
  DenseMap<Type *, Type *> cache;
};

} // namespace

/// The runtime function a source declaration stands for: runtime
/// declarations differing in pointer address spaces carry a ".N" suffix.
static StringRef runtimeSymbol(StringRef name) {
  return name.take_front(name.find('.'));
}

static bool isKernel(const Function &function) {
  return function.getCallingConv() == CallingConv::AMDGPU_KERNEL;
}

/// Drops what only the AMDGPU backend understands: string attributes
/// ("target-cpu", "amdgpu-*", ...) and `inreg`.
static void stripTargetAttributes(Function &function) {
  AttributeList attributes = function.getAttributes();
  AttributeMask mask;
  for (Attribute attribute : attributes.getFnAttrs())
    if (attribute.isStringAttribute())
      mask.addAttribute(attribute.getKindAsString());
  function.removeFnAttrs(mask);
  for (unsigned i = 0; i < function.arg_size(); ++i)
    function.removeParamAttr(i, Attribute::InReg);
  function.setCallingConv(CallingConv::C);
}

static Constant *string(Module &module, StringRef text) {
  auto *array = ConstantDataArray::getString(module.getContext(), text);
  auto *global =
      new GlobalVariable(module, array->getType(), true,
                         GlobalValue::PrivateLinkage, array, "mla.emu.str");
  global->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return global;
}

/// `void NAME(void **args)`: loads each argument from its slot and runs the
/// kernel body.
static Function *createLaneEntry(Module &host, Function &body, StringRef name) {
  LLVMContext &context = host.getContext();
  Type *pointer = PointerType::get(context, 0);
  auto *type = FunctionType::get(Type::getVoidTy(context), {pointer}, false);
  Function *entry =
      Function::Create(type, GlobalValue::ExternalLinkage, name, host);
  entry->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> builder(BasicBlock::Create(context, "entry", entry));
  SmallVector<Value *> args;
  for (Argument &arg : body.args()) {
    Value *slot = builder.CreateLoad(
        pointer,
        builder.CreateConstGEP1_64(pointer, entry->getArg(0), arg.getArgNo()));
    args.push_back(builder.CreateLoad(arg.getType(), slot));
  }
  builder.CreateCall(&body, args);
  builder.CreateRetVoid();
  return entry;
}

/// The descriptor of EmuABI.h, laid out as the C structs are.
static void createDescriptor(Module &host, Chip chip,
                             ArrayRef<KernelInfo> kernels,
                             ArrayRef<Function *> entries,
                             const SiteTable &sites,
                             ArrayRef<GlobalVariable *> globals) {
  LLVMContext &context = host.getContext();
  Type *i32 = Type::getInt32Ty(context), *i64 = Type::getInt64Ty(context);
  Type *pointer = PointerType::get(context, 0);

  auto *siteType = StructType::get(context, {pointer, pointer});
  SmallVector<Constant *> siteValues;
  for (const SiteTable::Site &site : sites.sites())
    siteValues.push_back(ConstantStruct::get(
        siteType, {string(host, site.function), string(host, site.location)}));
  auto *sitesArray = ArrayType::get(siteType, siteValues.size());
  auto *sitesGlobal = new GlobalVariable(
      host, sitesArray, true, GlobalValue::PrivateLinkage,
      ConstantArray::get(sitesArray, siteValues), "mla.emu.sites");

  auto *sizeType = ArrayType::get(i32, 3);
  auto *kernelType =
      StructType::get(context, {pointer, pointer, i32, sizeType, i32, i32});
  SmallVector<Constant *> kernelValues;
  for (auto [kernel, entry] : llvm::zip(kernels, entries)) {
    SmallVector<Constant *> required;
    for (uint32_t extent : kernel.requiredWorkgroupSize)
      required.push_back(ConstantInt::get(i32, extent));
    kernelValues.push_back(ConstantStruct::get(
        kernelType, {string(host, entry->getName()), entry,
                     ConstantInt::get(i32, kernel.staticLdsBytes),
                     ConstantArray::get(sizeType, required),
                     ConstantInt::get(i32, kernel.flags),
                     ConstantInt::get(i32, kernel.function->arg_size())}));
  }
  auto *kernelsArray = ArrayType::get(kernelType, kernelValues.size());
  auto *kernelsGlobal = new GlobalVariable(
      host, kernelsArray, true, GlobalValue::PrivateLinkage,
      ConstantArray::get(kernelsArray, kernelValues), "mla.emu.kernels");

  auto *globalType = StructType::get(context, {pointer, i64});
  const DataLayout &layout = host.getDataLayout();
  SmallVector<Constant *> globalValues;
  for (GlobalVariable *global : globals)
    globalValues.push_back(ConstantStruct::get(
        globalType,
        {global, ConstantInt::get(
                     i64, layout.getTypeAllocSize(global->getValueType()))}));
  auto *globalsArray = ArrayType::get(globalType, globalValues.size());
  auto *globalsGlobal = new GlobalVariable(
      host, globalsArray, true, GlobalValue::PrivateLinkage,
      ConstantArray::get(globalsArray, globalValues), "mla.emu.globals");

  auto *moduleType = StructType::get(
      context, {i32, i32, i32, i32, pointer, i32, pointer, i32, pointer});
  Constant *descriptor = ConstantStruct::get(
      moduleType,
      {ConstantInt::get(i32, MLA_EMU_ABI_VERSION),
       ConstantInt::get(i32, chip == Chip::Gfx950 ? MLA_EMU_CHIP_GFX950
                                                  : MLA_EMU_CHIP_GFX942),
       ConstantInt::get(i32, ldsLimit(chip)),
       ConstantInt::get(i32, kernelValues.size()), kernelsGlobal,
       ConstantInt::get(i32, siteValues.size()), sitesGlobal,
       ConstantInt::get(i32, globalValues.size()), globalsGlobal});
  new GlobalVariable(host, moduleType, true, GlobalValue::ExternalLinkage,
                     descriptor, MLA_EMU_MODULE_SYMBOL);
}

Expected<std::unique_ptr<Module>>
mla::emu::buildHostModule(Module &source, Chip chip,
                          ArrayRef<KernelInfo> kernels, const SiteTable &sites,
                          StringRef hostTriple, const DataLayout &hostLayout) {
  LLVMContext &context = source.getContext();
  auto host = std::make_unique<Module>(source.getName(), context);
  host->setTargetTriple(Triple(hostTriple));
  host->setDataLayout(hostLayout);
  HostTypes types(context);
  ValueToValueMapTy map;

  if (!source.alias_empty() || !source.ifunc_empty())
    return createStringError("global aliases and ifuncs are not emulated");
  SmallVector<GlobalVariable *> globals;
  for (GlobalVariable &global : source.globals()) {
    // llvm.used and the like only tell linkers what to keep.
    if (global.getName().starts_with("llvm."))
      continue;
    if (!global.hasInitializer())
      return createStringError("global @" + global.getName() +
                               " has no definition in the module");
    auto *copy = new GlobalVariable(
        *host, types.remapType(global.getValueType()), global.isConstant(),
        GlobalValue::InternalLinkage, nullptr, global.getName());
    copy->setAlignment(global.getAlign());
    map[&global] = copy;
    globals.push_back(copy);
  }

  for (Function &function : source) {
    if (function.isDeclaration() && function.use_empty())
      continue;
    if (function.isDeclaration()) {
      Intrinsic::ID id = function.getIntrinsicID();
      if (id != Intrinsic::not_intrinsic) {
        SmallVector<Type *> overloads;
        Intrinsic::getIntrinsicSignature(&function, overloads);
        for (Type *&overload : overloads)
          overload = types.remapType(overload);
        map[&function] =
            Intrinsic::getOrInsertDeclaration(host.get(), id, overloads);
        continue;
      }
      StringRef symbol = runtimeSymbol(function.getName());
      auto *type =
          cast<FunctionType>(types.remapType(function.getFunctionType()));
      Function *declaration = host->getFunction(symbol);
      if (!declaration) {
        declaration = Function::Create(type, GlobalValue::ExternalLinkage,
                                       symbol, host.get());
        declaration->copyAttributesFrom(&function);
      } else if (declaration->getFunctionType() != type) {
        return createStringError("runtime function " + symbol +
                                 " is called with two signatures");
      }
      map[&function] = declaration;
      continue;
    }
    auto *type =
        cast<FunctionType>(types.remapType(function.getFunctionType()));
    std::string name = function.getName().str();
    if (isKernel(function))
      name += ".body";
    Function *copy =
        Function::Create(type, GlobalValue::InternalLinkage, name, host.get());
    map[&function] = copy;
    for (auto [from, to] : llvm::zip(function.args(), copy->args())) {
      to.setName(from.getName());
      map[&from] = &to;
    }
  }

  for (Function &function : source) {
    if (function.isDeclaration())
      continue;
    auto *copy = cast<Function>(map[&function]);
    SmallVector<ReturnInst *> returns;
    CloneFunctionInto(copy, &function, map,
                      CloneFunctionChangeType::DifferentModule, returns, "",
                      nullptr, &types);
    copy->setLinkage(GlobalValue::InternalLinkage);
    copy->setVisibility(GlobalValue::DefaultVisibility);
    stripTargetAttributes(*copy);
  }
  for (GlobalVariable &global : source.globals())
    if (!global.getName().starts_with("llvm."))
      cast<GlobalVariable>(map[&global])
          ->setInitializer(
              MapValue(global.getInitializer(), map, RF_None, &types));

  // Address spaces are gone: casts between them are no-ops, and calls use
  // the host's calling convention.
  for (Function &function : *host) {
    for (Instruction &inst :
         llvm::make_early_inc_range(instructions(function))) {
      if (auto *cast = dyn_cast<AddrSpaceCastInst>(&inst)) {
        cast->replaceAllUsesWith(cast->getOperand(0));
        cast->eraseFromParent();
      } else if (auto *call = dyn_cast<CallBase>(&inst)) {
        call->setCallingConv(CallingConv::C);
        for (unsigned i = 0; i < call->arg_size(); ++i)
          call->removeParamAttr(i, Attribute::InReg);
      }
    }
  }

  SmallVector<Function *> entries;
  for (const KernelInfo &kernel : kernels)
    entries.push_back(createLaneEntry(*host,
                                      *cast<Function>(map[kernel.function]),
                                      kernel.function->getName()));
  createDescriptor(*host, chip, kernels, entries, sites, globals);

  std::string problems;
  raw_string_ostream os(problems);
  if (verifyModule(*host, &os))
    return createStringError("the retargeted module is invalid: " +
                             StringRef(problems).trim());
  return std::move(host);
}
