//===- TileProgramOps.cpp - Kernels, parameters and helpers ---------------===//
//
// The ops that structure a program: kernels with their compile-time
// parameters, parameter values and static branches, and helper functions
// with their calls.
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mla::tile;

/// A parameter value as diagnostics write it.
static std::string formatParamValue(Attribute value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printParamValue(os, value);
  return text;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

/// SSA names that a launcher can use as argument names (`%q`, `%kv_scale`);
/// numbered values (`%0`) get a positional name instead.
static bool isIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name.front()) || name.front() == '_');
}

/// `<NAME: KIND [= DEFAULT], ...>` after the kernel's name, if present.
static ParseResult parseKernelParams(OpAsmParser &parser,
                                     OperationState &result) {
  if (failed(parser.parseOptionalLess()))
    return success();
  MLIRContext *ctx = parser.getContext();
  SmallVector<Attribute> params;
  auto parseParam = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    std::string name;
    StringRef kindName;
    Attribute defaultValue;
    if (parser.parseKeywordOrString(&name) || parser.parseColon() ||
        parser.parseKeyword(&kindName))
      return failure();
    std::optional<ParamKind> kind = symbolizeParamKind(kindName);
    if (!kind)
      return parser.emitError(loc) << "parameter '" << name << "' has kind '"
                                   << kindName << "'; expected i64 or str";
    if (succeeded(parser.parseOptionalEqual()) &&
        parser.parseAttribute(defaultValue))
      return failure();
    auto decl = ParamDeclAttr::getChecked([&] { return parser.emitError(loc); },
                                          ctx, StringAttr::get(ctx, name),
                                          *kind, defaultValue);
    if (!decl)
      return failure();
    params.push_back(decl);
    return success();
  };
  if (parser.parseCommaSeparatedList(parseParam) || parser.parseGreater())
    return failure();
  result.addAttribute(KernelOp::getParamsAttrName(result.name),
                      ArrayAttr::get(ctx, params));
  return success();
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  StringAttr nameAttr;
  if (parser.parseSymbolName(nameAttr, getSymNameAttrName(result.name),
                             result.attributes) ||
      parseKernelParams(parser, result))
    return failure();

  SMLoc signatureLoc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (!resultTypes.empty())
    return parser.emitError(signatureLoc)
           << "a tile kernel returns nothing; write results through "
              "!tile.ptr arguments";

  SmallVector<Type> argTypes;
  SmallVector<Attribute> argNames;
  for (auto [i, arg] : llvm::enumerate(args)) {
    argTypes.push_back(arg.type);
    StringRef name = arg.ssaName.name.drop_front(); // drop the '%'
    argNames.push_back(StringAttr::get(
        ctx, isIdentifier(name) ? name : ("arg" + Twine(i)).str()));
  }
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(FunctionType::get(ctx, argTypes, {})));
  result.addAttribute(getArgNamesAttrName(result.name),
                      ArrayAttr::get(ctx, argNames));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Builder builder(ctx);
  call_interface_impl::addArgAndResultAttrs(builder, result, args, resultAttrs,
                                            getArgAttrsAttrName(result.name),
                                            getResAttrsAttrName(result.name));
  return parser.parseRegion(*result.addRegion(), args);
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  if (ArrayAttr params = getParamsAttr()) {
    p << '<';
    llvm::interleaveComma(params, p, [&](Attribute attr) {
      auto decl = cast<ParamDeclAttr>(attr);
      p.printKeywordOrString(decl.getName().getValue());
      p << ": " << stringifyParamKind(decl.getKind());
      if (Attribute defaultValue = decl.getDefaultValue()) {
        p << " = ";
        printParamValue(p.getStream(), defaultValue);
      }
    });
    p << '>';
  }
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, /*resultTypes=*/{});
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymNameAttrName(), getFunctionTypeAttrName(), getArgNamesAttrName(),
       getArgAttrsAttrName(), getResAttrsAttrName(), getParamsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  if (&region != &getBody() || region.empty())
    return;
  for (BlockArgument arg : region.getArguments())
    setNameFn(arg, getArgName(arg.getArgNumber()));
}

StringRef KernelOp::getArgName(unsigned i) {
  if (ArrayAttr names = getArgNamesAttr())
    if (i < names.size())
      return cast<StringAttr>(names[i]).getValue();
  return "";
}

ParamDeclAttr KernelOp::lookupParam(StringRef name) {
  if (ArrayAttr params = getParamsAttr())
    for (Attribute attr : params)
      if (cast<ParamDeclAttr>(attr).getName().getValue() == name)
        return cast<ParamDeclAttr>(attr);
  return {};
}

/// Pointers and the scalars every target passes by value.
static bool isKernelArgType(Type type) {
  return isa<PtrType>(type) || type.isInteger(32) || type.isInteger(64) ||
         type.isF32();
}

LogicalResult KernelOp::verify() {
  FunctionType type = getFunctionType();
  if (!type.getResults().empty())
    return emitOpError("returns nothing; write results through !tile.ptr "
                       "arguments");
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    if (isKernelArgType(argType))
      continue;
    auto choice = dyn_cast<SwitchType>(argType);
    if (choice && llvm::all_of(choice.getTypes(), isKernelArgType))
      continue;
    return emitOpError() << "argument #" << i << " has type " << argType
                         << "; kernel arguments are !tile.ptr<T>, i32, i64 "
                            "or f32";
  }
  if (ArrayAttr names = getArgNamesAttr()) {
    if (names.size() != type.getNumInputs())
      return emitOpError() << "has " << names.size() << " argument names for "
                           << type.getNumInputs() << " arguments";
    llvm::SmallSet<StringRef, 16> seen;
    for (Attribute name : names)
      if (!seen.insert(cast<StringAttr>(name).getValue()).second)
        return emitOpError()
               << "argument name '" << cast<StringAttr>(name).getValue()
               << "' is used twice; launchers bind by name";
  }
  if (ArrayAttr params = getParamsAttr()) {
    llvm::SmallSet<StringRef, 8> seen;
    for (Attribute attr : params) {
      StringRef name = cast<ParamDeclAttr>(attr).getName().getValue();
      if (!seen.insert(name).second)
        return emitOpError() << "declares parameter '" << name << "' twice";
    }
  }
  return success();
}

/// Checks one reference to parameter `name` made by `op` inside `kernel`.
static LogicalResult checkParamUse(Operation *op, KernelOp kernel,
                                   StringAttr name, ParamUse use) {
  ParamDeclAttr decl = kernel.lookupParam(name.getValue());
  if (!decl)
    return op->emitOpError()
           << "uses parameter '" << name.getValue() << "', which kernel @"
           << kernel.getSymName() << " does not declare";
  ParamKind kind = decl.getKind();
  if (use == ParamUse::Dim && kind != ParamKind::i64)
    return op->emitOpError()
           << "names a dimension by parameter '" << name.getValue()
           << "', which is a str parameter; sizes are i64 parameters";
  if (use == ParamUse::StringSwitch && kind != ParamKind::str)
    return op->emitOpError()
           << "has a !tile.switch with string cases on parameter '"
           << name.getValue() << "', which is an i64 parameter";
  if (use == ParamUse::IntegerSwitch && kind != ParamKind::i64)
    return op->emitOpError()
           << "has a !tile.switch with integer cases on parameter '"
           << name.getValue() << "', which is a str parameter";
  return success();
}

/// Checks the parameter references of the types and attributes `op` holds.
static LogicalResult checkParamUses(Operation *op, KernelOp kernel,
                                    ArrayRef<Type> types,
                                    DictionaryAttr attrs) {
  LogicalResult result = success();
  auto check = [&](StringAttr name, ParamUse use) {
    if (succeeded(result))
      result = checkParamUse(op, kernel, name, use);
  };
  for (Type type : types)
    walkParamUses(type, check);
  walkParamUses(attrs, check);
  return result;
}

/// A loop whose step is a constant <= 0 never reaches its upper bound, and
/// the canonicalizer would silently delete it as a loop of no iterations.
/// Like scf.parallel's own verifier, this looks through the step to its
/// constant; a step known only at run time cannot be checked (docs/DSL.md).
static LogicalResult verifyLoopSteps(Region &body) {
  bool valid = true;
  body.walk([&](LoopLikeOpInterface loop) {
    std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
    if (!steps)
      return;
    for (OpFoldResult step : *steps) {
      std::optional<std::pair<APInt, bool>> value = getConstantAPIntValue(step);
      if (!value || value->first.sgt(0))
        continue;
      loop->emitOpError() << "has constant step "
                          << llvm::toString(value->first, 10, /*Signed=*/true)
                          << "; loops in a tile kernel need a positive step";
      valid = false;
    }
  });
  return success(valid);
}

LogicalResult KernelOp::verifyRegions() {
  if (failed(verifyLoopSteps(getBody())))
    return failure();
  // Parameters are checked here, where the kernel declares them; helpers
  // are checked in each caller's instance once inlined.
  if (failed(checkParamUses(*this, *this, getArgumentTypes(),
                            (*this)->getDiscardableAttrDictionary())))
    return failure();
  WalkResult walk = getBody().walk([&](Operation *op) {
    SmallVector<Type> types(op->getResultTypes());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    return failed(checkParamUses(op, *this, types, op->getAttrDictionary()))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  if (auto func = dyn_cast<FuncOp>((*this)->getParentOp())) {
    if (getOperandTypes() != func.getResultTypes())
      return emitOpError() << "returns (" << getOperandTypes() << ") but @"
                           << func.getSymName() << " returns ("
                           << func.getResultTypes() << ")";
    return success();
  }
  if (!getOperands().empty())
    return emitOpError("in a tile.kernel returns nothing");
  return success();
}

//===----------------------------------------------------------------------===//
// ParamOp, StaticSwitchOp
//===----------------------------------------------------------------------===//

/// The declaration of parameter `name` for an op in a kernel. Inside a
/// helper, parameters are checked in each caller once inlined: `decl` stays
/// null and the check succeeds.
static LogicalResult lookupParamFor(Operation *op, StringRef name,
                                    ParamDeclAttr &decl) {
  if (auto kernel = op->getParentOfType<KernelOp>()) {
    decl = kernel.lookupParam(name);
    if (!decl)
      return op->emitOpError()
             << "uses parameter '" << name << "', which kernel @"
             << kernel.getSymName() << " does not declare";
    return success();
  }
  if (op->getParentOfType<FuncOp>())
    return success();
  return op->emitOpError() << "uses parameter '" << name
                           << "' outside a tile.kernel or tile.func";
}

LogicalResult ParamOp::verify() {
  ParamDeclAttr decl;
  if (failed(lookupParamFor(*this, getName(), decl)))
    return failure();
  if (decl && decl.getKind() != ParamKind::i64)
    return emitOpError() << "parameter '" << getName()
                         << "' is a str parameter and has no value; branch "
                            "on it with tile.static_switch";
  return success();
}

LogicalResult ResolveOp::verify() {
  llvm::SetVector<StringAttr> params;
  llvm::SetVector<Attribute> keys;
  AttrTypeWalker walker;
  walker.addWalk([&](SwitchType choice) {
    params.insert(choice.getParam());
    keys.insert(choice.getKeys().begin(), choice.getKeys().end());
  });
  walker.walk(getInput().getType());
  if (params.size() != 1)
    return emitOpError() << "resolves the !tile.switch types of one parameter; "
                         << getInput().getType() << " has "
                         << (params.empty() ? "none" : "several");
  for (Attribute key : keys)
    if (resolveSwitches(getInput().getType(), params.front(), key) == getType())
      return success();
  return emitOpError() << getInput().getType() << " is " << getType()
                       << " for no value of parameter '"
                       << params.front().getValue() << "'";
}

/// `"P" [attributes {...}] [-> (types)] { (case V {..} | default {..})* }`.
ParseResult StaticSwitchOp::parse(OpAsmParser &parser, OperationState &result) {
  std::string param;
  if (parser.parseString(&param) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseOptionalArrowTypeList(result.types) || parser.parseLBrace())
    return failure();
  Builder &builder = parser.getBuilder();
  SmallVector<Attribute> cases;
  SmallVector<std::unique_ptr<Region>> caseRegions;
  std::unique_ptr<Region> defaultRegion = std::make_unique<Region>();
  auto parseBody = [&](Region &region) -> ParseResult {
    if (parser.parseRegion(region, /*arguments=*/{}))
      return failure();
    ensureTerminator(region, builder, result.location);
    return success();
  };
  while (failed(parser.parseOptionalRBrace())) {
    SMLoc loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword("default"))) {
      if (!defaultRegion->empty())
        return parser.emitError(loc) << "tile.static_switch has one default";
      if (parseBody(*defaultRegion))
        return failure();
      continue;
    }
    if (parser.parseKeyword("case", " or 'default' or '}'"))
      return failure();
    if (parseParamValue(parser, cases.emplace_back(), /*keywords=*/false))
      return failure();
    caseRegions.push_back(std::make_unique<Region>());
    if (parseBody(*caseRegions.back()))
      return failure();
  }
  result.addAttribute(getParamAttrName(result.name),
                      builder.getStringAttr(param));
  result.addAttribute(getCasesAttrName(result.name),
                      builder.getArrayAttr(cases));
  result.addRegion(std::move(defaultRegion));
  for (std::unique_ptr<Region> &region : caseRegions)
    result.addRegion(std::move(region));
  return success();
}

void StaticSwitchOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printString(getParam());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getParamAttrName(), getCasesAttrName()});
  p.printOptionalArrowTypeList(getResultTypes());
  p << " {";
  bool printTerminators = getNumResults() != 0;
  for (auto [value, region] : llvm::zip_equal(getCases(), getCaseRegions())) {
    p.printNewline();
    p << "case ";
    printParamValue(p.getStream(), value);
    p << ' ';
    p.printRegion(region, /*printEntryBlockArgs=*/false, printTerminators);
  }
  if (!getDefaultRegion().empty()) {
    p.printNewline();
    p << "default ";
    p.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false,
                  printTerminators);
  }
  p.printNewline();
  p << '}';
}

LogicalResult StaticSwitchOp::verify() {
  ParamDeclAttr decl;
  if (failed(lookupParamFor(*this, getParam(), decl)))
    return failure();
  if (getCases().empty() && getDefaultRegion().empty())
    return emitOpError("needs at least one case");
  for (auto [i, value] : llvm::enumerate(getCases())) {
    bool isString = isa<StringAttr>(value);
    if (!isString && !isa<IntegerAttr>(value))
      return emitOpError() << "case " << value
                           << " is neither a string nor an integer";
    if (decl && isString != (decl.getKind() == ParamKind::str))
      return emitOpError() << "case " << formatParamValue(value)
                           << " does not fit parameter '" << getParam()
                           << "', which is " << (isString ? "an i64" : "a str")
                           << " parameter";
    if (llvm::is_contained(getCases().getValue().take_front(i), value))
      return emitOpError() << "case " << formatParamValue(value)
                           << " appears twice";
  }
  auto checkYield = [&](Region &region, Attribute value) -> LogicalResult {
    if (region.empty())
      return success();
    auto yield = cast<YieldOp>(region.front().getTerminator());
    TypeRange types = yield.getValues().getTypes();
    if (types.size() == getNumResults() &&
        llvm::all_of(llvm::zip_equal(types, getResultTypes()), [&](auto pair) {
          auto [yielded, result] = pair;
          // In a case, the switch types on this parameter are known.
          return yielded == result ||
                 (value && resolveSwitches(yielded, getParamAttr(), value) ==
                               resolveSwitches(result, getParamAttr(), value));
        }))
      return success();
    return yield.emitOpError() << "yields (" << types
                               << ") but the tile.static_switch has results ("
                               << getResultTypes() << ")";
  };
  for (auto [value, region] : llvm::zip_equal(getCases(), getCaseRegions()))
    if (failed(checkYield(region, value)))
      return failure();
  return checkYield(getDefaultRegion(), Attribute());
}

Region *StaticSwitchOp::getRegionFor(Attribute value) {
  for (auto [key, region] : llvm::zip_equal(getCases(), getCaseRegions()))
    if (key == value)
      return &region;
  return getDefaultRegion().empty() ? nullptr : &getDefaultRegion();
}

//===----------------------------------------------------------------------===//
// FuncOp, CallOp
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "calls @" << getCallee()
                         << ", which is not a tile.func";
  FunctionType type = callee.getFunctionType();
  if (getOperandTypes() != type.getInputs() ||
      getResultTypes() != type.getResults())
    return emitOpError() << "has type "
                         << FunctionType::get(getContext(), getOperandTypes(),
                                              getResultTypes())
                         << " but @" << getCallee() << " has type " << type;
  return success();
}
