//===- Json.h - A small JSON parser -----------------------------*- C++ -*-===//
//
// Enough JSON (RFC 8259) for module manifests: objects, arrays, strings with
// escapes, numbers, true/false/null. Every value remembers where it starts so
// that manifest checks can point at the offending line and column.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_JSON_H
#define MLA_RUNTIME_JSON_H

#include "mla/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mla::runtime {

struct JsonMember;

/// A parsed JSON value.
class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind() const { return valueKind; }
  bool isNull() const { return valueKind == Kind::Null; }
  bool isBool() const { return valueKind == Kind::Bool; }
  bool isNumber() const { return valueKind == Kind::Number; }
  bool isString() const { return valueKind == Kind::String; }
  bool isArray() const { return valueKind == Kind::Array; }
  bool isObject() const { return valueKind == Kind::Object; }
  /// True for a number with no fraction or exponent that fits in int64_t.
  bool isInteger() const { return valueKind == Kind::Number && integral; }

  bool getBool() const { return boolValue; }
  double getNumber() const { return numberValue; }
  int64_t getInteger() const { return integerValue; }
  const std::string &getString() const { return stringValue; }
  const std::vector<JsonValue> &getArray() const { return elements; }
  /// Object members in the order of the text.
  const std::vector<JsonMember> &getObject() const { return members; }
  /// The member named `key` of an object, or null when there is none (or
  /// this is not an object).
  const JsonValue *find(std::string_view key) const;

  /// 1-based position of the value's first character.
  unsigned line() const { return startLine; }
  unsigned column() const { return startColumn; }

  /// Kind names for messages: "null", "a boolean", "a number", ...
  static const char *describe(Kind kind);

private:
  friend class JsonParser;

  Kind valueKind = Kind::Null;
  bool boolValue = false;
  bool integral = false;
  double numberValue = 0;
  int64_t integerValue = 0;
  std::string stringValue;
  std::vector<JsonValue> elements;
  std::vector<JsonMember> members;
  unsigned startLine = 1;
  unsigned startColumn = 1;
};

/// One `"key": value` of an object.
struct JsonMember {
  std::string key;
  JsonValue value;
};

/// Parses `text` as one JSON document. On error the message is
/// "SOURCE:LINE:COL: what is wrong", SOURCE being `sourceName` (the file).
/// Nesting is limited to 64 levels, so hostile input cannot exhaust the
/// stack.
Status parseJson(std::string_view text, const std::string &sourceName,
                 JsonValue &result);

} // namespace mla::runtime

#endif // MLA_RUNTIME_JSON_H
