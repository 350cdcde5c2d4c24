//===- Intrinsics.cpp - Emulation of llvm.amdgcn.* intrinsics -------------===//
//
// One table entry per emulated intrinsic (and overload): the runtime
// function that executes it, the chips that have it, how its operands reach
// the runtime, and a check of the immediate operands whose modes the
// runtime does not model. Adding an instruction is one entry here plus its
// runtime function (docs/emulation.md).
//
//===----------------------------------------------------------------------===//

#include "Intrinsics.h"
#include "mla/Emulator/EmuABI.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mla::emu;

namespace {

enum ChipMask : uint8_t { kGfx942 = 1, kGfx950 = 2, kBoth = 3 };

enum class Lowering {
  /// The runtime function takes the call's operands (the first
  /// `operandCount`, when set) and returns its result.
  Call,
  /// Operands and result of the overloaded type travel as 32-bit words,
  /// one runtime call per word, as the hardware moves whole VGPRs.
  Words,
  /// llvm.amdgcn.icmp / fcmp: the compare, then a ballot of it.
  Compare,
  /// Buffer loads and stores of any type: the runtime moves bytes.
  BufferLoad,
  BufferStore,
  /// LDS reads that exchange data between lanes: the runtime function takes
  /// the LDS pointer and the access flags the call's alias metadata sets.
  LdsExchange,
  /// The wave size, 64.
  WaveSize,
  /// Scheduling hints: nothing to execute.
  Erase,
};

/// Returns a complaint about the call's immediate operands, or an empty
/// string when the runtime models them.
using CheckFn = std::string (*)(const CallInst &call, Chip chip);

struct Entry {
  Intrinsic::ID id;
  /// The overload suffix of the intrinsic's name this entry covers ("f32",
  /// "v4i32.v4i32"); empty for every overload.
  const char *overload;
  /// The runtime function, without the __mla_emu_ prefix.
  const char *runtime;
  uint8_t chips;
  Lowering lowering;
  CheckFn check = nullptr;
  /// Operands passed to the runtime function; -1 for all.
  int operandCount = -1;
};

} // namespace

static uint64_t immediate(const CallInst &call, unsigned operand) {
  return cast<ConstantInt>(call.getArgOperand(operand))->getZExtValue();
}

/// cbsz, abid and blgp broadcast and permute operand blocks; the emulated
/// single-block shapes take them as 0.
static std::string checkMfma(const CallInst &call, Chip) {
  if (immediate(call, 3) || immediate(call, 4) || immediate(call, 5))
    return "cbsz/abid/blgp modifiers are not emulated (they must be 0)";
  return "";
}

/// The format codes select fp8 (0), bf8 (1), fp6 (2), bf6 (3) or fp4 (4)
/// operands. Only fp4 has a settled lane placement (shared/AMD.md).
static std::string checkScaledMfma(const CallInst &call, Chip) {
  if (immediate(call, 3) != 4 || immediate(call, 4) != 4)
    return "only fp4 operands (cbsz = blgp = 4) are emulated; the lane "
           "placement of fp8 and fp6 operands is not settled by a source";
  if (immediate(call, 5) > 3 || immediate(call, 7) > 3)
    return "scale byte selectors must be 0-3";
  return "";
}

static bool isGfx9DppControl(uint64_t control) {
  return control <= 0xFF || (control >= 0x101 && control <= 0x10F) ||
         (control >= 0x111 && control <= 0x11F) ||
         (control >= 0x121 && control <= 0x12F) || control == 0x130 ||
         control == 0x134 || control == 0x138 || control == 0x13C ||
         (control >= 0x140 && control <= 0x143);
}

static std::string checkDppAt(const CallInst &call, unsigned control) {
  if (!isGfx9DppControl(immediate(call, control)))
    return formatv("dpp_ctrl {0:x} is not a GFX9 DPP control",
                   immediate(call, control));
  if (immediate(call, control + 1) > 15 || immediate(call, control + 2) > 15)
    return "row_mask and bank_mask must be 4-bit";
  return "";
}

static std::string checkUpdateDpp(const CallInst &call, Chip) {
  return checkDppAt(call, 2);
}

static std::string checkMovDpp(const CallInst &call, Chip) {
  return checkDppAt(call, 1);
}

/// Bit 3 of a buffer access's auxiliary operand swizzles addresses.
static std::string checkBufferAux(const CallInst &call, Chip) {
  if (immediate(call, call.arg_size() - 1) & 8)
    return "swizzled buffer accesses are not emulated";
  return "";
}

static std::string checkLdsLoadSize(const CallInst &call, Chip chip) {
  uint64_t size = immediate(call, 2);
  if (size == 1 || size == 2 || size == 4 ||
      (chip == Chip::Gfx950 && (size == 12 || size == 16)))
    return "";
  return formatv("loads of {0} bytes to LDS do not exist on {1}", size,
                 chipName(chip));
}

static std::string checkRawLdsLoad(const CallInst &call, Chip chip) {
  std::string size = checkLdsLoadSize(call, chip);
  return size.empty() ? checkBufferAux(call, chip) : size;
}

using namespace llvm::Intrinsic;

// Most runtime functions are named after the intrinsic (and overload).
#define CALL(NAME, CHIPS) {amdgcn_##NAME, "", #NAME, CHIPS, Lowering::Call}
#define MFMA(NAME, CHIPS)                                                      \
  {amdgcn_##NAME, "", #NAME, CHIPS, Lowering::Call, checkMfma}
#define OVERLOAD(NAME, TYPE)                                                   \
  {amdgcn_##NAME, #TYPE, #NAME "_" #TYPE, kBoth, Lowering::Call}
#define HINT(NAME) {amdgcn_##NAME, "", "", kBoth, Lowering::Erase}

static const Entry kEntries[] = {
    // Work-items, workgroups and launch sizes.
    CALL(workitem_id_x, kBoth),
    CALL(workitem_id_y, kBoth),
    CALL(workitem_id_z, kBoth),
    CALL(workgroup_id_x, kBoth),
    CALL(workgroup_id_y, kBoth),
    CALL(workgroup_id_z, kBoth),
    CALL(dispatch_ptr, kBoth),
    CALL(implicitarg_ptr, kBoth),
    CALL(groupstaticsize, kBoth),
    {amdgcn_wavefrontsize, "", "", kBoth, Lowering::WaveSize},
    CALL(mbcnt_lo, kBoth),
    CALL(mbcnt_hi, kBoth),

    // Synchronization and scheduling.
    CALL(s_barrier, kBoth),
    CALL(wave_barrier, kBoth),
    CALL(s_waitcnt, kBoth),
    HINT(sched_barrier),
    HINT(sched_group_barrier),
    HINT(iglp_opt),
    HINT(s_setprio),
    HINT(s_sleep),
    HINT(s_nop),

    // Cross-lane operations.
    {amdgcn_readlane, "", "readlane_b32", kBoth, Lowering::Words},
    {amdgcn_readfirstlane, "", "readfirstlane_b32", kBoth, Lowering::Words},
    {amdgcn_writelane, "", "writelane_b32", kBoth, Lowering::Words},
    {amdgcn_update_dpp, "", "update_dpp_b32", kBoth, Lowering::Words,
     checkUpdateDpp},
    {amdgcn_mov_dpp, "", "mov_dpp_b32", kBoth, Lowering::Words, checkMovDpp},
    CALL(ds_bpermute, kBoth),
    CALL(ds_permute, kBoth),
    CALL(ds_swizzle, kBoth),
    CALL(permlane16_swap, kGfx950),
    CALL(permlane32_swap, kGfx950),
    {amdgcn_ds_read_tr16_b64, "", "ds_read_tr16_b64", kGfx950,
     Lowering::LdsExchange},
    {amdgcn_ds_read_tr8_b64, "", "ds_read_tr8_b64", kGfx950,
     Lowering::LdsExchange},
    {amdgcn_ds_read_tr4_b64, "", "ds_read_tr4_b64", kGfx950,
     Lowering::LdsExchange},
    OVERLOAD(ballot, i64),
    {amdgcn_icmp, "i64", "ballot_i64", kBoth, Lowering::Compare},
    {amdgcn_fcmp, "i64", "ballot_i64", kBoth, Lowering::Compare},

    // Matrix instructions.
    MFMA(mfma_f32_16x16x4f32, kBoth),
    MFMA(mfma_f32_32x32x2f32, kBoth),
    MFMA(mfma_f32_16x16x16f16, kBoth),
    MFMA(mfma_f32_32x32x8f16, kBoth),
    MFMA(mfma_f32_16x16x16bf16_1k, kBoth),
    MFMA(mfma_f32_32x32x8bf16_1k, kBoth),
    MFMA(mfma_i32_16x16x32_i8, kBoth),
    MFMA(mfma_i32_32x32x16_i8, kBoth),
    MFMA(mfma_f32_16x16x32_fp8_fp8, kBoth),
    MFMA(mfma_f32_16x16x32_fp8_bf8, kBoth),
    MFMA(mfma_f32_16x16x32_bf8_fp8, kBoth),
    MFMA(mfma_f32_16x16x32_bf8_bf8, kBoth),
    MFMA(mfma_f32_32x32x16_fp8_fp8, kBoth),
    MFMA(mfma_f32_32x32x16_fp8_bf8, kBoth),
    MFMA(mfma_f32_32x32x16_bf8_fp8, kBoth),
    MFMA(mfma_f32_32x32x16_bf8_bf8, kBoth),
    MFMA(mfma_f32_16x16x32_f16, kGfx950),
    MFMA(mfma_f32_32x32x16_f16, kGfx950),
    MFMA(mfma_f32_16x16x32_bf16, kGfx950),
    MFMA(mfma_f32_32x32x16_bf16, kGfx950),
    MFMA(mfma_i32_16x16x64_i8, kGfx950),
    MFMA(mfma_i32_32x32x32_i8, kGfx950),
    {amdgcn_mfma_scale_f32_16x16x128_f8f6f4, "v4i32.v4i32",
     "mfma_scale_f32_16x16x128_f8f6f4", kGfx950, Lowering::Call,
     checkScaledMfma},
    {amdgcn_mfma_scale_f32_32x32x64_f8f6f4, "v4i32.v4i32",
     "mfma_scale_f32_32x32x64_f8f6f4", kGfx950, Lowering::Call,
     checkScaledMfma},

    // fp8 conversions (FNUZ on gfx942, OCP on gfx950).
    CALL(cvt_f32_fp8, kBoth),
    CALL(cvt_f32_bf8, kBoth),
    CALL(cvt_pk_f32_fp8, kBoth),
    CALL(cvt_pk_f32_bf8, kBoth),
    CALL(cvt_pk_fp8_f32, kBoth),
    CALL(cvt_pk_bf8_f32, kBoth),

    // Scaled fp4 and fp8 conversions (gfx950).
    CALL(cvt_scalef32_pk_f32_fp4, kGfx950),
    CALL(cvt_scalef32_pk_bf16_fp4, kGfx950),
    CALL(cvt_scalef32_pk_f16_fp4, kGfx950),
    CALL(cvt_scalef32_pk_fp4_f32, kGfx950),
    CALL(cvt_scalef32_pk_fp4_bf16, kGfx950),
    CALL(cvt_scalef32_pk_fp4_f16, kGfx950),
    CALL(cvt_scalef32_f32_fp8, kGfx950),
    CALL(cvt_scalef32_f32_bf8, kGfx950),
    CALL(cvt_scalef32_pk_f32_fp8, kGfx950),
    CALL(cvt_scalef32_pk_f32_bf8, kGfx950),
    CALL(cvt_scalef32_pk_bf16_fp8, kGfx950),
    CALL(cvt_scalef32_pk_bf16_bf8, kGfx950),
    CALL(cvt_scalef32_pk_f16_fp8, kGfx950),
    CALL(cvt_scalef32_pk_f16_bf8, kGfx950),
    CALL(cvt_scalef32_pk_fp8_f32, kGfx950),
    CALL(cvt_scalef32_pk_bf8_f32, kGfx950),
    CALL(cvt_scalef32_pk_fp8_f16, kGfx950),
    CALL(cvt_scalef32_pk_fp8_bf16, kGfx950),
    CALL(cvt_scalef32_pk_bf8_f16, kGfx950),
    CALL(cvt_scalef32_pk_bf8_bf16, kGfx950),

    // Arithmetic.
    OVERLOAD(exp2, f32),
    OVERLOAD(exp2, f16),
    OVERLOAD(log, f32),
    OVERLOAD(log, f16),
    OVERLOAD(rcp, f32),
    OVERLOAD(rcp, f16),
    OVERLOAD(rsq, f32),
    OVERLOAD(rsq, f16),
    OVERLOAD(sqrt, f32),
    OVERLOAD(sqrt, f16),
    OVERLOAD(sin, f32),
    OVERLOAD(cos, f32),
    OVERLOAD(fract, f32),
    OVERLOAD(frexp_mant, f32),
    {amdgcn_frexp_exp, "i32.f32", "frexp_exp_i32_f32", kBoth, Lowering::Call},
    CALL(fmul_legacy, kBoth),
    OVERLOAD(fmed3, f32),
    CALL(perm, kBoth),
    OVERLOAD(ubfe, i32),
    OVERLOAD(sbfe, i32),
    CALL(cvt_pkrtz, kBoth),

    // Memory.
    {amdgcn_make_buffer_rsrc, "p8.p1", "make_buffer_rsrc", kBoth,
     Lowering::Call},
    {amdgcn_raw_ptr_buffer_load, "", "buffer_load", kBoth, Lowering::BufferLoad,
     checkBufferAux},
    {amdgcn_raw_ptr_buffer_store, "", "buffer_store", kBoth,
     Lowering::BufferStore, checkBufferAux},
    {amdgcn_raw_ptr_buffer_load_lds, "", "buffer_load_lds", kBoth,
     Lowering::Call, checkRawLdsLoad, 6},
    {amdgcn_global_load_lds, "", "global_load_lds", kBoth, Lowering::Call,
     checkLdsLoadSize, 4},
    {amdgcn_load_to_lds, "p1", "global_load_lds", kBoth, Lowering::Call,
     checkLdsLoadSize, 4},
};

#undef CALL
#undef MFMA
#undef OVERLOAD
#undef HINT

/// The part of `call`'s intrinsic name after its base name ("f32").
static StringRef overloadSuffix(const CallInst &call, Intrinsic::ID id) {
  StringRef name = call.getCalledFunction()->getName();
  StringRef base = Intrinsic::getBaseName(id);
  return name.drop_front(base.size()).ltrim('.');
}

/// The value as 32-bit words, low word first; pointers to LDS as their
/// offsets, global pointers as their 64-bit addresses.
static Expected<SmallVector<Value *>> toWords(IRBuilder<> &builder,
                                              Instruction &at, Value *value,
                                              RuntimeCalls &calls) {
  Type *type = value->getType();
  const DataLayout &layout = at.getModule()->getDataLayout();
  if (auto *pointer = dyn_cast<PointerType>(type)) {
    unsigned space = pointer->getAddressSpace();
    if (space == 3)
      return SmallVector<Value *>{calls.call(&at, "lds_offset", {value},
                                             builder.getInt32Ty(), kNoSite)};
    if (space != 0 && space != 1 && space != 4)
      return errorAt(at, "moving a pointer to address space " + Twine(space) +
                             " between lanes is not emulated");
    value = builder.CreatePtrToInt(value, builder.getInt64Ty());
  } else if (!type->isIntOrIntVectorTy() && !type->isFPOrFPVectorTy()) {
    return errorAt(at, "moving values of this type between lanes is not "
                       "emulated");
  }
  unsigned bits = layout.getTypeSizeInBits(value->getType());
  unsigned words = (bits + 31) / 32;
  Value *wide = builder.CreateBitCast(value, builder.getIntNTy(bits));
  wide = builder.CreateZExt(wide, builder.getIntNTy(32 * words));
  SmallVector<Value *> result;
  for (unsigned w = 0; w < words; ++w)
    result.push_back(builder.CreateTrunc(builder.CreateLShr(wide, 32 * w),
                                         builder.getInt32Ty()));
  return result;
}

/// The inverse of toWords for a value of `type`.
static Value *fromWords(IRBuilder<> &builder, Instruction &at,
                        ArrayRef<Value *> words, Type *type,
                        RuntimeCalls &calls) {
  const DataLayout &layout = at.getModule()->getDataLayout();
  if (type->isPointerTy() && type->getPointerAddressSpace() == 3)
    return calls.call(&at, "lds_pointer", {words[0]}, type, kNoSite);
  Type *carrier = type->isPointerTy() ? builder.getInt64Ty() : type;
  unsigned bits = layout.getTypeSizeInBits(carrier);
  Type *wideType = builder.getIntNTy(32 * words.size());
  Value *wide = ConstantInt::get(wideType, 0);
  for (auto [w, word] : llvm::enumerate(words))
    wide = builder.CreateOr(
        wide, builder.CreateShl(builder.CreateZExt(word, wideType), 32 * w));
  Value *value = builder.CreateBitCast(
      builder.CreateTrunc(wide, builder.getIntNTy(bits)), carrier);
  return type->isPointerTy() ? builder.CreateIntToPtr(value, type) : value;
}

static Error lowerWords(CallInst &call, const Entry &entry, uint32_t site,
                        RuntimeCalls &calls) {
  IRBuilder<> builder(&call);
  Type *type = call.getType();
  SmallVector<SmallVector<Value *>> split(call.arg_size());
  unsigned words = 0;
  for (unsigned i = 0; i < call.arg_size(); ++i) {
    if (call.getArgOperand(i)->getType() != type)
      continue;
    auto parts = toWords(builder, call, call.getArgOperand(i), calls);
    if (!parts)
      return parts.takeError();
    split[i] = std::move(*parts);
    words = split[i].size();
  }
  SmallVector<Value *> results;
  for (unsigned w = 0; w < words; ++w) {
    SmallVector<Value *> args;
    for (unsigned i = 0; i < call.arg_size(); ++i)
      args.push_back(split[i].empty() ? call.getArgOperand(i) : split[i][w]);
    results.push_back(
        calls.call(&call, entry.runtime, args, builder.getInt32Ty(), site));
  }
  call.replaceAllUsesWith(fromWords(builder, call, results, type, calls));
  return Error::success();
}

static Error lowerCompare(CallInst &call, const Entry &entry, uint32_t site,
                          RuntimeCalls &calls) {
  IRBuilder<> builder(&call);
  auto predicate = static_cast<CmpInst::Predicate>(immediate(call, 2));
  bool integer = call.getIntrinsicID() == amdgcn_icmp;
  if (integer ? !CmpInst::isIntPredicate(predicate)
              : !CmpInst::isFPPredicate(predicate))
    return errorAt(call, "invalid comparison predicate " + Twine(predicate));
  Value *compare = builder.CreateCmp(predicate, call.getArgOperand(0),
                                     call.getArgOperand(1));
  call.replaceAllUsesWith(
      calls.call(&call, entry.runtime, {compare}, call.getType(), site));
  return Error::success();
}

/// The temporary slot of buffer accesses' data, apart from those of
/// RuntimeCalls::call.
constexpr unsigned kBufferSlot = ~0u;

/// Buffer accesses move the bytes of any type through a temporary.
static Error lowerBufferAccess(CallInst &call, const Entry &entry,
                               uint32_t site, RuntimeCalls &calls) {
  bool load = entry.lowering == Lowering::BufferLoad;
  Type *type = load ? call.getType() : call.getArgOperand(0)->getType();
  unsigned first = load ? 0 : 1;
  const DataLayout &layout = call.getModule()->getDataLayout();
  IRBuilder<> builder(&call);
  AllocaInst *temporary =
      calls.temporary(*call.getFunction(), type, kBufferSlot);
  if (!load)
    builder.CreateStore(call.getArgOperand(0), temporary);
  Value *bytes = builder.getInt32(layout.getTypeStoreSize(type));
  calls.call(&call, entry.runtime,
             {temporary, call.getArgOperand(first),
              call.getArgOperand(first + 1), call.getArgOperand(first + 2),
              bytes},
             nullptr, site);
  if (load)
    call.replaceAllUsesWith(builder.CreateLoad(type, temporary));
  return Error::success();
}

/// Replaces the uses of `call` by its emulation; the caller erases it.
static Error lowerCall(CallInst &call, const Entry &entry, uint32_t site,
                       RuntimeCalls &calls) {
  switch (entry.lowering) {
  case Lowering::Words:
    return lowerWords(call, entry, site, calls);
  case Lowering::Compare:
    return lowerCompare(call, entry, site, calls);
  case Lowering::BufferLoad:
  case Lowering::BufferStore:
    return lowerBufferAccess(call, entry, site, calls);
  case Lowering::LdsExchange: {
    IRBuilder<> builder(&call);
    uint32_t flags = call.getAAMetadata() ? MLA_EMU_ACCESS_ALIAS_METADATA : 0;
    Value *result = calls.call(&call, entry.runtime,
                               {call.getArgOperand(0), builder.getInt32(flags)},
                               call.getType(), site);
    result->takeName(&call);
    call.replaceAllUsesWith(result);
    return Error::success();
  }
  default:
    break;
  }
  SmallVector<Value *> args(call.args());
  if (entry.operandCount >= 0)
    args.resize(entry.operandCount);
  if (Value *result =
          calls.call(&call, entry.runtime, args, call.getType(), site)) {
    // Reports quote instructions: keep the names the input gave values.
    result->takeName(&call);
    call.replaceAllUsesWith(result);
  }
  return Error::success();
}

static bool available(const Entry &entry, Chip chip) {
  return entry.chips & (chip == Chip::Gfx942 ? kGfx942 : kGfx950);
}

Error mla::emu::lowerAmdgcnIntrinsic(CallInst &call, Chip chip,
                                     RuntimeCalls &calls) {
  Intrinsic::ID id = call.getIntrinsicID();
  StringRef name = call.getCalledFunction()->getName();
  StringRef suffix = overloadSuffix(call, id);
  const Entry *entry = nullptr;
  bool known = false;
  for (const Entry &candidate : kEntries) {
    if (candidate.id != id)
      continue;
    known = true;
    StringRef overload = candidate.overload;
    if (overload.empty() || suffix == overload ||
        suffix.starts_with((overload + ".").str())) {
      entry = &candidate;
      break;
    }
  }
  if (!entry)
    return errorAt(call, name + (known ? " is not emulated for this overload"
                                       : " is not emulated"));
  if (!available(*entry, chip))
    return errorAt(call, name + " does not exist on " + chipName(chip));
  if (entry->check) {
    std::string complaint = entry->check(call, chip);
    if (!complaint.empty())
      return errorAt(call, name + ": " + complaint);
  }

  if (entry->lowering == Lowering::Erase) {
    call.eraseFromParent();
    return Error::success();
  }
  if (entry->lowering == Lowering::WaveSize) {
    call.replaceAllUsesWith(ConstantInt::get(call.getType(), 64));
    call.eraseFromParent();
    return Error::success();
  }
  uint32_t site = calls.siteTable().add(call);
  if (Error error = lowerCall(call, *entry, site, calls))
    return error;
  call.eraseFromParent();
  return Error::success();
}

std::vector<std::string> mla::emu::listEmulatedIntrinsics() {
  std::vector<std::string> names;
  for (const Entry &entry : kEntries) {
    std::string name = Intrinsic::getBaseName(entry.id).str();
    if (*entry.overload)
      name += "." + std::string(entry.overload);
    const char *chips = entry.chips == kBoth     ? "gfx942, gfx950"
                        : entry.chips == kGfx950 ? "gfx950"
                                                 : "gfx942";
    names.push_back(name + " (" + chips + ")");
  }
  return names;
}
