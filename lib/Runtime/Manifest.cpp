//===- Manifest.cpp - Module manifests (docs/ABI.md) ----------------------===//

#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/RegularFile.h"

#include <set>

namespace mla::runtime {

std::string Manifest::locate(const JsonValue &value) const {
  return formatString("%s:%u:%u", path.c_str(), value.line(), value.column());
}

std::string manifestPathFor(const std::string &modulePath) {
  return modulePath + ".json";
}

namespace {

/// Validates the JSON tree of a manifest field by field, so that each error
/// names the field (`kernels[1].args[0].kind`) and its position.
class ManifestValidator {
public:
  explicit ManifestValidator(Manifest &manifest) : manifest(manifest) {}

  Status validate(const JsonValue &root);

private:
  Status error(const JsonValue &at, const std::string &field,
               const std::string &what) {
    return Status::failure(manifest.locate(at), field + ": " + what);
  }

  /// Finds member `key` of `object`; `found` is null when absent and
  /// `optional`, otherwise its absence is an error.
  Status member(const JsonValue &object, const std::string &objectField,
                const char *key, JsonValue::Kind kind, const JsonValue *&found,
                bool optional = false) {
    std::string field = objectField.empty() ? key : objectField + "." + key;
    found = object.find(key);
    if (!found) {
      if (optional)
        return Status::success();
      return error(object, field, "missing");
    }
    if (found->kind() != kind)
      return error(*found, field,
                   std::string("expected ") + JsonValue::describe(kind) +
                       ", found " + JsonValue::describe(found->kind()));
    return Status::success();
  }

  /// An integer >= minimum.
  Status integer(const JsonValue &value, const std::string &field,
                 int64_t minimum, int64_t &result) {
    if (!value.isInteger() || value.getInteger() < minimum)
      return error(value, field,
                   formatString("expected an integer >= %lld",
                                static_cast<long long>(minimum)));
    result = value.getInteger();
    return Status::success();
  }

  Status validateKernel(const JsonValue &json, const std::string &field,
                        KernelInfo &kernel);
  Status validateArg(const JsonValue &json, const std::string &field,
                     KernelArg &arg);
  Status validateLaunch(const JsonValue &json, const std::string &field,
                        KernelInfo &kernel);

  Manifest &manifest;
};

} // namespace

/// A C identifier, which every target accepts as a symbol.
static bool isIdentifier(const std::string &name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

Status ManifestValidator::validate(const JsonValue &root) {
  if (!root.isObject())
    return error(root, "manifest", "expected an object");
  const JsonValue *target, *binary, *kernels;
  if (Status s = member(root, "", "target", JsonValue::Kind::String, target))
    return s;
  if (target->getString().empty())
    return error(*target, "target", "empty");
  if (Status s = member(root, "", "binary", JsonValue::Kind::String, binary))
    return s;
  if (binary->getString().empty())
    return error(*binary, "binary", "empty");
  if (Status s = member(root, "", "kernels", JsonValue::Kind::Array, kernels))
    return s;
  manifest.target = target->getString();
  manifest.binary = binary->getString();

  std::set<std::string> symbols;
  for (size_t i = 0; i < kernels->getArray().size(); ++i) {
    const JsonValue &json = kernels->getArray()[i];
    std::string field = formatString("kernels[%zu]", i);
    KernelInfo kernel;
    if (Status s = validateKernel(json, field, kernel))
      return s;
    if (!symbols.insert(kernel.symbol).second)
      return error(json, field + ".symbol",
                   "duplicate symbol '" + kernel.symbol + "'");
    manifest.kernels.push_back(std::move(kernel));
  }
  return Status::success();
}

Status ManifestValidator::validateKernel(const JsonValue &json,
                                         const std::string &field,
                                         KernelInfo &kernel) {
  if (!json.isObject())
    return error(json, field, "expected an object");
  kernel.location = manifest.locate(json);
  const JsonValue *symbol, *args, *workgroup, *lds, *launch;
  if (Status s = member(json, field, "symbol", JsonValue::Kind::String, symbol))
    return s;
  if (!isIdentifier(symbol->getString()))
    return error(*symbol, field + ".symbol",
                 "'" + symbol->getString() + "' is not a C identifier");
  kernel.symbol = symbol->getString();

  if (Status s = member(json, field, "args", JsonValue::Kind::Array, args))
    return s;
  std::set<std::string> names;
  for (size_t i = 0; i < args->getArray().size(); ++i) {
    KernelArg arg;
    std::string argField = formatString("%s.args[%zu]", field.c_str(), i);
    if (Status s = validateArg(args->getArray()[i], argField, arg))
      return s;
    if (!names.insert(arg.name).second)
      return error(args->getArray()[i], argField,
                   "duplicate argument name '" + arg.name + "'");
    kernel.args.push_back(std::move(arg));
  }

  if (Status s = member(json, field, "workgroup_size", JsonValue::Kind::Array,
                        workgroup))
    return s;
  if (workgroup->getArray().size() != 3)
    return error(*workgroup, field + ".workgroup_size",
                 "expected three integers");
  for (size_t d = 0; d < 3; ++d)
    if (Status s = integer(workgroup->getArray()[d], field + ".workgroup_size",
                           1, kernel.workgroupSize[d]))
      return s;

  if (Status s = member(json, field, "lds_bytes", JsonValue::Kind::Number, lds))
    return s;
  if (Status s = integer(*lds, field + ".lds_bytes", 0, kernel.ldsBytes))
    return s;
  if (const JsonValue *dynamic = json.find("dynamic_lds_bytes")) {
    if (Status s = integer(*dynamic, field + ".dynamic_lds_bytes", 0,
                           kernel.dynamicLdsBytes))
      return s;
    if (kernel.dynamicLdsBytes > kernel.ldsBytes)
      return error(*dynamic, field + ".dynamic_lds_bytes",
                   "more than lds_bytes, which includes it");
  }

  // Counts the backend may not report: absent or null means unknown.
  for (auto [key, slot] : {std::pair{"registers", &kernel.registers},
                           std::pair{"spills", &kernel.spills}}) {
    const JsonValue *value = json.find(key);
    if (!value || value->isNull())
      continue;
    int64_t count;
    if (Status s = integer(*value, field + "." + key, 0, count))
      return s;
    *slot = count;
  }

  if (Status s = member(json, field, "launch", JsonValue::Kind::Object, launch,
                        /*optional=*/true))
    return s;
  if (launch)
    return validateLaunch(*launch, field + ".launch", kernel);
  return Status::success();
}

Status ManifestValidator::validateArg(const JsonValue &json,
                                      const std::string &field,
                                      KernelArg &arg) {
  static const std::set<std::string> kPointeeTypes = {
      "bf16", "f16",      "f32",        "i8",        "i32",
      "i64",  "f8E4M3FN", "f8E4M3FNUZ", "f8E8M0FNU", "f4E2M1FN"};
  static const std::set<std::string> kScalarTypes = {"i32", "i64", "f32"};
  if (!json.isObject())
    return error(json, field, "expected an object");
  arg.location = manifest.locate(json);
  const JsonValue *name, *kind, *type;
  if (Status s = member(json, field, "name", JsonValue::Kind::String, name))
    return s;
  if (!isIdentifier(name->getString()))
    return error(*name, field + ".name",
                 "'" + name->getString() + "' is not an identifier");
  arg.name = name->getString();
  if (Status s = member(json, field, "kind", JsonValue::Kind::String, kind))
    return s;
  if (kind->getString() == "ptr")
    arg.kind = ArgKind::Pointer;
  else if (kind->getString() == "scalar")
    arg.kind = ArgKind::Scalar;
  else
    return error(*kind, field + ".kind",
                 "expected \"ptr\" or \"scalar\", found \"" +
                     kind->getString() + "\"");
  if (Status s = member(json, field, "type", JsonValue::Kind::String, type))
    return s;
  arg.type = type->getString();
  if (arg.kind == ArgKind::Pointer && !kPointeeTypes.count(arg.type))
    return error(*type, field + ".type",
                 "unknown element type \"" + arg.type + "\"");
  if (arg.kind == ArgKind::Scalar && !kScalarTypes.count(arg.type))
    return error(*type, field + ".type",
                 "scalar type \"" + arg.type +
                     "\" is not one of i32, i64, f32");
  return Status::success();
}

Status ManifestValidator::validateLaunch(const JsonValue &json,
                                         const std::string &field,
                                         KernelInfo &kernel) {
  kernel.launch = json;
  const JsonValue *role, *grid;
  if (Status s = member(json, field, "role", JsonValue::Kind::String, role,
                        /*optional=*/true))
    return s;
  if (role)
    kernel.role = role->getString();
  if (Status s = member(json, field, "grid", JsonValue::Kind::Array, grid,
                        /*optional=*/true))
    return s;
  if (!grid)
    return Status::success();
  if (grid->getArray().size() != 3)
    return error(*grid, field + ".grid", "expected three entries");
  for (size_t d = 0; d < 3; ++d) {
    const JsonValue &entry = grid->getArray()[d];
    std::string entryField = formatString("%s.grid[%zu]", field.c_str(), d);
    GridExtent &extent = kernel.grid[d];
    // Which names a driver computes is the driver's business; the MLA
    // driver checks its kernels' grids when it selects them.
    if (entry.isString()) {
      if (entry.getString().empty())
        return error(entry, entryField, "empty quantity name");
      extent.quantity = entry.getString();
      continue;
    }
    if (Status s = integer(entry, entryField, 1, extent.count))
      return s;
  }
  kernel.hasGrid = true;
  return Status::success();
}

Status parseManifest(std::string_view text, const std::string &path,
                     Manifest &manifest) {
  JsonValue root;
  if (Status s = parseJson(text, path, root))
    return s;
  Manifest result;
  result.path = path;
  if (Status s = ManifestValidator(result).validate(root))
    return s;
  manifest = std::move(result);
  return Status::success();
}

Status loadManifest(const std::string &modulePath, Manifest &manifest) {
  std::string path = manifestPathFor(modulePath);
  std::string text;
  if (Status s = readRegularFile(path, text))
    return Status::failure("", s.message() + " (the module's manifest)");
  return parseManifest(text, path, manifest);
}

Status readLaunchInteger(const Manifest &manifest, const KernelInfo &kernel,
                         const char *key, int64_t minimum,
                         std::optional<int64_t> &value) {
  value.reset();
  const JsonValue *json = kernel.launch.find(key);
  if (!json)
    return Status::success();
  if (!json->isInteger() || json->getInteger() < minimum)
    return Status::failure(manifest.locate(*json),
                           formatString("kernel '%s': launch.%s: expected an "
                                        "integer >= %lld",
                                        kernel.symbol.c_str(), key,
                                        static_cast<long long>(minimum)));
  value = json->getInteger();
  return Status::success();
}

Status readLaunchString(const Manifest &manifest, const KernelInfo &kernel,
                        const char *key, std::optional<std::string> &value) {
  value.reset();
  const JsonValue *json = kernel.launch.find(key);
  if (!json)
    return Status::success();
  if (!json->isString())
    return Status::failure(manifest.locate(*json),
                           formatString("kernel '%s': launch.%s: expected a "
                                        "string",
                                        kernel.symbol.c_str(), key));
  value = json->getString();
  return Status::success();
}

} // namespace mla::runtime
