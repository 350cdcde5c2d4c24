//===- Json.h - JSON documents as one-line errors ---------------*- C++ -*-===//
//
// The runtime reads JSON (manifests, the ABI records of binaries) with
// llvm::json from LLVM's Support library, linked statically. This adapter
// adds what the runtime needs around llvm::json::parse: a nesting limit, so
// that hostile input cannot exhaust the stack, and errors in the runtime's
// one-line form.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_JSON_H
#define MLA_RUNTIME_JSON_H

#include "mla/Runtime/Status.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mla::runtime {

/// The deepest nesting of arrays and objects parseJson accepts.
constexpr unsigned kMaxJsonDepth = 64;

/// Parses `text` as one JSON document. On error the message is
/// "SOURCE:LINE:COL: what is wrong", SOURCE being `sourceName` (the file).
Status parseJson(std::string_view text, const std::string &sourceName,
                 llvm::json::Value &result);

/// Kind names for messages: "null", "a boolean", "a number", ...
const char *describeJsonKind(llvm::json::Value::Kind kind);

/// `value` if it is an integer written without fraction or exponent, in
/// [0, INT64_MAX]; nullopt otherwise.
std::optional<int64_t> getNonNegativeInteger(const llvm::json::Value &value);

} // namespace mla::runtime

#endif // MLA_RUNTIME_JSON_H
