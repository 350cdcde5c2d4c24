//===- Instrument.cpp - Checked accesses and runtime calls ----------------===//
//
// Every memory access of the retargeted code passes its address through a
// runtime check (bounds, alignment, and for LDS the race detector) and
// uses the address the check returns, so the access itself cannot run
// before it. Address space 5 (the lane's stack) is not checked.
//
//===----------------------------------------------------------------------===//

#include "Intrinsics.h"
#include "Steps.h"

#include "mla/Emulator/EmuABI.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MemoryModelRelaxationAnnotations.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace mla::emu;

namespace {

/// Address spaces whose pointers are 64-bit host pointers after
/// retargeting and whose accesses the runtime checks as global memory.
bool isGlobalLike(unsigned space) {
  return space == 0 || space == 1 || space == 4;
}

class FunctionRewriter {
public:
  FunctionRewriter(Function &function, Chip chip, const DataLayout &hostLayout,
                   RuntimeCalls &calls)
      : function(function), chip(chip), chipLayout(function.getDataLayout()),
        hostLayout(hostLayout), calls(calls) {}

  Error run();

private:
  Error visit(Instruction &inst);
  Error checkAccess(Instruction &inst, unsigned pointerOperand, Value *bytes,
                    Align align, uint32_t flags);
  Error checkMemoryType(Instruction &inst, Type *type);
  Error checkDivision(BinaryOperator &division);
  Error rewriteCall(CallInst &call);
  Value *ldsBase();

  Function &function;
  Chip chip;
  const DataLayout &chipLayout;
  const DataLayout &hostLayout;
  RuntimeCalls &calls;
  Value *base = nullptr;
};

} // namespace

/// The LDS base pointer (offset 0), computed once at the function's entry.
Value *FunctionRewriter::ldsBase() {
  if (!base)
    base =
        calls.call(&*function.getEntryBlock().getFirstInsertionPt(), "lds_base",
                   {}, PointerType::get(function.getContext(), 3), kNoSite);
  return base;
}

Error FunctionRewriter::checkMemoryType(Instruction &inst, Type *type) {
  // Pointers whose size differs between the chip and the host cannot be
  // kept in memory: the chip's byte offsets into it would be wrong.
  if (auto *pointer = dyn_cast<PointerType>(type)) {
    unsigned space = pointer->getAddressSpace();
    if (chipLayout.getPointerSizeInBits(space) !=
        hostLayout.getPointerSizeInBits(0))
      return errorAt(inst, "memory holding addrspace(" + Twine(space) +
                               ") pointers is not emulated (they have " +
                               Twine(chipLayout.getPointerSizeInBits(space)) +
                               " bits on the chip, 64 on the host)");
    return Error::success();
  }
  if (auto *vector = dyn_cast<VectorType>(type))
    return checkMemoryType(inst, vector->getElementType());
  if (auto *array = dyn_cast<ArrayType>(type))
    if (Error error = checkMemoryType(inst, array->getElementType()))
      return error;
  if (auto *structure = dyn_cast<StructType>(type)) {
    for (Type *element : structure->elements())
      if (Error error = checkMemoryType(inst, element))
        return error;
    if (structure->isSized() &&
        (chipLayout.getStructLayout(structure)->getMemberOffsets() !=
             hostLayout.getStructLayout(structure)->getMemberOffsets() ||
         chipLayout.getTypeAllocSize(structure) !=
             hostLayout.getTypeAllocSize(structure)))
      return errorAt(inst, "a struct type is laid out differently on the "
                           "chip and the host");
  }
  if (type->isSized() &&
      chipLayout.getTypeAllocSize(type) != hostLayout.getTypeAllocSize(type))
    return errorAt(inst, "a type has a different size on the chip and the "
                         "host");
  return Error::success();
}

Error FunctionRewriter::checkAccess(Instruction &inst, unsigned pointerOperand,
                                    Value *bytes, Align align, uint32_t flags) {
  Value *pointer = inst.getOperand(pointerOperand);
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space == 5)
    return Error::success();
  if (space != 3 && !isGlobalLike(space))
    return errorAt(inst, "accesses to address space " + Twine(space) +
                             " are not emulated");
  uint32_t site = calls.siteTable().add(inst);
  flags |= Log2(align) << MLA_EMU_ACCESS_ALIGN_SHIFT;
  if (inst.getAAMetadata())
    flags |= MLA_EMU_ACCESS_ALIAS_METADATA;
  // Constant loads become scalar loads, which vmcnt does not count (a
  // divergent one is a vector load; leaving it out only makes waits
  // stricter). Uniform global loads the backend makes scalar cannot be told
  // apart here: counted, they may let a wait land a load to LDS sooner than
  // the chip would.
  if (space == 4 && isa<LoadInst>(inst))
    flags |= MLA_EMU_ACCESS_SCALAR;
  IRBuilder<> builder(&inst);
  Type *i32 = builder.getInt32Ty();
  bytes = builder.CreateZExtOrTrunc(bytes, builder.getInt64Ty());
  Value *checked;
  if (space == 3) {
    checked = calls.call(&inst, "check_lds",
                         {pointer, bytes, ConstantInt::get(i32, flags)},
                         pointer->getType(), site);
  } else {
    // The runtime takes flat pointers; on the host every pointer is one.
    Type *flat = PointerType::get(inst.getContext(), 0);
    Value *generic = builder.CreateAddrSpaceCast(pointer, flat);
    checked =
        calls.call(&inst, "check_global",
                   {generic, bytes, ConstantInt::get(i32, flags)}, flat, site);
    checked = builder.CreateAddrSpaceCast(checked, pointer->getType());
  }
  inst.setOperand(pointerOperand, checked);
  return Error::success();
}

Error FunctionRewriter::checkDivision(BinaryOperator &division) {
  Value *dividend = division.getOperand(0), *divisor = division.getOperand(1);
  bool isSigned = division.getOpcode() == Instruction::SDiv ||
                  division.getOpcode() == Instruction::SRem;
  if (auto *constant = dyn_cast<Constant>(divisor))
    if (!constant->containsUndefOrPoisonElement() &&
        (constant->getType()->isVectorTy()
             ? !constant->getSplatValue() ||
                   (!constant->getSplatValue()->isNullValue() &&
                    (!isSigned || !constant->getSplatValue()->isAllOnesValue()))
             : !constant->isNullValue() &&
                   (!isSigned || !constant->isAllOnesValue())))
      return Error::success();
  IRBuilder<> builder(&division);
  Type *type = divisor->getType();
  Value *invalid = builder.CreateICmpEQ(divisor, Constant::getNullValue(type));
  if (isSigned) {
    unsigned bits = type->getScalarSizeInBits();
    Value *minimum = ConstantInt::get(type, APInt::getSignedMinValue(bits));
    invalid = builder.CreateOr(
        invalid,
        builder.CreateAnd(
            builder.CreateICmpEQ(dividend, minimum),
            builder.CreateICmpEQ(divisor, Constant::getAllOnesValue(type))));
  }
  if (type->isVectorTy())
    invalid = builder.CreateOrReduce(invalid);
  calls.call(&division, "check_division", {invalid}, nullptr,
             calls.siteTable().add(division));
  return Error::success();
}

/// Whether the backend's memory legalizer makes the wave wait before `fence`
/// for its LDS operations (s_waitcnt lgkmcnt(0)) and its loads to LDS
/// (vmcnt(0)): a release at workgroup scope or wider that orders LDS.
static bool releasesLds(const FenceInst &fence) {
  if (!isReleaseOrStronger(fence.getOrdering()))
    return false;
  std::optional<StringRef> scope =
      fence.getContext().getSyncScopeName(fence.getSyncScopeID());
  if (!scope || scope->starts_with("singlethread") ||
      scope->starts_with("wavefront"))
    return false;
  MMRAMetadata mmra(fence);
  return !mmra.hasTagWithPrefix("amdgpu-synchronize-as") ||
         mmra.hasTag("amdgpu-synchronize-as", "local");
}

/// Target-independent intrinsics that take pointers and are fine on host
/// memory as they are (the memory transfer intrinsics are checked apart).
static bool isHarmlessPointerIntrinsic(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::objectsize:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_assign:
  case Intrinsic::dbg_label:
    return true;
  default:
    return false;
  }
}

Error FunctionRewriter::rewriteCall(CallInst &call) {
  if (call.isInlineAsm()) {
    auto *assembly = cast<InlineAsm>(call.getCalledOperand());
    if (StringRef(assembly->getAsmString()).trim().empty() &&
        call.use_empty()) {
      call.eraseFromParent();
      return Error::success();
    }
    return errorAt(call, "inline assembly is not emulated");
  }
  Function *callee = call.getCalledFunction();
  if (!callee)
    return Error::success();
  if (!callee->isDeclaration())
    return Error::success();
  StringRef name = callee->getName();
  if (name.starts_with(kRuntimePrefix))
    return Error::success();
  Intrinsic::ID id = callee->getIntrinsicID();
  if (id == Intrinsic::not_intrinsic)
    return errorAt(call, "calls @" + name +
                             ", which the emulated module does not define");
  if (name.starts_with("llvm.amdgcn."))
    return lowerAmdgcnIntrinsic(call, chip, calls);
  if (id == Intrinsic::trap || id == Intrinsic::debugtrap ||
      id == Intrinsic::ubsantrap) {
    calls.call(&call, "trap", {}, nullptr, calls.siteTable().add(call));
    call.eraseFromParent();
    return Error::success();
  }
  if (id == Intrinsic::prefetch) {
    call.eraseFromParent();
    return Error::success();
  }
  if (auto *transfer = dyn_cast<MemTransferInst>(&call)) {
    Align align = transfer->getDestAlign().valueOrOne();
    if (Error error = checkAccess(call, 0, transfer->getLength(), align,
                                  MLA_EMU_ACCESS_WRITE))
      return error;
    return checkAccess(call, 1, transfer->getLength(),
                       transfer->getSourceAlign().valueOrOne(),
                       MLA_EMU_ACCESS_READ);
  }
  if (auto *set = dyn_cast<MemSetInst>(&call))
    return checkAccess(call, 0, set->getLength(),
                       set->getDestAlign().valueOrOne(), MLA_EMU_ACCESS_WRITE);
  if (isHarmlessPointerIntrinsic(id))
    return Error::success();
  if (id == Intrinsic::ptrmask &&
      isGlobalLike(call.getType()->getPointerAddressSpace()))
    return Error::success();
  for (Value *arg : call.args())
    if (arg->getType()->isPtrOrPtrVectorTy())
      return errorAt(call, name + " on pointers is not emulated");
  if (call.getType()->isPtrOrPtrVectorTy())
    return errorAt(call, name + " returning a pointer is not emulated");
  return Error::success();
}

Error FunctionRewriter::visit(Instruction &inst) {
  // The chip's LDS null pointer is offset 0, a valid address.
  for (Use &operand : inst.operands())
    if (auto *null = dyn_cast<ConstantPointerNull>(operand.get()))
      if (null->getType()->getAddressSpace() == 3)
        operand.set(ldsBase());

  if (auto *load = dyn_cast<LoadInst>(&inst)) {
    if (Error error = checkMemoryType(inst, load->getType()))
      return error;
    Value *bytes =
        ConstantInt::get(Type::getInt64Ty(inst.getContext()),
                         chipLayout.getTypeStoreSize(load->getType()));
    return checkAccess(
        inst, load->getPointerOperandIndex(), bytes, load->getAlign(),
        MLA_EMU_ACCESS_READ | (load->isAtomic() ? MLA_EMU_ACCESS_ATOMIC : 0));
  }
  if (auto *store = dyn_cast<StoreInst>(&inst)) {
    Type *type = store->getValueOperand()->getType();
    if (Error error = checkMemoryType(inst, type))
      return error;
    Value *bytes = ConstantInt::get(Type::getInt64Ty(inst.getContext()),
                                    chipLayout.getTypeStoreSize(type));
    return checkAccess(
        inst, store->getPointerOperandIndex(), bytes, store->getAlign(),
        MLA_EMU_ACCESS_WRITE | (store->isAtomic() ? MLA_EMU_ACCESS_ATOMIC : 0));
  }
  if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst)) {
    Type *type = rmw->getValOperand()->getType();
    Value *bytes = ConstantInt::get(Type::getInt64Ty(inst.getContext()),
                                    chipLayout.getTypeStoreSize(type));
    return checkAccess(
        inst, rmw->getPointerOperandIndex(), bytes, rmw->getAlign(),
        MLA_EMU_ACCESS_READ | MLA_EMU_ACCESS_WRITE | MLA_EMU_ACCESS_ATOMIC);
  }
  if (auto *exchange = dyn_cast<AtomicCmpXchgInst>(&inst)) {
    Type *type = exchange->getNewValOperand()->getType();
    Value *bytes = ConstantInt::get(Type::getInt64Ty(inst.getContext()),
                                    chipLayout.getTypeStoreSize(type));
    return checkAccess(
        inst, exchange->getPointerOperandIndex(), bytes, exchange->getAlign(),
        MLA_EMU_ACCESS_READ | MLA_EMU_ACCESS_WRITE | MLA_EMU_ACCESS_ATOMIC);
  }
  if (auto *alloca = dyn_cast<AllocaInst>(&inst))
    return checkMemoryType(inst, alloca->getAllocatedType());
  if (auto *gep = dyn_cast<GetElementPtrInst>(&inst))
    return checkMemoryType(inst, gep->getSourceElementType());
  if (auto *fence = dyn_cast<FenceInst>(&inst)) {
    Type *i32 = Type::getInt32Ty(inst.getContext());
    calls.call(&inst, "fence", {ConstantInt::get(i32, releasesLds(*fence))},
               nullptr, calls.siteTable().add(inst));
    return Error::success();
  }
  if (isa<UnreachableInst>(inst)) {
    calls.call(&inst, "unreachable", {}, nullptr, calls.siteTable().add(inst));
    return Error::success();
  }
  if (auto *binary = dyn_cast<BinaryOperator>(&inst)) {
    switch (binary->getOpcode()) {
    case Instruction::SDiv:
    case Instruction::UDiv:
    case Instruction::SRem:
    case Instruction::URem:
      return checkDivision(*binary);
    default:
      return Error::success();
    }
  }
  if (auto *cast = dyn_cast<PtrToIntInst>(&inst)) {
    unsigned space = cast->getPointerAddressSpace();
    if (space == 3) {
      Value *offset = calls.call(&inst, "lds_offset", {cast->getOperand(0)},
                                 Type::getInt32Ty(inst.getContext()), kNoSite);
      IRBuilder<> builder(&inst);
      inst.replaceAllUsesWith(
          builder.CreateZExtOrTrunc(offset, cast->getType()));
      inst.eraseFromParent();
      return Error::success();
    }
    if (!isGlobalLike(space))
      return errorAt(inst, "converting addrspace(" + Twine(space) +
                               ") pointers to integers is not emulated");
    return Error::success();
  }
  if (auto *cast = dyn_cast<IntToPtrInst>(&inst)) {
    unsigned space = cast->getAddressSpace();
    if (space == 3) {
      IRBuilder<> builder(&inst);
      Value *offset =
          builder.CreateZExtOrTrunc(cast->getOperand(0), builder.getInt32Ty());
      inst.replaceAllUsesWith(
          calls.call(&inst, "lds_pointer", {offset}, cast->getType(), kNoSite));
      inst.eraseFromParent();
      return Error::success();
    }
    if (!isGlobalLike(space))
      return errorAt(inst, "converting integers to addrspace(" + Twine(space) +
                               ") pointers is not emulated");
    return Error::success();
  }
  if (auto *cast = dyn_cast<AddrSpaceCastInst>(&inst)) {
    for (unsigned space :
         {cast->getSrcAddressSpace(), cast->getDestAddressSpace()})
      if (space != 3 && space != 5 && !isGlobalLike(space))
        return errorAt(inst, "casts involving address space " + Twine(space) +
                                 " are not emulated");
    return Error::success();
  }
  if (auto *call = dyn_cast<CallInst>(&inst))
    return rewriteCall(*call);
  if (isa<InvokeInst>(inst) || isa<CallBrInst>(inst))
    return errorAt(inst, "invoke and callbr are not emulated");
  return Error::success();
}

Error FunctionRewriter::run() {
  // Visit a snapshot: the rewrites insert and erase instructions.
  SmallVector<WeakTrackingVH> worklist;
  for (Instruction &inst : instructions(function))
    worklist.push_back(&inst);
  for (WeakTrackingVH &handle : worklist)
    if (auto *inst = dyn_cast_or_null<Instruction>(handle))
      if (Error error = visit(*inst))
        return error;
  return Error::success();
}

Error mla::emu::rewriteFunction(Function &function, Chip chip,
                                const DataLayout &hostLayout,
                                RuntimeCalls &calls) {
  return FunctionRewriter(function, chip, hostLayout, calls).run();
}
