//===- Json.cpp - A small JSON parser -------------------------------------===//

#include "mla/Runtime/Json.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace mla::runtime {

const JsonValue *JsonValue::find(std::string_view key) const {
  for (const JsonMember &member : members)
    if (member.key == key)
      return &member.value;
  return nullptr;
}

const char *JsonValue::describe(Kind kind) {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "?";
}

/// Recursive descent over the text, tracking line and column.
class JsonParser {
public:
  explicit JsonParser(std::string_view text) : text(text) {}

  bool parseDocument(JsonValue &result) {
    skipWhitespace();
    if (!parseValue(result, 0))
      return false;
    skipWhitespace();
    if (pos != text.size())
      return fail("unexpected text after the JSON value");
    return true;
  }

  /// "LINE:COL" and text of the first error.
  std::string location;
  std::string error;

private:
  static constexpr int kMaxDepth = 64;

  bool fail(const std::string &what) {
    location = formatString("%u:%u", line, column);
    error = what;
    return false;
  }

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  void advance() {
    if (text[pos] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++pos;
  }

  void skipWhitespace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r'))
      advance();
  }

  bool expect(char c) {
    skipWhitespace();
    if (peek() != c)
      return fail(std::string("expected '") + c + "'" + foundSuffix());
    advance();
    return true;
  }

  std::string foundSuffix() const {
    if (atEnd())
      return ", found the end of the text";
    char c = peek();
    if (c >= 0x20 && c < 0x7F)
      return std::string(", found '") + c + "'";
    return formatString(", found byte 0x%02X", static_cast<unsigned char>(c));
  }

  bool parseValue(JsonValue &value, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than 64 levels");
    skipWhitespace();
    value.startLine = line;
    value.startColumn = column;
    char c = peek();
    if (c == '{')
      return parseObject(value, depth);
    if (c == '[')
      return parseArray(value, depth);
    if (c == '"') {
      value.valueKind = JsonValue::Kind::String;
      return parseString(value.stringValue);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(value);
    for (const char *word : {"true", "false", "null"}) {
      std::string_view literal(word);
      if (text.substr(pos, literal.size()) == literal) {
        for (size_t i = 0; i < literal.size(); ++i)
          advance();
        value.valueKind =
            word[0] == 'n' ? JsonValue::Kind::Null : JsonValue::Kind::Bool;
        value.boolValue = word[0] == 't';
        return true;
      }
    }
    return fail("expected a JSON value" + foundSuffix());
  }

  bool parseObject(JsonValue &value, int depth) {
    value.valueKind = JsonValue::Kind::Object;
    advance();
    skipWhitespace();
    if (peek() == '}') {
      advance();
      return true;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"')
        return fail("expected a string key" + foundSuffix());
      JsonMember member;
      if (!parseString(member.key) || !expect(':') ||
          !parseValue(member.value, depth + 1))
        return false;
      value.members.push_back(std::move(member));
      skipWhitespace();
      if (peek() == ',') {
        advance();
        continue;
      }
      if (peek() == '}') {
        advance();
        return true;
      }
      return fail("expected ',' or '}'" + foundSuffix());
    }
  }

  bool parseArray(JsonValue &value, int depth) {
    value.valueKind = JsonValue::Kind::Array;
    advance();
    skipWhitespace();
    if (peek() == ']') {
      advance();
      return true;
    }
    while (true) {
      JsonValue element;
      if (!parseValue(element, depth + 1))
        return false;
      value.elements.push_back(std::move(element));
      skipWhitespace();
      if (peek() == ',') {
        advance();
        continue;
      }
      if (peek() == ']') {
        advance();
        return true;
      }
      return fail("expected ',' or ']'" + foundSuffix());
    }
  }

  /// Reads four hex digits of a \u escape.
  bool parseHex4(uint32_t &code) {
    code = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      uint32_t digit;
      if (c >= '0' && c <= '9')
        digit = c - '0';
      else if (c >= 'a' && c <= 'f')
        digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        digit = c - 'A' + 10;
      else
        return fail("expected four hex digits after \\u");
      code = code * 16 + digit;
      advance();
    }
    return true;
  }

  static void appendUtf8(std::string &out, uint32_t code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  bool parseString(std::string &out) {
    advance(); // The opening quote.
    while (true) {
      if (atEnd())
        return fail("unterminated string");
      char c = peek();
      if (c == '"') {
        advance();
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string (escape it)");
      if (c != '\\') {
        out.push_back(c);
        advance();
        continue;
      }
      advance();
      if (atEnd())
        return fail("unterminated string");
      char escape = peek();
      advance();
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        out.push_back(escape);
        break;
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'u': {
        uint32_t code;
        if (!parseHex4(code))
          return false;
        if (code >= 0xD800 && code < 0xDC00) {
          // A high surrogate must be followed by an escaped low surrogate.
          uint32_t low;
          if (peek() != '\\')
            return fail("unpaired UTF-16 surrogate in \\u escape");
          advance();
          if (peek() != 'u')
            return fail("unpaired UTF-16 surrogate in \\u escape");
          advance();
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail("unpaired UTF-16 surrogate in \\u escape");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code <= 0xDFFF) {
          return fail("unpaired UTF-16 surrogate in \\u escape");
        }
        appendUtf8(out, code);
        break;
      }
      default:
        return fail(std::string("invalid escape '\\") + escape + "'");
      }
    }
  }

  bool parseNumber(JsonValue &value) {
    size_t start = pos;
    bool integral = true;
    auto digits = [&]() {
      size_t before = pos;
      while (peek() >= '0' && peek() <= '9')
        advance();
      return pos > before;
    };
    if (peek() == '-')
      advance();
    if (peek() == '0') {
      advance();
    } else if (!digits()) {
      return fail("expected digits in a number");
    }
    if (peek() == '.') {
      integral = false;
      advance();
      if (!digits())
        return fail("expected digits after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      if (!digits())
        return fail("expected digits in the exponent");
    }
    std::string token(text.substr(start, pos - start));
    value.valueKind = JsonValue::Kind::Number;
    value.numberValue = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(value.numberValue))
      return fail("number out of range: " + token);
    if (integral) {
      errno = 0;
      long long integer = std::strtoll(token.c_str(), nullptr, 10);
      value.integral = errno != ERANGE;
      value.integerValue = integer;
    }
    return true;
  }

  std::string_view text;
  size_t pos = 0;
  unsigned line = 1;
  unsigned column = 1;
};

Status parseJson(std::string_view text, const std::string &sourceName,
                 JsonValue &result) {
  JsonParser parser(text);
  JsonValue value;
  if (!parser.parseDocument(value))
    return Status::failure(sourceName + ":" + parser.location, parser.error);
  result = std::move(value);
  return Status::success();
}

} // namespace mla::runtime
