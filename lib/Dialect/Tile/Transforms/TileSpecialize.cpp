//===- TileSpecialize.cpp - The tile-specialize pass ----------------------===//
//
// Turns each parameterized kernel into one ordinary kernel per instance and
// inlines the helper functions, so that every later pass sees static tiles.
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringSet.h"

namespace mla::tile {
#define GEN_PASS_DEF_TILESPECIALIZE
#include "mla/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mla::tile

using namespace mlir;
using namespace mla::tile;

namespace {
/// The parameter values of one instance, in declaration order.
using Instance = SmallVector<std::pair<ParamDeclAttr, Attribute>>;
} // namespace

/// The value `instance` gives parameter `name`, or null.
static Attribute lookupValue(const Instance &instance, StringRef name) {
  for (const auto &[decl, value] : instance)
    if (decl.getName().getValue() == name)
      return value;
  return {};
}

/// `@name (P = v, Q = "w")`, how diagnostics name an instance.
static std::string describe(StringRef name, const Instance &instance) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '@' << name << " (";
  llvm::interleaveComma(instance, os, [&](const auto &entry) {
    os << entry.first.getName().getValue() << " = ";
    printParamValue(os, entry.second);
  });
  os << ')';
  return text;
}

/// The kernel's name, then `_<value>` (str) or `_<name><value>` (i64) for
/// each parameter whose value is not its default.
static std::string getInstanceName(StringRef kernel, const Instance &instance) {
  std::string name = kernel.str();
  for (const auto &[decl, value] : instance) {
    if (decl.getDefaultValue() == value)
      continue;
    name += '_';
    if (auto str = dyn_cast<StringAttr>(value)) {
      name += str.getValue();
      continue;
    }
    name += decl.getName().getValue().lower();
    int64_t integer = cast<IntegerAttr>(value).getInt();
    // Symbols stay C identifiers: a minus sign is written 'm'.
    if (integer < 0)
      name += 'm';
    name += std::to_string(integer < 0 ? -static_cast<uint64_t>(integer)
                                       : static_cast<uint64_t>(integer));
  }
  return name;
}

/// Runs `fn` and emits the diagnostics it produces with `prefix` in front of
/// each message, so that an error deep inside a kernel names the instance.
static LogicalResult withPrefix(MLIRContext *context, StringRef prefix,
                                function_ref<LogicalResult()> fn) {
  std::vector<Diagnostic> captured;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      captured.push_back(std::move(diag));
      return success();
    });
    result = fn();
  }
  for (Diagnostic &diag : captured) {
    InFlightDiagnostic out =
        context->getDiagEngine().emit(diag.getLocation(), diag.getSeverity());
    out << prefix << diag.str();
    for (Diagnostic &note : diag.getNotes())
      out.attachNote(note.getLocation()) << note.str();
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Helpers: recursion and inlining
//===----------------------------------------------------------------------===//

/// Helpers are inlined, so none may reach itself through calls.
static LogicalResult checkNoRecursion(ModuleOp module) {
  SymbolTable symbols(module);
  enum class State { Unvisited, OnPath, Done };
  DenseMap<Operation *, State> state;
  for (FuncOp root : module.getOps<FuncOp>()) {
    if (state[root] != State::Unvisited)
      continue;
    // Depth-first over calls with an explicit stack of (helper, its calls).
    SmallVector<std::pair<FuncOp, SmallVector<CallOp>>> stack;
    auto push = [&](FuncOp func) {
      state[func] = State::OnPath;
      SmallVector<CallOp> calls;
      func.walk([&](CallOp call) { calls.push_back(call); });
      stack.emplace_back(func, std::move(calls));
    };
    push(root);
    while (!stack.empty()) {
      auto &[func, calls] = stack.back();
      if (calls.empty()) {
        state[func] = State::Done;
        stack.pop_back();
        continue;
      }
      CallOp call = calls.pop_back_val();
      auto callee = symbols.lookup<FuncOp>(call.getCallee());
      if (!callee)
        continue;
      if (state[callee] == State::OnPath)
        return call.emitOpError()
               << "makes @" << callee.getSymName()
               << " recursive; helpers are inlined and may not call "
                  "themselves";
      if (state[callee] == State::Unvisited)
        push(callee);
    }
  }
  return success();
}

/// Inlines every tile.call in `kernel`, also those that inlining brings in.
static LogicalResult inlineCalls(KernelOp kernel, SymbolTable &symbols) {
  InlinerInterface inliner(kernel.getContext());
  InlinerConfig config;
  while (true) {
    SmallVector<CallOp> calls;
    kernel.walk([&](CallOp call) { calls.push_back(call); });
    if (calls.empty())
      return success();
    for (CallOp call : calls) {
      auto callee = symbols.lookup<FuncOp>(call.getCallee());
      if (!callee)
        return call.emitOpError()
               << "calls @" << call.getCallee() << ", which is not a tile.func";
      if (failed(inlineCall(inliner, config.getCloneCallback(), call, callee,
                            &callee.getBody())))
        return call.emitOpError() << "cannot inline @" << call.getCallee();
      call.erase();
    }
  }
}

//===----------------------------------------------------------------------===//
// Specializing one instance
//===----------------------------------------------------------------------===//

namespace {
/// Rewrites a clone of a parameterized kernel into one instance.
class InstanceBuilder {
public:
  InstanceBuilder(KernelOp kernel, const Instance &instance,
                  SymbolTable &symbols)
      : kernel(kernel), instance(instance), symbols(symbols) {}

  LogicalResult run() {
    if (failed(inlineCalls(kernel, symbols)) ||
        failed(resolveStaticSwitches()) || failed(replaceParamOps()) ||
        failed(dropAbsentArguments()) || failed(checkNoAbsentTypes()))
      return failure();
    replaceTypesAndAttributes();
    if (failed(removeResolveOps()))
      return failure();
    recordParams();
    return verify(kernel);
  }

private:
  /// Whether `type` holds a switch that has no case in this instance.
  bool isAbsent(Type type) {
    bool absent = false;
    AttrTypeWalker walker;
    walker.addWalk([&](SwitchType choice) {
      Attribute value = lookupValue(instance, choice.getParam().getValue());
      if (value && !choice.resolve(value))
        absent = true;
    });
    walker.walk(type);
    return absent;
  }

  /// The value of `param` for an op that uses it.
  FailureOr<Attribute> getValue(Operation *op, StringRef param) {
    if (Attribute value = lookupValue(instance, param))
      return value;
    return op->emitOpError() << "uses parameter '" << param
                             << "', which the kernel does not declare";
  }

  /// Keeps the matching region of each tile.static_switch, outermost first.
  LogicalResult resolveStaticSwitches() {
    while (true) {
      StaticSwitchOp op;
      kernel.walk<WalkOrder::PreOrder>([&](StaticSwitchOp found) {
        op = found;
        return WalkResult::interrupt();
      });
      if (!op)
        return success();
      FailureOr<Attribute> value = getValue(op, op.getParam());
      if (failed(value))
        return failure();
      Region *region = op.getRegionFor(*value);
      if (!region) {
        std::string text;
        llvm::raw_string_ostream os(text);
        printParamValue(os, *value);
        return op.emitOpError() << "has no case for " << op.getParam() << " = "
                                << text << " and no default";
      }
      Block &body = region->front();
      auto yield = cast<YieldOp>(body.getTerminator());
      SmallVector<Value> results(yield.getValues());
      op->getBlock()->getOperations().splice(op->getIterator(),
                                             body.getOperations(), body.begin(),
                                             yield->getIterator());
      op->replaceAllUsesWith(results);
      op.erase();
    }
  }

  /// tile.param becomes a constant of its type.
  LogicalResult replaceParamOps() {
    SmallVector<ParamOp> params;
    kernel.walk([&](ParamOp op) { params.push_back(op); });
    for (ParamOp op : params) {
      FailureOr<Attribute> value = getValue(op, op.getName());
      if (failed(value))
        return failure();
      auto integer = dyn_cast<IntegerAttr>(*value);
      if (!integer)
        return op.emitOpError() << "parameter '" << op.getName()
                                << "' is a str parameter and has no value";
      Type type = op.getType();
      int64_t v = integer.getInt();
      if (type.isInteger(32) && !llvm::isInt<32>(v))
        return op.emitOpError() << "value " << v << " of parameter '"
                                << op.getName() << "' does not fit in i32";
      OpBuilder builder(op);
      Value constant = arith::ConstantOp::create(
          builder, op.getLoc(), type, builder.getIntegerAttr(type, v));
      op.replaceAllUsesWith(constant);
      op.erase();
    }
    return success();
  }

  /// Arguments whose type has no case are not part of this instance.
  LogicalResult dropAbsentArguments() {
    Block &entry = kernel.getBody().front();
    llvm::BitVector absent(kernel.getNumArguments());
    for (BlockArgument arg : entry.getArguments()) {
      if (!isAbsent(arg.getType()))
        continue;
      if (!arg.use_empty()) {
        Operation *user = *arg.getUsers().begin();
        return user->emitOpError()
               << "uses argument '" << kernel.getArgName(arg.getArgNumber())
               << "', which this instance does not have: its type "
               << arg.getType() << " has no case for it";
      }
      absent.set(arg.getArgNumber());
    }
    if (absent.none())
      return success();
    SmallVector<Attribute> names;
    for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i)
      if (!absent.test(i))
        names.push_back(
            StringAttr::get(kernel.getContext(), kernel.getArgName(i)));
    if (failed(kernel.eraseArguments(absent)))
      return kernel.emitOpError("cannot remove the absent arguments");
    kernel.setArgNamesAttr(ArrayAttr::get(kernel.getContext(), names));
    return success();
  }

  /// A value inside the kernel cannot be absent.
  LogicalResult checkNoAbsentTypes() {
    WalkResult walk = kernel.getBody().walk([&](Operation *op) {
      SmallVector<Type> types(op->getResultTypes());
      for (Region &region : op->getRegions())
        for (Block &block : region)
          llvm::append_range(types, block.getArgumentTypes());
      for (Type type : types) {
        if (!isAbsent(type))
          continue;
        op->emitOpError() << "has a value of type " << type
                          << ", which has no case in this instance";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// Symbolic tiles become static, switches their case and #tile.param its
  /// value, everywhere in the kernel.
  void replaceTypesAndAttributes() {
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](SwitchType choice) -> std::optional<Type> {
      if (Attribute value = lookupValue(instance, choice.getParam().getValue()))
        if (Type resolved = choice.resolve(value))
          return resolved;
      return std::nullopt;
    });
    replacer.addReplacement([&](RankedTensorType type) -> std::optional<Type> {
      auto dims = dyn_cast_if_present<DimsAttr>(type.getEncoding());
      if (!dims)
        return std::nullopt;
      SmallVector<int64_t> shape(type.getShape());
      for (auto [i, size] : llvm::enumerate(shape)) {
        StringAttr param = dims.getParam(i);
        if (!param)
          continue;
        auto value = dyn_cast_if_present<IntegerAttr>(
            lookupValue(instance, param.getValue()));
        if (!value)
          return std::nullopt;
        size = value.getInt();
      }
      return RankedTensorType::get(shape, type.getElementType());
    });
    replacer.addReplacement([&](ParamAttr param) -> std::optional<Attribute> {
      if (Attribute value = lookupValue(instance, param.getName().getValue()))
        return value;
      return std::nullopt;
    });
    replacer.recursivelyReplaceElementsIn(kernel, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }

  /// With the switches resolved, tile.resolve is its input.
  LogicalResult removeResolveOps() {
    SmallVector<ResolveOp> ops;
    kernel.walk([&](ResolveOp op) { ops.push_back(op); });
    for (ResolveOp op : ops) {
      if (op.getInput().getType() != op.getType())
        return op.emitOpError()
               << "resolves a value of type " << op.getInput().getType()
               << " here, not " << op.getType();
      op.replaceAllUsesWith(op.getInput());
      op.erase();
    }
    return success();
  }

  /// The instance is an ordinary kernel that remembers its values.
  void recordParams() {
    MLIRContext *context = kernel.getContext();
    SmallVector<NamedAttribute> values;
    for (const auto &[decl, value] : instance)
      values.emplace_back(decl.getName(), value);
    kernel.removeParamsAttr();
    kernel->removeAttr(kInstancesAttrName);
    kernel->removeAttr(kTargetInstancesAttrName);
    kernel->setAttr(kParamsAttrName, DictionaryAttr::get(context, values));
  }

  KernelOp kernel;
  const Instance &instance;
  SymbolTable &symbols;
};
} // namespace

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The values of `decl` in `override`, converted to the parameter's kind.
static FailureOr<SmallVector<Attribute>>
convertValues(KernelOp kernel, ParamDeclAttr decl,
              ArrayRef<std::string> texts) {
  Builder builder(kernel.getContext());
  SmallVector<Attribute> values;
  for (const std::string &text : texts) {
    Attribute value;
    int64_t integer;
    if (decl.getKind() == ParamKind::str)
      value = builder.getStringAttr(text);
    else if (!StringRef(text).getAsInteger(10, integer))
      value = builder.getI64IntegerAttr(integer);
    if (!isParamValue(decl.getKind(), value))
      return kernel.emitOpError()
             << "instances: value '" << text << "' of parameter '"
             << decl.getName().getValue() << "' is not "
             << (decl.getKind() == ParamKind::i64
                     ? "an integer"
                     : "a string of letters, digits and '_'");
    values.push_back(value);
  }
  return values;
}

/// The values each parameter takes in one instance set: from a command line
/// (texts) or from one dictionary of `tile.instances`.
struct ValueSource {
  const InstanceOverride *override = nullptr;
  DictionaryAttr listed;
};

/// The cartesian product, in declaration order, of each parameter's values
/// in `source`, its default where `source` has none.
static FailureOr<SmallVector<Instance>> getProduct(KernelOp kernel,
                                                   ValueSource source) {
  SmallVector<Instance> instances(1);
  for (Attribute attr : kernel.getParamsAttr()) {
    auto decl = cast<ParamDeclAttr>(attr);
    StringRef name = decl.getName().getValue();
    SmallVector<Attribute> values;
    if (source.override) {
      auto entry = llvm::find_if(source.override->params, [&](const auto &e) {
        return e.first == name;
      });
      if (entry != source.override->params.end()) {
        FailureOr<SmallVector<Attribute>> converted =
            convertValues(kernel, decl, entry->second);
        if (failed(converted))
          return failure();
        values = std::move(*converted);
      }
    } else if (source.listed) {
      if (auto array = source.listed.getAs<ArrayAttr>(name))
        llvm::append_range(values, array);
    }
    if (values.empty() && decl.getDefaultValue())
      values.push_back(decl.getDefaultValue());
    if (values.empty())
      return kernel.emitOpError()
             << "has no value for parameter '" << name
             << "', which has no default; list it in "
             << (source.override ? "the instances option" : kInstancesAttrName);
    SmallVector<Instance> product;
    for (const Instance &partial : instances)
      for (Attribute value : values) {
        product.push_back(partial);
        product.back().emplace_back(decl, value);
      }
    instances = std::move(product);
  }
  return instances;
}

/// The instances of `kernel`: the union, in order, of the products of the
/// sets in `overrides` if any, else of the dictionaries of `target`'s entry
/// in `tile.target_instances` or else of `tile.instances` (one, or a list),
/// else its default instance. An instance in several sets is made once.
static FailureOr<SmallVector<Instance>>
getInstances(KernelOp kernel, ArrayRef<const InstanceOverride *> overrides,
             StringRef target) {
  for (const InstanceOverride *override : overrides)
    for (const auto &[name, texts] : override->params)
      if (!kernel.lookupParam(name))
        return kernel.emitOpError()
               << "instances: parameter '" << name
               << "' is not declared by kernel @" << kernel.getSymName();

  SmallVector<ValueSource> sources;
  for (const InstanceOverride *override : overrides)
    sources.push_back({override, {}});
  if (sources.empty()) {
    Attribute listed = kernel->getAttr(kInstancesAttrName);
    if (auto perTarget =
            kernel->getAttrOfType<DictionaryAttr>(kTargetInstancesAttrName))
      if (Attribute forTarget = perTarget.get(target))
        listed = forTarget;
    if (auto dict = dyn_cast_or_null<DictionaryAttr>(listed))
      sources.push_back({nullptr, dict});
    else if (auto list = dyn_cast_or_null<ArrayAttr>(listed))
      for (Attribute entry : list)
        sources.push_back({nullptr, cast<DictionaryAttr>(entry)});
    else
      sources.push_back({});
  }
  SmallVector<Instance> instances;
  for (ValueSource source : sources) {
    FailureOr<SmallVector<Instance>> product = getProduct(kernel, source);
    if (failed(product))
      return failure();
    for (Instance &instance : *product)
      if (!llvm::is_contained(instances, instance))
        instances.push_back(std::move(instance));
  }
  return instances;
}

/// Types and attributes that depend on parameters have no meaning outside a
/// parameterized kernel (or a helper, which is gone by now).
static LogicalResult checkNoParamsLeft(ModuleOp module) {
  WalkResult walk = module.walk([&](Operation *op) {
    SmallVector<Type> types(op->getResultTypes());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    StringAttr used;
    auto record = [&](StringAttr name, ParamUse) { used = name; };
    for (Type type : types)
      walkParamUses(type, record);
    walkParamUses(op->getAttrDictionary(), record);
    if (!used)
      return WalkResult::advance();
    op->emitOpError() << "refers to parameter '" << used.getValue()
                      << "' outside a parameterized tile.kernel";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

namespace {
struct TileSpecializePass
    : mla::tile::impl::TileSpecializeBase<TileSpecializePass> {
  using TileSpecializeBase::TileSpecializeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<InstanceOverride> overrides;
    std::string error;
    if (failed(parseInstanceOverrides(instances, overrides, error))) {
      emitError(module.getLoc()) << "tile-specialize: instances: " << error;
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    llvm::StringMap<SmallVector<const InstanceOverride *>> overridesOf;
    for (const InstanceOverride &override : overrides) {
      auto kernel = symbols.lookup<KernelOp>(override.kernel);
      if (!kernel || !kernel.getParams()) {
        emitError(module.getLoc())
            << "tile-specialize: instances: the program has no parameterized "
               "kernel '"
            << override.kernel << "'";
        return signalPassFailure();
      }
      overridesOf[override.kernel].push_back(&override);
    }
    if (failed(checkNoRecursion(module)))
      return signalPassFailure();

    // Instances take the names of the symbols that stay; a generic kernel's
    // name is free for its default instance.
    llvm::StringSet<> names;
    for (Operation &op : module.getOps()) {
      auto kernel = dyn_cast<KernelOp>(op);
      if (kernel && kernel.getParams())
        continue;
      if (auto symbol = dyn_cast<SymbolOpInterface>(op))
        names.insert(symbol.getName());
    }

    bool failedAny = false;
    for (KernelOp kernel :
         llvm::make_early_inc_range(module.getOps<KernelOp>())) {
      if (!kernel.getParams()) {
        failedAny |= failed(specializeOrdinary(kernel, symbols));
        continue;
      }
      failedAny |=
          failed(specialize(kernel, overridesOf.lookup(kernel.getSymName()),
                            target, symbols, names));
      kernel.erase();
    }
    for (FuncOp func : llvm::make_early_inc_range(module.getOps<FuncOp>()))
      func.erase();
    if (failedAny || failed(checkNoParamsLeft(module)))
      signalPassFailure();
  }

private:
  /// An ordinary kernel only gets its helpers inlined.
  static LogicalResult specializeOrdinary(KernelOp kernel,
                                          SymbolTable &symbols) {
    bool hasCalls = false;
    kernel.walk([&](CallOp) { hasCalls = true; });
    if (!hasCalls)
      return success();
    return withPrefix(kernel.getContext(),
                      ("in kernel @" + kernel.getSymName() + ": ").str(), [&] {
                        return failure(failed(inlineCalls(kernel, symbols)) ||
                                       failed(verify(kernel)));
                      });
  }

  /// Adds one kernel per instance of `kernel` in front of it.
  static LogicalResult specialize(KernelOp kernel,
                                  ArrayRef<const InstanceOverride *> overrides,
                                  StringRef target, SymbolTable &symbols,
                                  llvm::StringSet<> &names) {
    FailureOr<SmallVector<Instance>> instances =
        getInstances(kernel, overrides, target);
    if (failed(instances))
      return failure();
    bool failedAny = false;
    for (const Instance &instance : *instances) {
      std::string name = getInstanceName(kernel.getSymName(), instance);
      if (!names.insert(name).second) {
        kernel.emitOpError() << "instance " << describe(name, instance)
                             << " has the name of another symbol";
        failedAny = true;
        continue;
      }
      OpBuilder builder(kernel);
      auto clone = cast<KernelOp>(builder.clone(*kernel));
      clone.setSymName(name);
      clone->setAttr(kInstanceOfAttrName,
                     builder.getStringAttr(kernel.getSymName()));
      std::string prefix = "in instance " + describe(name, instance) + ": ";
      if (failed(withPrefix(kernel.getContext(), prefix, [&] {
            return InstanceBuilder(clone, instance, symbols).run();
          }))) {
        clone.erase();
        failedAny = true;
      }
    }
    return failure(failedAny);
  }
};
} // namespace
