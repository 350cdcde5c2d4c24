//===- Manifest.cpp - Module manifests (docs/ABI.md) ----------------------===//

#include "mla/Runtime/Manifest.h"
#include "mla/Runtime/Json.h"
#include "mla/Runtime/LaunchExpr.h"
#include "mla/Runtime/RegularFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

namespace mla::runtime {

using llvm::json::Value;

std::string manifestPathFor(const std::string &modulePath) {
  return modulePath + ".json";
}

namespace {

/// Validates the JSON tree of a manifest field by field, so that each error
/// names the field (`kernels[1].args[0].kind`).
class ManifestValidator {
public:
  explicit ManifestValidator(Manifest &manifest) : manifest(manifest) {}

  Status validate(const Value &root);

private:
  Status error(const std::string &field, const std::string &what) {
    return Status::failure(manifest.path, field + ": " + what);
  }

  /// Finds member `key` of `object`; `found` is null when absent and
  /// `optional`, otherwise its absence is an error.
  Status member(const llvm::json::Object &object,
                const std::string &objectField, const char *key,
                Value::Kind kind, const Value *&found, bool optional = false) {
    std::string field = objectField.empty() ? key : objectField + "." + key;
    found = object.get(key);
    if (!found) {
      if (optional)
        return Status::success();
      return error(field, "missing");
    }
    if (found->kind() != kind)
      return error(field, std::string("expected ") + describeJsonKind(kind) +
                              ", found " + describeJsonKind(found->kind()));
    return Status::success();
  }

  /// An integer in [minimum, maximum].
  Status integer(const Value &value, const std::string &field, int64_t minimum,
                 int64_t &result, int64_t maximum = INT64_MAX) {
    std::optional<int64_t> number = getNonNegativeInteger(value);
    if (!number || *number < minimum)
      return error(field, llvm::formatv("expected an integer >= {0}", minimum));
    if (*number > maximum)
      return error(field,
                   llvm::formatv("{0} is more than {1}", *number, maximum));
    result = *number;
    return Status::success();
  }

  Status validateKernel(const Value &json, const std::string &field,
                        KernelInfo &kernel);
  Status validateArg(const Value &json, const std::string &field,
                     KernelArg &arg);
  Status validateArgExtent(const llvm::json::Object &json,
                           const std::string &field, KernelArg &arg);
  Status validateLaunch(const llvm::json::Object &json,
                        const std::string &field, KernelInfo &kernel);
  Status launchRule(const Value &expr, const std::string &field,
                    const KernelInfo &kernel, bool requirement = false);

  Manifest &manifest;
};

} // namespace

/// A C identifier, which every target accepts as a symbol.
static bool isIdentifier(llvm::StringRef name) {
  if (name.empty() || llvm::isDigit(name[0]))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

Status ManifestValidator::validate(const Value &json) {
  const llvm::json::Object *root = json.getAsObject();
  if (!root)
    return error("manifest", "expected an object");
  const Value *target, *binary, *kernels;
  if (Status s = member(*root, "", "target", Value::String, target))
    return s;
  if (target->getAsString()->empty())
    return error("target", "empty");
  if (Status s = member(*root, "", "binary", Value::String, binary))
    return s;
  if (binary->getAsString()->empty())
    return error("binary", "empty");
  if (Status s = member(*root, "", "kernels", Value::Array, kernels))
    return s;
  manifest.target = target->getAsString()->str();
  manifest.binary = binary->getAsString()->str();

  std::set<std::string> symbols;
  const llvm::json::Array &entries = *kernels->getAsArray();
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string field = llvm::formatv("kernels[{0}]", i).str();
    KernelInfo kernel;
    if (Status s = validateKernel(entries[i], field, kernel))
      return s;
    if (!symbols.insert(kernel.symbol).second)
      return error(field + ".symbol",
                   "duplicate symbol '" + kernel.symbol + "'");
    manifest.kernels.push_back(std::move(kernel));
  }
  return Status::success();
}

Status ManifestValidator::validateKernel(const Value &value,
                                         const std::string &field,
                                         KernelInfo &kernel) {
  const llvm::json::Object *json = value.getAsObject();
  if (!json)
    return error(field, "expected an object");
  kernel.location = manifest.path;
  const Value *symbol, *args, *workgroup, *lds, *launch;
  if (Status s = member(*json, field, "symbol", Value::String, symbol))
    return s;
  llvm::StringRef symbolName = *symbol->getAsString();
  if (!isIdentifier(symbolName))
    return error(field + ".symbol",
                 "'" + symbolName.str() + "' is not a C identifier");
  kernel.symbol = symbolName.str();

  if (Status s = member(*json, field, "args", Value::Array, args))
    return s;
  std::set<std::string> names;
  const llvm::json::Array &argList = *args->getAsArray();
  for (size_t i = 0; i < argList.size(); ++i) {
    KernelArg arg;
    std::string argField = llvm::formatv("{0}.args[{1}]", field, i).str();
    if (Status s = validateArg(argList[i], argField, arg))
      return s;
    if (!names.insert(arg.name).second)
      return error(argField, "duplicate argument name '" + arg.name + "'");
    kernel.args.push_back(std::move(arg));
  }

  if (Status s =
          member(*json, field, "workgroup_size", Value::Array, workgroup))
    return s;
  const llvm::json::Array &extents = *workgroup->getAsArray();
  if (extents.size() != 3)
    return error(field + ".workgroup_size", "expected three integers");
  int64_t workItems = 1;
  for (size_t d = 0; d < 3; ++d) {
    if (Status s = integer(extents[d], field + ".workgroup_size", 1,
                           kernel.workgroupSize[d], kMaxWorkgroupSize))
      return s;
    workItems *= kernel.workgroupSize[d];
  }
  if (workItems > kMaxWorkgroupSize)
    return error(field + ".workgroup_size",
                 llvm::formatv("{0} work-items, more than {1}", workItems,
                               kMaxWorkgroupSize));

  if (Status s = member(*json, field, "lds_bytes", Value::Number, lds))
    return s;
  if (Status s =
          integer(*lds, field + ".lds_bytes", 0, kernel.ldsBytes, kMaxLdsBytes))
    return s;
  if (const Value *dynamic = json->get("dynamic_lds_bytes")) {
    if (Status s = integer(*dynamic, field + ".dynamic_lds_bytes", 0,
                           kernel.dynamicLdsBytes))
      return s;
    if (kernel.dynamicLdsBytes > kernel.ldsBytes)
      return error(field + ".dynamic_lds_bytes",
                   "more than lds_bytes, which includes it");
  }

  // Counts the backend may not report: absent or null means unknown.
  for (auto [key, slot] : {std::pair{"registers", &kernel.registers},
                           std::pair{"spills", &kernel.spills}}) {
    const Value *value = json->get(key);
    if (!value || value->kind() == Value::Null)
      continue;
    int64_t count;
    if (Status s = integer(*value, field + "." + key, 0, count))
      return s;
    *slot = count;
  }

  if (Status s = member(*json, field, "launch", Value::Object, launch,
                        /*optional=*/true))
    return s;
  if (launch)
    return validateLaunch(*launch->getAsObject(), field + ".launch", kernel);
  return Status::success();
}

Status ManifestValidator::validateArg(const Value &value,
                                      const std::string &field,
                                      KernelArg &arg) {
  static const std::set<std::string> kPointeeTypes = {
      "bf16", "f16",      "f32",        "i8",        "i32",
      "i64",  "f8E4M3FN", "f8E4M3FNUZ", "f8E8M0FNU", "f4E2M1FN"};
  static const std::set<std::string> kScalarTypes = {"i32", "i64", "f32"};
  const llvm::json::Object *json = value.getAsObject();
  if (!json)
    return error(field, "expected an object");
  arg.location = manifest.path;
  const Value *name, *kind, *type;
  if (Status s = member(*json, field, "name", Value::String, name))
    return s;
  arg.name = name->getAsString()->str();
  if (!isIdentifier(arg.name))
    return error(field + ".name", "'" + arg.name + "' is not an identifier");
  if (Status s = member(*json, field, "kind", Value::String, kind))
    return s;
  llvm::StringRef kindName = *kind->getAsString();
  if (kindName == "ptr")
    arg.kind = ArgKind::Pointer;
  else if (kindName == "scalar")
    arg.kind = ArgKind::Scalar;
  else
    return error(field + ".kind", "expected \"ptr\" or \"scalar\", found \"" +
                                      kindName.str() + "\"");
  if (Status s = member(*json, field, "type", Value::String, type))
    return s;
  arg.type = type->getAsString()->str();
  if (arg.kind == ArgKind::Pointer && !kPointeeTypes.count(arg.type))
    return error(field + ".type", "unknown element type \"" + arg.type + "\"");
  if (arg.kind == ArgKind::Scalar && !kScalarTypes.count(arg.type))
    return error(field + ".type", "scalar type \"" + arg.type +
                                      "\" is not one of i32, i64, f32");
  return validateArgExtent(*json, field, arg);
}

Status ManifestValidator::validateArgExtent(const llvm::json::Object &json,
                                            const std::string &field,
                                            KernelArg &arg) {
  const Value *extent = json.get("extent");
  const Value *unknown;
  if (Status s = member(json, field, "extent_unknown", Value::String, unknown,
                        /*optional=*/true))
    return s;
  if (arg.kind == ArgKind::Scalar && (extent || unknown))
    return error(field, "a scalar argument has no extent");
  if (unknown)
    arg.extentUnknown = unknown->getAsString()->str();
  if (!extent || extent->kind() == Value::Null)
    return Status::success();
  std::string what;
  if (!validateLaunchExpr(*extent, what))
    return error(field + ".extent", what);
  arg.extent = *extent;
  return Status::success();
}

Status ManifestValidator::validateLaunch(const llvm::json::Object &json,
                                         const std::string &field,
                                         KernelInfo &kernel) {
  kernel.launch = json;
  const Value *role, *grid, *requirements;
  if (Status s =
          member(json, field, "role", Value::String, role, /*optional=*/true))
    return s;
  if (role)
    kernel.role = role->getAsString()->str();
  if (Status s = member(json, field, "requires", Value::Array, requirements,
                        /*optional=*/true))
    return s;
  for (size_t i = 0; requirements && i < requirements->getAsArray()->size();
       ++i) {
    const Value &condition = (*requirements->getAsArray())[i];
    if (Status s =
            launchRule(condition, llvm::formatv("{0}.requires[{1}]", field, i),
                       kernel, /*requirement=*/true))
      return s;
    kernel.requirements.push_back(condition);
  }
  const Value *freeGrid;
  if (Status s = member(json, field, "free_grid", Value::Boolean, freeGrid,
                        /*optional=*/true))
    return s;
  kernel.freeGrid = freeGrid && *freeGrid->getAsBoolean();
  if (Status s =
          member(json, field, "grid", Value::Array, grid, /*optional=*/true))
    return s;
  if (!grid)
    return freeGrid ? error(field + ".free_grid", "needs a grid")
                    : Status::success();
  const llvm::json::Array &entries = *grid->getAsArray();
  if (entries.size() != 3)
    return error(field + ".grid", "expected three entries");
  for (size_t d = 0; d < 3; ++d) {
    const Value &entry = entries[d];
    std::string entryField = llvm::formatv("{0}.grid[{1}]", field, d).str();
    GridExtent &extent = kernel.grid[d];
    // Which names a driver computes is the driver's business; the MLA
    // driver checks its kernels' grids when it selects them.
    if (std::optional<llvm::StringRef> name = entry.getAsString()) {
      if (name->empty())
        return error(entryField, "empty quantity name");
      extent.quantity = name->str();
      continue;
    }
    std::optional<int64_t> count = entry.getAsInteger();
    if (count && *count < 1)
      return error(entryField, "a fixed size is at least 1");
    if (Status s = launchRule(entry, entryField, kernel))
      return s;
    extent.rule = entry;
  }
  kernel.hasGrid = true;
  return Status::success();
}

/// Whether `expr` is ["eq", ["rem", {"arg": P}, C], 0] with C a power of
/// two up to 64: the one way a requirement may read a pointer argument.
static bool isAlignmentRequirement(const Value &expr) {
  const llvm::json::Array *eq = expr.getAsArray();
  if (!eq || eq->size() != 3 || (*eq)[0].getAsString() != "eq" ||
      (*eq)[2].getAsInteger() != 0)
    return false;
  const llvm::json::Array *rem = (*eq)[1].getAsArray();
  if (!rem || rem->size() != 3 || (*rem)[0].getAsString() != "rem" ||
      !(*rem)[1].getAsObject())
    return false;
  std::optional<int64_t> divisor = (*rem)[2].getAsInteger();
  return divisor && *divisor > 0 && *divisor <= kMaxPointerAlignment &&
         llvm::isPowerOf2_64(*divisor);
}

/// A grid rule or requirement: an expression of the kernel's integer
/// scalar arguments, and for a requirement, a pointer argument's alignment.
Status ManifestValidator::launchRule(const Value &expr,
                                     const std::string &field,
                                     const KernelInfo &kernel,
                                     bool requirement) {
  std::string what;
  if (!validateLaunchExpr(expr, what))
    return error(field, what);
  if (readsGrid(expr))
    return error(field, "reads the grid, which it decides");
  for (const std::string &name : argumentsOf(expr)) {
    auto arg = llvm::find_if(
        kernel.args, [&](const KernelArg &arg) { return arg.name == name; });
    if (arg != kernel.args.end() && arg->kind == ArgKind::Scalar &&
        arg->type != "f32")
      continue;
    if (requirement && arg != kernel.args.end() &&
        arg->kind == ArgKind::Pointer) {
      if (isAlignmentRequirement(expr))
        continue;
      return error(field, "reads pointer '" + name +
                              "' other than as 'P % C == 0', C a power of "
                              "two up to " +
                              std::to_string(kMaxPointerAlignment));
    }
    return error(field, "'" + name + "' is not an integer scalar argument");
  }
  return Status::success();
}

Status parseManifest(std::string_view text, const std::string &path,
                     Manifest &manifest) {
  Value root = nullptr;
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
  const Value *json = kernel.launch.get(key);
  if (!json)
    return Status::success();
  std::optional<int64_t> number = getNonNegativeInteger(*json);
  if (!number || *number < minimum)
    return Status::failure(
        manifest.path, llvm::formatv("kernel '{0}': launch.{1}: expected an "
                                     "integer >= {2}",
                                     kernel.symbol, key, minimum));
  value = *number;
  return Status::success();
}

Status readLaunchString(const Manifest &manifest, const KernelInfo &kernel,
                        const char *key, std::optional<std::string> &value) {
  value.reset();
  const Value *json = kernel.launch.get(key);
  if (!json)
    return Status::success();
  std::optional<llvm::StringRef> text = json->getAsString();
  if (!text)
    return Status::failure(
        manifest.path,
        llvm::formatv("kernel '{0}': launch.{1}: expected a string",
                      kernel.symbol, key));
  value = text->str();
  return Status::success();
}

} // namespace mla::runtime
