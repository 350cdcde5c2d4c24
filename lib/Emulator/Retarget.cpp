//===- Retarget.cpp - AMDGPU LLVM IR to host LLVM IR ----------------------===//

#include "mla/Emulator/Retarget.h"
#include "LlvmSetup.h"
#include "RuntimeCalls.h"
#include "Steps.h"
#include "mla/Support/Chips.h"

#include "mla/Emulator/EmuABI.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace mla::emu;

std::optional<Chip> mla::emu::lookupChip(StringRef name) {
  return StringSwitch<std::optional<Chip>>(name)
      .Case("gfx942", Chip::Gfx942)
      .Case("gfx950", Chip::Gfx950)
      .Default(std::nullopt);
}

StringRef mla::emu::chipName(Chip chip) {
  return chip == Chip::Gfx942 ? "gfx942" : "gfx950";
}

uint32_t mla::emu::ldsLimit(Chip chip) {
  return mla::lookupChip(chipName(chip).str())->ldsBytes;
}

Expected<std::unique_ptr<TargetMachine>>
mla::emu::createTargetMachine(StringRef triple, StringRef cpu,
                              std::optional<Reloc::Model> relocation) {
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  Triple parsed(triple);
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(parsed, error);
  if (!target)
    return createStringError(error);
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      parsed, cpu, "", TargetOptions(), relocation));
  if (!machine)
    return createStringError("LLVM cannot create a target machine for " + cpu);
  return std::move(machine);
}

static bool hasBufferFatPointers(Module &module) {
  auto isFat = [](Type *type) {
    return type->isPtrOrPtrVectorTy() &&
           type->getScalarType()->getPointerAddressSpace() == 7;
  };
  for (Function &function : module) {
    for (Argument &arg : function.args())
      if (isFat(arg.getType()))
        return true;
    for (Instruction &inst : instructions(function)) {
      if (isFat(inst.getType()))
        return true;
      for (Value *operand : inst.operands())
        if (isFat(operand->getType()))
          return true;
    }
  }
  return false;
}

Error mla::emu::runPassPipeline(Module &module, TargetMachine &machine,
                                StringRef pipeline) {
  PassBuilder builder(&machine);
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager sccs;
  ModuleAnalysisManager modules;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  ModulePassManager passes;
  if (Error error = builder.parsePassPipeline(passes, pipeline))
    return error;
  passes.run(module, modules);
  return Error::success();
}

/// Checks a kernel's arguments against docs/ABI.md (global pointers and
/// i32, i64, f32 scalars) and reads what its descriptor needs.
static Expected<KernelInfo> describeKernel(Function &function) {
  StringRef name = function.getName();
  if (name.starts_with("__mla_emu_") || name.starts_with("mla_emu_") ||
      name.starts_with("mla.emu."))
    return createStringError("kernel @" + name +
                             " uses a name the emulation runtime reserves");
  KernelInfo kernel{&function};
  for (Argument &arg : function.args()) {
    Type *type = arg.getType();
    bool pointer =
        type->isPointerTy() && (type->getPointerAddressSpace() == 0 ||
                                type->getPointerAddressSpace() == 1 ||
                                type->getPointerAddressSpace() == 4);
    bool scalar =
        type->isIntegerTy(32) || type->isIntegerTy(64) || type->isFloatTy();
    if ((!pointer && !scalar) || arg.hasByRefAttr() || arg.hasByValAttr()) {
      std::string text;
      raw_string_ostream os(text);
      type->print(os);
      return createStringError("kernel @" + name + " argument " +
                               Twine(arg.getArgNo()) + " has type " + text +
                               ", which has no kind in docs/ABI.md (global "
                               "pointers, i32, i64 and f32)");
    }
  }
  if (MDNode *size = function.getMetadata("reqd_work_group_size")) {
    if (size->getNumOperands() != 3)
      return createStringError("kernel @" + name +
                               ": reqd_work_group_size needs 3 values");
    for (unsigned d = 0; d < 3; ++d) {
      auto *value = mdconst::dyn_extract<ConstantInt>(size->getOperand(d));
      if (!value)
        return createStringError("kernel @" + name +
                                 ": reqd_work_group_size needs integers");
      kernel.requiredWorkgroupSize[d] =
          static_cast<uint32_t>(value->getZExtValue());
    }
  }
  DenormalMode mode = function.getDenormalMode(APFloat::IEEEsingle());
  if (mode.Output == DenormalMode::PreserveSign ||
      mode.Output == DenormalMode::PositiveZero)
    kernel.flags |= MLA_EMU_FLUSH_F32_DENORMALS;
  return kernel;
}

/// Private memory each lane may use: half of its stack, leaving the rest to
/// spills, calls and the runtime.
constexpr uint64_t kMaxPrivateBytes = 32 * 1024;

/// Fails when a function's allocas may not fit a lane's stack.
static Error checkPrivateMemory(Module &module, const DataLayout &hostLayout) {
  for (Function &function : module) {
    uint64_t bytes = 0;
    for (Instruction &inst : instructions(function)) {
      auto *alloca = dyn_cast<AllocaInst>(&inst);
      if (!alloca)
        continue;
      std::optional<TypeSize> size = alloca->getAllocationSize(hostLayout);
      if (!size || size->isScalable())
        return errorAt(inst, "allocas of a size known only at run time are "
                             "not emulated");
      bytes += size->getFixedValue();
    }
    if (bytes > kMaxPrivateBytes)
      return createStringError("function @" + function.getName() + " uses " +
                               Twine(bytes) +
                               " bytes of private memory per lane; the "
                               "emulator gives a lane " +
                               Twine(kMaxPrivateBytes));
  }
  return Error::success();
}

Expected<std::unique_ptr<Module>>
mla::emu::retargetModule(Module &module, Chip chip, StringRef hostTriple,
                         const DataLayout &hostLayout,
                         std::vector<KernelSummary> &summaries) {
  if (module.getTargetTriple().getArch() != Triple::amdgcn)
    return createStringError("the module's triple '" +
                             module.getTargetTriple().str() +
                             "' is not amdgcn-amd-amdhsa");
  auto machine =
      createTargetMachine("amdgcn-amd-amdhsa", chipName(chip), std::nullopt);
  if (!machine)
    return machine.takeError();
  if (module.getDataLayoutStr().empty())
    module.setDataLayout((*machine)->createDataLayout());
  for (Function &function : module) {
    Attribute cpu = function.getFnAttribute("target-cpu");
    if (cpu.isValid() && cpu.getValueAsString() != chipName(chip))
      return createStringError("function @" + function.getName() +
                               " is compiled for " + cpu.getValueAsString() +
                               ", not " + chipName(chip));
  }
  if (hasBufferFatPointers(module))
    // The AMDGPU backend's own lowering of addrspace(7) buffer fat
    // pointers into resources plus offsets, as its codegen pipeline runs it.
    if (Error error = runPassPipeline(module, **machine,
                                      "amdgpu-lower-buffer-fat-pointers"))
      return std::move(error);

  std::vector<KernelInfo> kernels;
  for (Function &function : module) {
    if (function.getCallingConv() != CallingConv::AMDGPU_KERNEL ||
        function.isDeclaration())
      continue;
    auto kernel = describeKernel(function);
    if (!kernel)
      return kernel.takeError();
    kernels.push_back(*kernel);
  }

  SiteTable sites;
  sites.describeModule(module);
  RuntimeCalls calls(module, sites);
  if (Error error = lowerLdsVariables(module, chip, kernels, calls))
    return std::move(error);
  SmallVector<Function *> functions;
  for (Function &function : module)
    if (!function.isDeclaration())
      functions.push_back(&function);
  for (Function *function : functions)
    if (Error error = rewriteFunction(*function, chip, hostLayout, calls))
      return std::move(error);
  if (Error error = checkPrivateMemory(module, hostLayout))
    return std::move(error);
  // Site descriptions hold the debug locations already.
  StripDebugInfo(module);

  auto host =
      buildHostModule(module, chip, kernels, sites, hostTriple, hostLayout);
  if (!host)
    return host.takeError();
  summaries.clear();
  for (const KernelInfo &kernel : kernels) {
    KernelSummary summary;
    summary.name = kernel.function->getName().str();
    summary.staticLdsBytes = kernel.staticLdsBytes;
    if (kernel.requiredWorkgroupSize[0])
      summary.requiredWorkgroupSize = kernel.requiredWorkgroupSize;
    summaries.push_back(std::move(summary));
  }
  return host;
}
