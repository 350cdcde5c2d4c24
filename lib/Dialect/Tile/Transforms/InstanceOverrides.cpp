//===- InstanceOverrides.cpp - Instance sets given on a command line ------===//

#include "mla/Dialect/Tile/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mla::tile;

static bool isName(StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_';
  });
}

/// Parses one `KERNEL[:PARAM=V1,V2]...`.
static LogicalResult parseOverride(StringRef text, InstanceOverride &result,
                                   std::string &error) {
  SmallVector<StringRef> parts;
  text.split(parts, ':');
  result.kernel = parts.front().trim().str();
  if (!isName(result.kernel)) {
    error = "'" + text.str() + "': expected KERNEL:PARAM=V1,V2[:PARAM=...]";
    return failure();
  }
  for (StringRef part : ArrayRef<StringRef>(parts).drop_front()) {
    StringRef name = part.split('=').first.trim();
    StringRef list = part.split('=').second;
    if (!isName(name) || !part.contains('=')) {
      error = "'" + text.str() + "': expected PARAM=V1,V2 after '" +
              result.kernel + ":', got '" + part.str() + "'";
      return failure();
    }
    if (llvm::any_of(result.params,
                     [&](const auto &entry) { return entry.first == name; })) {
      error =
          "'" + text.str() + "': parameter '" + name.str() + "' is given twice";
      return failure();
    }
    SmallVector<StringRef> values;
    list.split(values, ',');
    auto &entry =
        result.params.emplace_back(name.str(), SmallVector<std::string>());
    for (StringRef value : values) {
      value = value.trim();
      if (value.empty()) {
        error = "'" + text.str() + "': parameter '" + name.str() +
                "' has an empty value";
        return failure();
      }
      entry.second.push_back(value.str());
    }
  }
  return success();
}

LogicalResult
mla::tile::parseInstanceOverrides(StringRef spec,
                                  SmallVectorImpl<InstanceOverride> &overrides,
                                  std::string &error) {
  SmallVector<StringRef> texts;
  spec.split(texts, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef text : texts) {
    if (text.trim().empty())
      continue;
    InstanceOverride parsed;
    if (failed(parseOverride(text.trim(), parsed, error)))
      return failure();
    overrides.push_back(std::move(parsed));
  }
  return success();
}
