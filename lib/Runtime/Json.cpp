//===- Json.cpp - JSON documents as one-line errors -----------------------===//

#include "mla/Runtime/Json.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdio>

namespace mla::runtime {

/// "SOURCE:LINE:COL" of byte `offset` of `text`, both 1-based.
static std::string locate(std::string_view text, size_t offset,
                          const std::string &sourceName) {
  offset = std::min(offset, text.size());
  size_t lineStart = 0;
  unsigned line = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return llvm::formatv("{0}:{1}:{2}", sourceName, line, offset - lineStart + 1);
}

/// The offset of the first bracket nested deeper than kMaxJsonDepth, if
/// any. llvm::json::parse recurses once per level without a limit.
static std::optional<size_t> findTooDeep(std::string_view text) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

Status parseJson(std::string_view text, const std::string &sourceName,
                 llvm::json::Value &result) {
  if (std::optional<size_t> at = findTooDeep(text))
    return Status::failure(
        locate(text, *at, sourceName),
        llvm::formatv("nesting deeper than {0} levels", kMaxJsonDepth));
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse(llvm::StringRef(text.data(), text.size()));
  if (parsed) {
    result = std::move(*parsed);
    return Status::success();
  }
  // llvm::json::ParseError keeps its position private; its text is
  // "[LINE:COL, byte=OFFSET]: MESSAGE", and the offset is exact.
  std::string message = llvm::toString(parsed.takeError());
  unsigned line, column;
  size_t offset;
  int consumed = 0;
  if (std::sscanf(message.c_str(), "[%u:%u, byte=%zu]: %n", &line, &column,
                  &offset, &consumed) == 3 &&
      consumed > 0) {
    std::string what = message.substr(consumed);
    if (!what.empty())
      what[0] = llvm::toLower(what[0]);
    return Status::failure(locate(text, offset, sourceName), what);
  }
  return Status::failure(sourceName, message);
}

const char *describeJsonKind(llvm::json::Value::Kind kind) {
  switch (kind) {
  case llvm::json::Value::Null:
    return "null";
  case llvm::json::Value::Boolean:
    return "a boolean";
  case llvm::json::Value::Number:
    return "a number";
  case llvm::json::Value::String:
    return "a string";
  case llvm::json::Value::Array:
    return "an array";
  case llvm::json::Value::Object:
    return "an object";
  }
  return "?";
}

std::optional<int64_t> getNonNegativeInteger(const llvm::json::Value &value) {
  // getAsUINT64 answers only for numbers parsed as integers; getAsInteger
  // would also take 4.0 or 1e3.
  std::optional<uint64_t> number = value.getAsUINT64();
  if (!number || *number > static_cast<uint64_t>(INT64_MAX))
    return std::nullopt;
  return static_cast<int64_t>(*number);
}

} // namespace mla::runtime
