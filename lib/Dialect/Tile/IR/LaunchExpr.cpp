//===- LaunchExpr.cpp - Grid rules and requirements of a kernel -----------===//
//
// A small recursive-descent parser over Python-like integer expressions:
//
//   condition := sum (("<=" | "<" | ">=" | ">" | "==" | "!=") sum)
//   sum       := product (("+" | "-") product)*
//   product   := unary (("*" | "//") unary)*
//   unary     := "-" unary | INTEGER | NAME | NAME "(" sum ("," sum)* ")"
//              | "(" sum ")"
//
// with the functions cdiv(a, b), min(a, b, ...) and max(a, b, ...). Each
// construct maps onto one operation of the manifest's expression language,
// so what a launcher evaluates is exactly what the program says, but for
// what an instance's parameters make constant: such operations are
// computed here (`k % ALIGN == 0` with ALIGN = 1 is true, and a true
// requirement is no requirement).
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/LaunchExpr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <set>

using namespace mlir;
using namespace mla::tile;
namespace json = llvm::json;

/// The value of binary operation `op` of the manifest's language on `a` and
/// `b` where both are known, non-negative (so that every launcher's
/// division and remainder agree) and the result fits 64 bits.
static std::optional<int64_t> computeConstant(StringRef op, int64_t a,
                                              int64_t b) {
  if (a < 0 || b < 0)
    return std::nullopt;
  int64_t result;
  if (op == "add")
    return llvm::AddOverflow(a, b, result) ? std::nullopt
                                           : std::optional(result);
  if (op == "mul")
    return llvm::MulOverflow(a, b, result) ? std::nullopt
                                           : std::optional(result);
  if (op == "sub")
    return a - b;
  if (op == "min")
    return std::min(a, b);
  if (op == "max")
    return std::max(a, b);
  if (b > 0 && op == "floordiv")
    return a / b;
  if (b > 0 && op == "ceildiv")
    return a / b + (a % b != 0);
  if (b > 0 && op == "rem")
    return a % b;
  return llvm::StringSwitch<std::optional<int64_t>>(op)
      .Case("le", a <= b)
      .Case("lt", a < b)
      .Case("ge", a >= b)
      .Case("gt", a > b)
      .Case("eq", a == b)
      .Case("ne", a != b)
      .Default(std::nullopt);
}

/// `[op, lhs, rhs]`, or its value where computeConstant knows it; any
/// value modulo 1 is 0.
static json::Value makeBinary(StringRef op, json::Value lhs, json::Value rhs) {
  std::optional<int64_t> a = lhs.getAsInteger(), b = rhs.getAsInteger();
  if (op == "rem" && b == 1)
    return json::Value(0);
  if (a && b)
    if (std::optional<int64_t> value = computeConstant(op, *a, *b))
      return json::Value(*value);
  return json::Array{op, std::move(lhs), std::move(rhs)};
}

/// The argument name and divisor of `expr` where it has the shape
/// ["eq", ["rem", {"arg": NAME}, DIVISOR], 0].
static std::optional<std::pair<StringRef, const json::Value *>>
matchRemainderIsZero(const json::Value &expr) {
  const json::Array *eq = expr.getAsArray();
  if (!eq || eq->size() != 3 || eq->front().getAsString() != "eq" ||
      (*eq)[2].getAsInteger() != 0)
    return std::nullopt;
  const json::Array *rem = (*eq)[1].getAsArray();
  if (!rem || rem->size() != 3 || rem->front().getAsString() != "rem")
    return std::nullopt;
  const json::Object *leaf = (*rem)[1].getAsObject();
  std::optional<StringRef> name = leaf ? leaf->getString("arg") : std::nullopt;
  if (!name)
    return std::nullopt;
  return std::make_pair(*name, &(*rem)[2]);
}

namespace {
class Parser {
public:
  Parser(KernelOp kernel, StringRef text, std::string &error)
      : kernel(kernel), text(text), error(error) {}

  std::optional<json::Value> parse(LaunchExprKind kind) {
    this->kind = kind;
    std::optional<json::Value> result =
        kind == LaunchExprKind::Size ? sum() : condition();
    if (result && (skipSpace(), pos != text.size()))
      return fail("unexpected '" + text.substr(pos).str() + "'");
    // `P % 1 == 0` folds to true: any pointer is aligned to 1 byte.
    if (result && !pointers.empty() && !result->getAsInteger() &&
        !isAlignment(*result))
      return fail("a pointer argument ('" + *pointers.begin() +
                  "') may only be required to be aligned, as 'P % C == 0' "
                  "with C a power of two up to " +
                  std::to_string(kMaxRequiredAlignment));
    return result;
  }

private:
  std::optional<json::Value> fail(const std::string &what) {
    if (error.empty())
      error = "in '" + text.str() + "': " + what;
    return std::nullopt;
  }

  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }

  /// Consumes `token` if it comes next.
  bool accept(StringRef token) {
    skipSpace();
    if (!text.substr(pos).starts_with(token))
      return false;
    pos += token.size();
    return true;
  }

  using Operators = ArrayRef<std::pair<StringRef, StringRef>>;

  /// Consumes the first token of `ops` that comes next and returns its
  /// operation; "" when none does.
  StringRef acceptOperator(Operators ops) {
    for (auto [token, op] : ops)
      if (accept(token))
        return op;
    return "";
  }

  std::optional<json::Value> condition() {
    std::optional<json::Value> lhs = sum();
    if (!lhs)
      return std::nullopt;
    static constexpr std::pair<StringRef, StringRef> kComparisons[] = {
        {"<=", "le"}, {">=", "ge"}, {"==", "eq"},
        {"!=", "ne"}, {"<", "lt"},  {">", "gt"}};
    StringRef op = acceptOperator(kComparisons);
    if (op.empty())
      return fail("a requirement compares two values (<=, <, >=, >, ==, !=)");
    std::optional<json::Value> rhs = sum();
    if (!rhs)
      return std::nullopt;
    return makeBinary(op, std::move(*lhs), std::move(*rhs));
  }

  /// `operand`s joined by the left-associative `ops`.
  std::optional<json::Value>
  chain(std::optional<json::Value> (Parser::*operand)(), Operators ops) {
    std::optional<json::Value> lhs = (this->*operand)();
    while (lhs) {
      StringRef op = acceptOperator(ops);
      if (op.empty())
        return lhs;
      std::optional<json::Value> rhs = (this->*operand)();
      if (!rhs)
        return std::nullopt;
      lhs = makeBinary(op, std::move(*lhs), std::move(*rhs));
    }
    return std::nullopt;
  }

  std::optional<json::Value> sum() {
    static constexpr std::pair<StringRef, StringRef> kOps[] = {{"+", "add"},
                                                               {"-", "sub"}};
    return chain(&Parser::product, kOps);
  }

  std::optional<json::Value> product() {
    static constexpr std::pair<StringRef, StringRef> kOps[] = {
        {"//", "floordiv"}, {"*", "mul"}, {"%", "rem"}};
    return chain(&Parser::unary, kOps);
  }

  std::optional<json::Value> unary() {
    if (accept("-")) {
      std::optional<json::Value> operand = unary();
      if (!operand)
        return std::nullopt;
      return makeBinary("sub", 0, std::move(*operand));
    }
    if (accept("(")) {
      std::optional<json::Value> inner = sum();
      if (inner && !accept(")"))
        return fail("expected ')'");
      return inner;
    }
    skipSpace();
    size_t start = pos;
    if (pos < text.size() && llvm::isDigit(text[pos])) {
      while (pos < text.size() && llvm::isAlnum(text[pos]))
        ++pos;
      int64_t value;
      if (text.slice(start, pos).getAsInteger(10, value))
        return fail("'" + text.slice(start, pos).str() +
                    "' is not an integer that fits 64 bits");
      return json::Value(value);
    }
    while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
      ++pos;
    StringRef name = text.slice(start, pos);
    if (name.empty())
      return fail(pos == text.size()
                      ? std::string("expected a value at the end")
                      : "unexpected '" + text.substr(pos).str() + "'");
    if (accept("("))
      return call(name);
    return resolve(name);
  }

  /// cdiv(a, b), min(a, b, ...), max(a, b, ...).
  std::optional<json::Value> call(StringRef name) {
    StringRef op = llvm::StringSwitch<StringRef>(name)
                       .Case("cdiv", "ceildiv")
                       .Case("min", "min")
                       .Case("max", "max")
                       .Default("");
    if (op.empty())
      return fail("unknown function '" + name.str() +
                  "' (there are cdiv, min and max)");
    std::vector<json::Value> operands;
    do {
      std::optional<json::Value> operand = sum();
      if (!operand)
        return std::nullopt;
      operands.push_back(std::move(*operand));
    } while (accept(","));
    if (!accept(")"))
      return fail("expected ',' or ')' in " + name.str() + "(...)");
    bool binary = op == "ceildiv";
    if (binary ? operands.size() != 2 : operands.size() < 2)
      return fail(name.str() + "() takes " + (binary ? "" : "at least ") +
                  "2 operands, got " + std::to_string(operands.size()));
    // The manifest's min is binary: fold a longer list from the left.
    if (op == "min") {
      json::Value folded = std::move(operands[0]);
      for (size_t i = 1; i < operands.size(); ++i)
        folded = makeBinary("min", std::move(folded), std::move(operands[i]));
      return folded;
    }
    if (op == "ceildiv")
      return makeBinary(op, std::move(operands[0]), std::move(operands[1]));
    json::Array call{op};
    for (json::Value &operand : operands)
      call.push_back(std::move(operand));
    return json::Value(std::move(call));
  }

  /// Whether `expr` reads an argument.
  static bool readsArgument(const json::Value &expr) {
    if (const json::Object *leaf = expr.getAsObject())
      return leaf->get("arg");
    if (const json::Array *list = expr.getAsArray())
      return llvm::any_of(*list, readsArgument);
    return false;
  }

  /// Whether `expr` is ["eq", ["rem", {"arg": P}, C], 0], P a pointer and C
  /// a power of two up to kMaxRequiredAlignment (or an expression of
  /// parameters, which only an instance decides).
  bool isAlignment(const json::Value &expr) const {
    auto match = matchRemainderIsZero(expr);
    if (!match || !pointers.count(match->first.str()) ||
        readsArgument(*match->second))
      return false;
    std::optional<int64_t> divisor = match->second->getAsInteger();
    return !divisor || (*divisor > 0 && *divisor <= kMaxRequiredAlignment &&
                        llvm::isPowerOf2_64(*divisor));
  }

  /// An integer scalar argument, a pointer argument's address (in a
  /// requirement), or an integer parameter's value.
  std::optional<json::Value> resolve(StringRef name) {
    for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
      if (kernel.getArgName(i) != name)
        continue;
      if (type.isInteger(32) || type.isInteger(64))
        return json::Object{{"arg", name}};
      if (isa<PtrType>(type) && kind == LaunchExprKind::Condition) {
        pointers.insert(name.str());
        return json::Object{{"arg", name}};
      }
      std::string typeName;
      llvm::raw_string_ostream os(typeName);
      type.print(os);
      return fail("argument '" + name.str() + "' is a " + typeName +
                  ", not an integer scalar");
    }
    if (auto values = kernel->getAttrOfType<DictionaryAttr>(kParamsAttrName))
      if (Attribute value = values.get(name)) {
        if (auto integer = dyn_cast<IntegerAttr>(value))
          return json::Value(integer.getInt());
        return fail("parameter '" + name.str() + "' is a string");
      }
    if (ParamDeclAttr decl = kernel.lookupParam(name)) {
      if (decl.getKind() != ParamKind::i64)
        return fail("parameter '" + name.str() + "' is a string");
      return json::Object{{"param", name}};
    }
    return fail("'" + name.str() +
                "' is neither an integer scalar argument nor an integer "
                "parameter of @" +
                kernel.getSymName().str());
  }

  KernelOp kernel;
  StringRef text;
  std::string &error;
  size_t pos = 0;
  LaunchExprKind kind = LaunchExprKind::Size;
  /// The pointer arguments the expression reads.
  std::set<std::string> pointers;
};
} // namespace

std::optional<json::Value> mla::tile::compileLaunchExpr(KernelOp kernel,
                                                        StringRef text,
                                                        LaunchExprKind kind,
                                                        std::string &error) {
  error.clear();
  return Parser(kernel, text, error).parse(kind);
}

/// Whether `text` is one bare name (letters, digits, '_').
static bool isName(StringRef text) {
  return !text.empty() && !llvm::isDigit(text[0]) &&
         llvm::all_of(text,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::optional<json::Value> mla::tile::compileGridEntry(KernelOp kernel,
                                                       Attribute entry,
                                                       std::string &error) {
  error.clear();
  if (auto size = dyn_cast<IntegerAttr>(entry)) {
    if (size.getInt() < 1) {
      error = "sizes must be at least 1, got " + std::to_string(size.getInt());
      return std::nullopt;
    }
    return json::Value(size.getInt());
  }
  if (auto param = dyn_cast<ParamAttr>(entry))
    return json::Object{{"param", param.getName().getValue()}};
  auto text = dyn_cast<StringAttr>(entry);
  if (!text || text.getValue().trim().empty()) {
    error = "an entry is an integer or an expression such as "
            "\"cdiv(rows, 16)\"";
    return std::nullopt;
  }
  std::optional<json::Value> expr =
      compileLaunchExpr(kernel, text.getValue(), LaunchExprKind::Size, error);
  if (expr || !isName(text.getValue()))
    return expr;
  // A bare name the kernel does not know is a problem quantity, which only
  // an application's launcher (the kernel's role) can compute.
  auto launch = kernel->getAttrOfType<DictionaryAttr>(kLaunchAttrName);
  if (!launch || !launch.get("role"))
    return std::nullopt;
  error.clear();
  return json::Value(text.getValue().str());
}

/// The type of `kernel`'s argument `name`, or null.
static Type argumentType(KernelOp kernel, StringRef name) {
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (kernel.getArgName(i) == name)
      return type;
  return {};
}

bool mla::tile::readsPointer(KernelOp kernel, const json::Value &expr) {
  if (const json::Object *leaf = expr.getAsObject()) {
    std::optional<StringRef> name = leaf->getString("arg");
    return name && isa_and_nonnull<PtrType>(argumentType(kernel, *name));
  }
  if (const json::Array *list = expr.getAsArray())
    return llvm::any_of(*list, [&](const json::Value &operand) {
      return readsPointer(kernel, operand);
    });
  return false;
}

std::optional<std::pair<std::string, int64_t>>
mla::tile::matchAlignmentRequirement(KernelOp kernel,
                                     const json::Value &condition) {
  auto match = matchRemainderIsZero(condition);
  if (!match || !isa_and_nonnull<PtrType>(argumentType(kernel, match->first)))
    return std::nullopt;
  std::optional<int64_t> divisor = match->second->getAsInteger();
  if (!divisor)
    return std::nullopt;
  return std::make_pair(match->first.str(), *divisor);
}
