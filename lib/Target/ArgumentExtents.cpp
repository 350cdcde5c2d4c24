//===- ArgumentExtents.cpp - How far a kernel reaches past its pointers ---===//
//
// Every access through a pointer argument is a tile.view (bounded by its
// sizes) or a tile.load_scalar (one element), so the furthest element is a
// function of their offsets, sizes, strides and indices. Those are written
// as expressions of what they are computed from (docs/ABI.md, "Extents");
// a value no expression describes makes the argument's extent unknown.
//
//===----------------------------------------------------------------------===//

#include "mla/Target/ArgumentExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mla;
namespace json = llvm::json;

/// "FILE:LINE" of `loc`, or "unknown location".
static std::string describe(Location loc) {
  std::string text = "unknown location";
  loc->walk([&](Location inner) {
    auto file = dyn_cast<FileLineColLoc>(inner);
    if (!file)
      return WalkResult::advance();
    text = (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()))
               .str();
    return WalkResult::interrupt();
  });
  return text;
}

/// Launchers read manifests nested at most 64 deep (mla/Runtime/Json.h),
/// the extent sitting 5 levels down.
constexpr unsigned kMaxExpressionDepth = 48;

static unsigned depth(const json::Value &expr) {
  unsigned deepest = 0;
  if (const json::Array *list = expr.getAsArray())
    for (const json::Value &operand : *list)
      deepest = std::max(deepest, depth(operand));
  return deepest + 1;
}

static unsigned bitWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

namespace {
/// Builds expressions of the integer values of one kernel.
class ExpressionBuilder {
public:
  explicit ExpressionBuilder(tile::KernelOp kernel) : kernel(kernel) {}

  /// The expression of `value`, or nullopt with `unknown` set.
  std::optional<json::Value> of(mlir::Value value);
  std::optional<json::Value> of(OpFoldResult value);

  std::string unknown;

private:
  std::optional<json::Value> fail(Operation *op, const Twine &what) {
    if (unknown.empty())
      unknown = (what + " at " + describe(op->getLoc())).str();
    return std::nullopt;
  }
  std::optional<json::Value> build(mlir::Value value);
  /// [name, operands...] of `op`'s operands; unsigned operations read
  /// operands narrower than 64 bits as unsigned.
  std::optional<json::Value> apply(StringRef name, Operation *op,
                                   bool isUnsigned);

  tile::KernelOp kernel;
  llvm::DenseMap<mlir::Value, json::Value> built;
};
} // namespace

std::optional<json::Value> ExpressionBuilder::of(OpFoldResult value) {
  if (auto attr = dyn_cast<Attribute>(value))
    return json::Value(cast<IntegerAttr>(attr).getInt());
  return of(cast<mlir::Value>(value));
}

std::optional<json::Value> ExpressionBuilder::of(mlir::Value value) {
  auto found = built.find(value);
  if (found != built.end())
    return found->second;
  std::optional<json::Value> expr = build(value);
  if (expr)
    built.try_emplace(value, *expr);
  return expr;
}

std::optional<json::Value>
ExpressionBuilder::apply(StringRef name, Operation *op, bool isUnsigned) {
  json::Array expr{name};
  for (mlir::Value operand : op->getOperands()) {
    std::optional<json::Value> sub = of(operand);
    if (!sub)
      return std::nullopt;
    unsigned bits = bitWidth(operand.getType());
    std::optional<int64_t> literal = sub->getAsInteger();
    bool nonNegative = literal && *literal >= 0;
    if (isUnsigned && bits < 64 && !operand.getType().isInteger(1) &&
        !nonNegative)
      sub = json::Array{"zext", bits, std::move(*sub)};
    expr.push_back(std::move(*sub));
  }
  return json::Value(std::move(expr));
}

std::optional<json::Value> ExpressionBuilder::build(mlir::Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != &kernel.getBody().front())
      return fail(arg.getOwner()->getParentOp(),
                  "a loop variable or region argument");
    if (!arg.getType().isIntOrIndex())
      return fail(kernel, "the non-integer argument '" +
                              kernel.getArgName(arg.getArgNumber()) + "'");
    return json::Value(
        json::Object{{"arg", kernel.getArgName(arg.getArgNumber()).str()}});
  }
  Operation *op = value.getDefiningOp();
  if (op->getNumRegions() != 0)
    return fail(op, "the result of '" + op->getName().getStringRef() + "'");
  return llvm::TypeSwitch<Operation *, std::optional<json::Value>>(op)
      .Case([&](arith::ConstantOp constant) -> std::optional<json::Value> {
        if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
          return json::Value(integer.getValue().getSExtValue());
        return fail(op, "a non-integer constant");
      })
      .Case([&](tile::NumProgramsOp programs) {
        return json::Value(
            json::Object{{"programs", int64_t(programs.getAxis())}});
      })
      .Case([&](tile::ProgramIdOp) {
        return fail(op, "the program's id (tile.program_id)");
      })
      .Case([&](tile::LoadScalarOp) {
        return fail(op, "a value loaded from memory (tile.load_scalar)");
      })
      // Sign extension keeps the value; zero extension reads the source's
      // bits as unsigned.
      .Case<arith::IndexCastOp, arith::ExtSIOp>(
          [&](Operation *) { return of(op->getOperand(0)); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
          [&](Operation *) -> std::optional<json::Value> {
            mlir::Value source = op->getOperand(0);
            std::optional<json::Value> sub = of(source);
            unsigned bits = bitWidth(source.getType());
            if (!sub || bits >= 64)
              return sub;
            return json::Value(json::Array{"zext", bits, std::move(*sub)});
          })
      .Case([&](arith::AddIOp) { return apply("add", op, false); })
      .Case([&](arith::SubIOp) { return apply("sub", op, false); })
      .Case([&](arith::MulIOp) { return apply("mul", op, false); })
      .Case([&](arith::DivSIOp) { return apply("div", op, false); })
      .Case([&](arith::FloorDivSIOp) { return apply("floordiv", op, false); })
      .Case([&](arith::CeilDivSIOp) { return apply("ceildiv", op, false); })
      .Case([&](arith::RemSIOp) { return apply("rem", op, false); })
      .Case([&](arith::DivUIOp) { return apply("udiv", op, true); })
      .Case([&](arith::CeilDivUIOp) { return apply("uceildiv", op, true); })
      .Case([&](arith::RemUIOp) { return apply("urem", op, true); })
      .Case([&](arith::MinSIOp) { return apply("min", op, false); })
      .Case([&](arith::MaxSIOp) { return apply("max", op, false); })
      .Case([&](arith::MinUIOp) { return apply("umin", op, true); })
      .Case([&](arith::MaxUIOp) { return apply("umax", op, true); })
      .Case([&](arith::SelectOp select) -> std::optional<json::Value> {
        if (!select.getType().isIntOrIndex())
          return fail(op, "a non-integer select");
        return apply("select", op, false);
      })
      .Case([&](arith::CmpIOp cmp) {
        StringRef name = arith::stringifyCmpIPredicate(cmp.getPredicate());
        // slt -> lt; eq, ne and the unsigned ones keep their names.
        if (name.starts_with("s"))
          name = name.drop_front();
        return apply(name, op, name.starts_with("u"));
      })
      .Default([&](Operation *) {
        return fail(op, "'" + op->getName().getStringRef() +
                            "', which has no expression");
      });
}

std::optional<json::Value> mla::argumentExtent(tile::KernelOp kernel,
                                               unsigned index,
                                               std::string &unknown) {
  ExpressionBuilder builder(kernel);
  json::Array reaches;
  auto add = [&](json::Value expr) {
    if (!llvm::is_contained(reaches, expr))
      reaches.push_back(std::move(expr));
  };
  auto sizes =
      [&](ArrayRef<OpFoldResult> values) -> std::optional<json::Array> {
    json::Array out;
    for (OpFoldResult v : values) {
      std::optional<json::Value> expr = builder.of(v);
      if (!expr)
        return std::nullopt;
      out.push_back(std::move(*expr));
    }
    return out;
  };
  // Users in program order, so that the expression reads like the source.
  mlir::Value pointer = kernel.getBody().getArgument(index);
  SmallVector<Operation *> users;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (llvm::is_contained(op->getOperands(), pointer))
      users.push_back(op);
  });
  for (Operation *user : users) {
    if (auto view = dyn_cast<tile::ViewOp>(user);
        view && view.getBase() == pointer) {
      std::optional<json::Value> offset = json::Value(0);
      if (view.getOffset())
        offset = builder.of(view.getOffset());
      SmallVector<OpFoldResult> mixedSizes, mixedStrides;
      for (unsigned d = 0; d < view.getStaticSizes().size(); ++d) {
        mixedSizes.push_back(view.getMixedSize(d));
        mixedStrides.push_back(view.getMixedStride(d));
      }
      std::optional<json::Array> viewSizes = sizes(mixedSizes);
      std::optional<json::Array> viewStrides = sizes(mixedStrides);
      if (!offset || !viewSizes || !viewStrides)
        break;
      add(json::Array{"view", std::move(*offset), std::move(*viewSizes),
                      std::move(*viewStrides)});
      continue;
    }
    if (auto load = dyn_cast<tile::LoadScalarOp>(user);
        load && load.getPtr() == pointer) {
      std::optional<json::Value> at = builder.of(load.getIndex());
      if (!at)
        break;
      add(json::Array{"view", std::move(*at), json::Array{1}, json::Array{1}});
      continue;
    }
    builder.unknown =
        ("the pointer is used by '" + user->getName().getStringRef() + "' at " +
         describe(user->getLoc()))
            .str();
    break;
  }
  if (!builder.unknown.empty()) {
    unknown = builder.unknown;
    return std::nullopt;
  }
  json::Value extent(0);
  if (reaches.size() == 1) {
    extent = std::move(reaches.front());
  } else if (!reaches.empty()) {
    reaches.insert(reaches.begin(), "max");
    extent = std::move(reaches);
  }
  if (depth(extent) > kMaxExpressionDepth) {
    unknown = "its expression nests deeper than launchers read";
    return std::nullopt;
  }
  return extent;
}
