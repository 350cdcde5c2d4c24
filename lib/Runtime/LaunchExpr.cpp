//===- LaunchExpr.cpp - The manifest's integer expressions ----------------===//
//
// The expression language of docs/ABI.md, "Extents": integers, scalar
// arguments, grid sizes and operations on them, evaluated exactly in 64-bit
// signed integers. Every operation is checked, so a hostile manifest gets
// an error, never undefined behaviour. Expressions nest at most as deep as
// parseJson allows, which bounds the recursion.
//
//===----------------------------------------------------------------------===//

#include "mla/Runtime/LaunchExpr.h"
#include "mla/Runtime/Status.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

namespace mla::runtime {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {
enum class Op {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  CeilDiv,
  Rem,
  UDiv,
  UCeilDiv,
  URem,
  Min,
  Max,
  UMin,
  UMax,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  ULt,
  ULe,
  UGt,
  UGe,
  Select,
  ZExt,
  View,
  Unknown
};
} // namespace

static Op opNamed(llvm::StringRef name) {
  return llvm::StringSwitch<Op>(name)
      .Case("add", Op::Add)
      .Case("sub", Op::Sub)
      .Case("mul", Op::Mul)
      .Case("div", Op::Div)
      .Case("floordiv", Op::FloorDiv)
      .Case("ceildiv", Op::CeilDiv)
      .Case("rem", Op::Rem)
      .Case("udiv", Op::UDiv)
      .Case("uceildiv", Op::UCeilDiv)
      .Case("urem", Op::URem)
      .Case("min", Op::Min)
      .Case("max", Op::Max)
      .Case("umin", Op::UMin)
      .Case("umax", Op::UMax)
      .Case("eq", Op::Eq)
      .Case("ne", Op::Ne)
      .Case("lt", Op::Lt)
      .Case("le", Op::Le)
      .Case("gt", Op::Gt)
      .Case("ge", Op::Ge)
      .Case("ult", Op::ULt)
      .Case("ule", Op::ULe)
      .Case("ugt", Op::UGt)
      .Case("uge", Op::UGe)
      .Case("select", Op::Select)
      .Case("zext", Op::ZExt)
      .Case("view", Op::View)
      .Default(Op::Unknown);
}

/// An integer written as such (no fraction or exponent), in int64.
static std::optional<int64_t> integerOf(const Value &value) {
  return value.getAsInteger();
}

bool validateLaunchExpr(const Value &expr, std::string &what) {
  auto fail = [&](const std::string &text) {
    what = text;
    return false;
  };
  if (integerOf(expr))
    return true;
  if (const Object *leaf = expr.getAsObject()) {
    if (leaf->size() == 1 && leaf->getString("arg"))
      return true;
    std::optional<int64_t> axis =
        leaf->size() == 1 ? leaf->getInteger("programs") : std::nullopt;
    if (axis && *axis >= 0 && *axis < 3)
      return true;
    return fail("an object is {\"arg\": NAME} or {\"programs\": 0|1|2}");
  }
  const Array *list = expr.getAsArray();
  if (!list || list->empty() || !(*list)[0].getAsString())
    return fail("expected an integer, an object or [OP, operands...]");
  llvm::StringRef name = *(*list)[0].getAsString();
  Op op = opNamed(name);
  size_t operands = list->size() - 1;
  if (op == Op::Unknown)
    return fail("unknown operation \"" + name.str() + "\"");
  if (op == Op::View) {
    const Array *sizes = operands == 3 ? (*list)[2].getAsArray() : nullptr;
    const Array *strides = operands == 3 ? (*list)[3].getAsArray() : nullptr;
    if (!sizes || !strides || sizes->size() != strides->size())
      return fail("\"view\" takes an offset and two arrays of one length");
    if (!validateLaunchExpr((*list)[1], what))
      return false;
    for (const Array *dims : {sizes, strides})
      for (const Value &dim : *dims)
        if (!validateLaunchExpr(dim, what))
          return false;
    return true;
  }
  if (op == Op::ZExt) {
    std::optional<int64_t> bits =
        operands == 2 ? integerOf((*list)[1]) : std::nullopt;
    if (!bits || *bits < 1 || *bits > 63)
      return fail("\"zext\" takes a bit count in [1, 63] and an operand");
    return validateLaunchExpr((*list)[2], what);
  }
  bool variadic = op == Op::Max;
  size_t expected = op == Op::Select ? 3 : 2;
  if (variadic ? operands < 2 : operands != expected)
    return fail(llvm::formatv("\"{0}\" takes {1}{2} operands, not {3}", name,
                              variadic ? "at least " : "", expected, operands));
  for (size_t i = 1; i < list->size(); ++i)
    if (!validateLaunchExpr((*list)[i], what))
      return false;
  return true;
}

namespace {
/// Evaluates one expression; the first failure leaves its reason in `what`.
class Evaluator {
public:
  Evaluator(const LaunchExprInputs &inputs, std::string &what)
      : inputs(inputs), what(what) {}

  bool eval(const Value &expr, int64_t &out);

private:
  bool fail(const std::string &text) {
    what = text;
    return false;
  }
  bool overflow(llvm::StringRef op) {
    return fail("\"" + op.str() + "\" overflows 64 bits");
  }
  bool unsignedResult(uint64_t value, llvm::StringRef op, int64_t &out) {
    if (value > uint64_t(std::numeric_limits<int64_t>::max()))
      return overflow(op);
    out = int64_t(value);
    return true;
  }
  bool binary(Op op, llvm::StringRef name, int64_t a, int64_t b, int64_t &out);
  bool view(const Array &list, int64_t &out);

  const LaunchExprInputs &inputs;
  std::string &what;
};
} // namespace

bool Evaluator::eval(const Value &expr, int64_t &out) {
  if (std::optional<int64_t> integer = integerOf(expr)) {
    out = *integer;
    return true;
  }
  if (const Object *leaf = expr.getAsObject()) {
    if (std::optional<llvm::StringRef> name = leaf->getString("arg")) {
      std::optional<int64_t> value = inputs.scalar(*name);
      if (!value)
        return fail("'" + name->str() + "' is not an integer argument");
      out = *value;
      return true;
    }
    out = inputs.grid[*leaf->getInteger("programs")];
    return true;
  }
  const Array &list = *expr.getAsArray();
  llvm::StringRef name = *list[0].getAsString();
  Op op = opNamed(name);
  if (op == Op::View)
    return view(list, out);
  if (op == Op::ZExt) {
    int64_t bits = *integerOf(list[1]), value;
    if (!eval(list[2], value))
      return false;
    out = int64_t(uint64_t(value) & ((uint64_t(1) << bits) - 1));
    return true;
  }
  if (op == Op::Select) {
    int64_t condition;
    if (!eval(list[1], condition))
      return false;
    return eval(list[condition ? 2 : 3], out);
  }
  if (!eval(list[1], out))
    return false;
  for (size_t i = 2; i < list.size(); ++i) {
    int64_t next;
    if (!eval(list[i], next) || !binary(op, name, out, next, out))
      return false;
  }
  return true;
}

bool Evaluator::binary(Op op, llvm::StringRef name, int64_t a, int64_t b,
                       int64_t &out) {
  uint64_t ua = uint64_t(a), ub = uint64_t(b);
  bool divides = op == Op::Div || op == Op::FloorDiv || op == Op::CeilDiv ||
                 op == Op::Rem || op == Op::UDiv || op == Op::UCeilDiv ||
                 op == Op::URem;
  if (divides && b == 0)
    return fail("\"" + name.str() + "\" divides by zero");
  bool minOverMinusOne = a == std::numeric_limits<int64_t>::min() && b == -1;
  switch (op) {
  case Op::Add:
    return !__builtin_add_overflow(a, b, &out) || overflow(name);
  case Op::Sub:
    return !__builtin_sub_overflow(a, b, &out) || overflow(name);
  case Op::Mul:
    return !__builtin_mul_overflow(a, b, &out) || overflow(name);
  case Op::Div:
  case Op::FloorDiv:
  case Op::CeilDiv: {
    if (minOverMinusOne)
      return overflow(name);
    out = a / b;
    bool inexact = a % b != 0, negative = (a < 0) != (b < 0);
    if (inexact && negative && op == Op::FloorDiv)
      --out;
    if (inexact && !negative && op == Op::CeilDiv)
      ++out;
    return true;
  }
  case Op::Rem:
    out = minOverMinusOne ? 0 : a % b;
    return true;
  case Op::UDiv:
    return unsignedResult(ua / ub, name, out);
  case Op::UCeilDiv:
    return unsignedResult(ua / ub + (ua % ub != 0), name, out);
  case Op::URem:
    return unsignedResult(ua % ub, name, out);
  case Op::Min:
    out = std::min(a, b);
    return true;
  case Op::Max:
    out = std::max(a, b);
    return true;
  case Op::UMin:
    out = ua < ub ? a : b;
    return true;
  case Op::UMax:
    out = ua < ub ? b : a;
    return true;
  case Op::Eq:
    out = a == b;
    return true;
  case Op::Ne:
    out = a != b;
    return true;
  case Op::Lt:
    out = a < b;
    return true;
  case Op::Le:
    out = a <= b;
    return true;
  case Op::Gt:
    out = a > b;
    return true;
  case Op::Ge:
    out = a >= b;
    return true;
  case Op::ULt:
    out = ua < ub;
    return true;
  case Op::ULe:
    out = ua <= ub;
    return true;
  case Op::UGt:
    out = ua > ub;
    return true;
  case Op::UGe:
    out = ua >= ub;
    return true;
  case Op::Select:
  case Op::ZExt:
  case Op::View:
  case Op::Unknown:
    break;
  }
  return fail("\"" + name.str() + "\" is not a binary operation");
}

/// Elements [O + sum over negative strides, O + sum over positive ones] of
/// a view with no empty dimension; none when one is empty. A negative size
/// is an error.
bool Evaluator::view(const Array &list, int64_t &out) {
  int64_t offset;
  if (!eval(list[1], offset))
    return false;
  const Array &sizes = *list[2].getAsArray(), &strides = *list[3].getAsArray();
  int64_t low = offset, high = offset;
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t size, stride, span;
    if (!eval(sizes[d], size) || !eval(strides[d], stride))
      return false;
    // The targets' bounds checks read a negative size as a huge one.
    if (size < 0)
      return fail(llvm::formatv("a view has size {0}", size));
    if (size == 0) {
      out = 0;
      return true;
    }
    if (__builtin_mul_overflow(size - 1, stride, &span))
      return overflow("view");
    int64_t &end = span < 0 ? low : high;
    if (__builtin_add_overflow(end, span, &end))
      return overflow("view");
  }
  if (low < 0)
    return fail(
        llvm::formatv("a view reaches element {0}, before the pointer", low));
  if (__builtin_add_overflow(high, int64_t(1), &out))
    return overflow("view");
  return true;
}

bool evaluateLaunchExpr(const Value &expr, const LaunchExprInputs &inputs,
                        int64_t &result, std::string &what) {
  return Evaluator(inputs, what).eval(expr, result);
}

bool readsGrid(const Value &expr) {
  if (const Object *leaf = expr.getAsObject())
    return leaf->get("programs") != nullptr;
  if (const Array *list = expr.getAsArray())
    return llvm::any_of(*list, [](const Value &v) { return readsGrid(v); });
  return false;
}

static void collectArguments(const Value &expr,
                             std::vector<std::string> &names) {
  if (const Object *leaf = expr.getAsObject()) {
    if (std::optional<llvm::StringRef> name = leaf->getString("arg"))
      if (!llvm::is_contained(names, *name))
        names.push_back(name->str());
    return;
  }
  if (const Array *list = expr.getAsArray())
    for (const Value &operand : *list)
      collectArguments(operand, names);
}

std::vector<std::string> argumentsOf(const Value &expr) {
  std::vector<std::string> names;
  collectArguments(expr, names);
  return names;
}

namespace {
/// Infix operators with their precedence; everything else prints as a call.
struct Infix {
  llvm::StringRef symbol;
  int precedence;
};
} // namespace

static std::optional<Infix> infixOf(llvm::StringRef op) {
  return llvm::StringSwitch<std::optional<Infix>>(op)
      .Case("eq", Infix{"==", 0})
      .Case("ne", Infix{"!=", 0})
      .Case("lt", Infix{"<", 0})
      .Case("le", Infix{"<=", 0})
      .Case("gt", Infix{">", 0})
      .Case("ge", Infix{">=", 0})
      .Case("add", Infix{"+", 1})
      .Case("sub", Infix{"-", 1})
      .Case("mul", Infix{"*", 2})
      .Case("floordiv", Infix{"//", 2})
      .Case("rem", Infix{"%", 2})
      .Default(std::nullopt);
}

/// Prints `expr` where the surrounding operator binds with `context`.
static void print(const Value &expr, int context, std::string &out) {
  if (std::optional<int64_t> integer = integerOf(expr)) {
    out += std::to_string(*integer);
    return;
  }
  if (const Object *leaf = expr.getAsObject()) {
    if (std::optional<llvm::StringRef> name = leaf->getString("arg"))
      out += name->str();
    else
      out +=
          llvm::formatv("programs({0})", "xyz"[*leaf->getInteger("programs")]);
    return;
  }
  const Array &list = *expr.getAsArray();
  llvm::StringRef op = *list[0].getAsString();
  if (std::optional<Infix> infix = infixOf(op)) {
    bool parens = infix->precedence < context;
    if (parens)
      out += "(";
    print(list[1], infix->precedence, out);
    out += " " + infix->symbol.str() + " ";
    // a - (b - c): the right operand binds tighter than its operator.
    print(list[2], infix->precedence + 1, out);
    if (parens)
      out += ")";
    return;
  }
  out += op == "ceildiv" ? "cdiv" : op.str();
  out += "(";
  for (size_t i = 1; i < list.size(); ++i) {
    if (i > 1)
      out += ", ";
    if (const Array *dims = list[i].getAsArray();
        dims && op == "view" && i > 1) {
      out += "[";
      for (size_t d = 0; d < dims->size(); ++d) {
        if (d)
          out += ", ";
        print((*dims)[d], 0, out);
      }
      out += "]";
      continue;
    }
    print(list[i], 0, out);
  }
  out += ")";
}

std::string printLaunchExpr(const Value &expr) {
  std::string out;
  print(expr, 0, out);
  return out;
}

} // namespace mla::runtime
