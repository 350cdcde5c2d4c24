//===- AssumeRequirements.cpp - Launch requirements as facts for LLVM -----===//
//
// A kernel's `requires` conditions are checked by every launcher before it
// launches, so inside the kernel they are facts. Each is computed here from
// the scalar arguments, as the launchers compute it (64-bit integers), and
// given to llvm.intr.assume.
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/LaunchExpr.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringSwitch.h"

namespace mla::tile {
#define GEN_PASS_DEF_TILEASSUMEREQUIREMENTS
#include "mla/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mla::tile

using namespace mlir;
using namespace mla::tile;
namespace json = llvm::json;

template <typename OpTy>
static Value createBinary(OpBuilder &builder, Location loc, Value a, Value b) {
  return OpTy::create(builder, loc, a, b);
}

/// Launchers compare as signed 64-bit integers.
template <arith::CmpIPredicate Predicate>
static Value createCompare(OpBuilder &builder, Location loc, Value a, Value b) {
  return arith::CmpIOp::create(builder, loc, Predicate, a, b);
}

namespace {
/// Emits compiled launch expressions (LaunchExpr.h) as i64 arith at the
/// start of one kernel.
class ConditionBuilder {
public:
  ConditionBuilder(KernelOp kernel)
      : kernel(kernel),
        builder(&kernel.getBody().front(), kernel.getBody().front().begin()),
        loc(kernel.getLoc()) {}

  /// Assumes condition `expr` after what was emitted before.
  void assume(const json::Value &expr) {
    LLVM::AssumeOp::create(builder, loc, emit(expr));
  }

private:
  Value emit(const json::Value &expr) {
    Type i64 = builder.getI64Type();
    if (std::optional<int64_t> value = expr.getAsInteger())
      return arith::ConstantOp::create(builder, loc,
                                       builder.getI64IntegerAttr(*value));
    if (const json::Object *leaf = expr.getAsObject())
      return argument(*leaf->getString("arg"));
    const json::Array &list = *expr.getAsArray();
    StringRef op = *list[0].getAsString();
    Value result = emit(list[1]);
    for (size_t i = 2; i < list.size(); ++i)
      result = binary(op, result, emit(list[i]), i64);
    return result;
  }

  /// Integer scalar argument `name`, sign-extended as launchers read it.
  Value argument(StringRef name) {
    for (auto [i, arg] : llvm::enumerate(kernel.getBody().getArguments())) {
      if (kernel.getArgName(i) != name)
        continue;
      if (arg.getType().isInteger(64))
        return arg;
      return arith::ExtSIOp::create(builder, loc, builder.getI64Type(), arg);
    }
    llvm_unreachable("the verifier resolved every name");
  }

  Value binary(StringRef op, Value a, Value b, Type i64) {
    using Create = Value (*)(OpBuilder &, Location, Value, Value);
    Create create = llvm::StringSwitch<Create>(op)
                        .Case("eq", createCompare<arith::CmpIPredicate::eq>)
                        .Case("ne", createCompare<arith::CmpIPredicate::ne>)
                        .Case("lt", createCompare<arith::CmpIPredicate::slt>)
                        .Case("le", createCompare<arith::CmpIPredicate::sle>)
                        .Case("gt", createCompare<arith::CmpIPredicate::sgt>)
                        .Case("ge", createCompare<arith::CmpIPredicate::sge>)
                        .Case("add", createBinary<arith::AddIOp>)
                        .Case("sub", createBinary<arith::SubIOp>)
                        .Case("mul", createBinary<arith::MulIOp>)
                        .Case("floordiv", createBinary<arith::FloorDivSIOp>)
                        .Case("rem", createBinary<arith::RemSIOp>)
                        .Case("ceildiv", createBinary<arith::CeilDivSIOp>)
                        .Case("min", createBinary<arith::MinSIOp>)
                        .Case("max", createBinary<arith::MaxSIOp>)
                        .Default(nullptr);
    assert(create && "the parser makes no other operation");
    return create(builder, loc, a, b);
  }

  KernelOp kernel;
  OpBuilder builder;
  Location loc;
};

struct TileAssumeRequirementsPass
    : mla::tile::impl::TileAssumeRequirementsBase<TileAssumeRequirementsPass> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>()) {
      auto launch = kernel->getAttrOfType<DictionaryAttr>(kLaunchAttrName);
      auto conditions = launch ? launch.getAs<ArrayAttr>("requires") : nullptr;
      if (!conditions)
        continue;
      // Facts about parameters that are still symbolic would not be facts.
      if (kernel.getParamsAttr()) {
        kernel.emitError() << "tile-assume-requirements runs on specialized "
                              "kernels (after tile-specialize)";
        return signalPassFailure();
      }
      ConditionBuilder builder(kernel);
      for (auto text : conditions.getAsRange<StringAttr>()) {
        std::string error;
        std::optional<json::Value> condition = compileLaunchExpr(
            kernel, text.getValue(), LaunchExprKind::Condition, error);
        assert(condition && "the verifier compiled every requirement");
        // The parameters decided it (true: the verifier refuses false). A
        // pointer's alignment is stated on the argument by the lowering
        // (matchAlignmentRequirement).
        if (!condition->getAsInteger() && !readsPointer(kernel, *condition))
          builder.assume(*condition);
      }
    }
  }
};
} // namespace
