//===- AbiRecord.cpp - What a binary says about its kernels ---------------===//

#include "mla/Runtime/AbiRecord.h"
#include "mla/Runtime/Json.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>

namespace mla::runtime {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

/// `value` as compact JSON, for messages.
static std::string print(const Value &value) {
  return llvm::formatv("{0}", value).str();
}

/// "ptr bf16 'q'".
static std::string spell(llvm::StringRef kind, llvm::StringRef type,
                         llvm::StringRef name) {
  return (kind + " " + type + " '" + name + "'").str();
}

namespace {

/// Compares one manifest's kernels with the record of its binary.
class RecordChecker {
public:
  RecordChecker(const Manifest &manifest, const std::string &binaryPath)
      : manifest(manifest), binaryPath(binaryPath) {}

  Status check(const Value &root);

private:
  Status malformed(const std::string &what) const {
    return Status::failure(binaryPath, "malformed ABI record: " + what);
  }

  /// `field` of the manifest is `given` where the binary has `recorded`.
  Status mismatch(const std::string &field, const std::string &given,
                  const std::string &recorded) const {
    return Status::failure(manifest.path, field + ": " + given +
                                              " does not match the binary (" +
                                              recorded + ")");
  }

  Status checkKernel(const KernelInfo &kernel, const Object &recorded,
                     const std::string &field) const;
  Status checkArgs(const KernelInfo &kernel, const Object &recorded,
                   const std::string &field) const;
  Status checkLaunch(const KernelInfo &kernel, const Object &recorded,
                     const std::string &field) const;

  const Manifest &manifest;
  const std::string &binaryPath;
};

} // namespace

Status RecordChecker::check(const Value &root) {
  const Object *record = root.getAsObject();
  if (!record)
    return malformed("not an object");
  const Value *versionValue = record->get("version");
  std::optional<int64_t> version =
      versionValue ? getNonNegativeInteger(*versionValue) : std::nullopt;
  if (!version)
    return malformed("no version");
  if (*version != kAbiRecordVersion)
    return Status::failure(
        binaryPath, llvm::formatv("ABI record version {0}, this mla-run reads "
                                  "version {1} (compile the module again, or "
                                  "use the mla-run that came with it)",
                                  *version, kAbiRecordVersion));
  std::optional<llvm::StringRef> target = record->getString("target");
  const Array *kernels = record->getArray("kernels");
  if (!target || !kernels)
    return malformed("no target or no kernels");
  if (*target != manifest.target)
    return mismatch("target", "'" + manifest.target + "'",
                    "'" + target->str() + "'");

  std::map<std::string, const Object *, std::less<>> bySymbol;
  for (const Value &entry : *kernels) {
    const Object *kernel = entry.getAsObject();
    std::optional<llvm::StringRef> symbol =
        kernel ? kernel->getString("symbol") : std::nullopt;
    if (!symbol)
      return malformed("a kernel without a symbol");
    bySymbol[symbol->str()] = kernel;
  }
  for (size_t i = 0; i < manifest.kernels.size(); ++i) {
    const KernelInfo &kernel = manifest.kernels[i];
    std::string field = llvm::formatv("kernels[{0}]", i).str();
    auto found = bySymbol.find(kernel.symbol);
    if (found == bySymbol.end())
      return Status::failure(manifest.path,
                             field + ".symbol: '" + kernel.symbol +
                                 "' is not a kernel of " + binaryPath);
    if (Status s = checkKernel(kernel, *found->second, field))
      return s;
  }
  return Status::success();
}

Status RecordChecker::checkKernel(const KernelInfo &kernel,
                                  const Object &recorded,
                                  const std::string &field) const {
  if (Status s = checkArgs(kernel, recorded, field))
    return s;
  // A kernel whose IR declares no workgroup size has none recorded.
  if (const Value *size = recorded.get("workgroup_size")) {
    const Array *extents = size->getAsArray();
    if (!extents || extents->size() != 3)
      return malformed("workgroup_size of '" + kernel.symbol + "'");
    Array given;
    for (int64_t extent : kernel.workgroupSize)
      given.push_back(extent);
    if (*extents != given)
      return mismatch(field + ".workgroup_size", print(Value(std::move(given))),
                      print(*size));
  }
  return checkLaunch(kernel, recorded, field);
}

Status RecordChecker::checkArgs(const KernelInfo &kernel,
                                const Object &recorded,
                                const std::string &field) const {
  const Array *args = recorded.getArray("args");
  if (!args)
    return malformed("no args for '" + kernel.symbol + "'");
  for (size_t i = 0; i < std::min(args->size(), kernel.args.size()); ++i) {
    const KernelArg &arg = kernel.args[i];
    const Object *entry = (*args)[i].getAsObject();
    std::optional<llvm::StringRef> name, kind, type;
    if (entry) {
      name = entry->getString("name");
      kind = entry->getString("kind");
      type = entry->getString("type");
    }
    if (!name || !kind || !type)
      return malformed("an argument of '" + kernel.symbol + "'");
    llvm::StringRef givenKind = arg.kind == ArgKind::Pointer ? "ptr" : "scalar";
    if (*name != arg.name || *kind != givenKind || *type != arg.type)
      return mismatch(llvm::formatv("{0}.args[{1}]", field, i),
                      spell(givenKind, arg.type, arg.name),
                      spell(*kind, *type, *name));
    // The launch checks buffers against the extent: an edited one must not
    // let a small buffer through.
    const Value *recordedExtent = entry->get("extent");
    Value recorded = recordedExtent ? *recordedExtent : Value(nullptr);
    Value given = arg.extent ? *arg.extent : Value(nullptr);
    if (recorded != given)
      return mismatch(llvm::formatv("{0}.args[{1}].extent", field, i),
                      llvm::formatv("{0}", given).str(),
                      llvm::formatv("{0}", recorded).str());
  }
  if (args->size() != kernel.args.size())
    return Status::failure(
        manifest.path,
        llvm::formatv("{0}.args: {1} arguments, the binary's kernel takes {2}",
                      field, kernel.args.size(), args->size()));
  return Status::success();
}

Status RecordChecker::checkLaunch(const KernelInfo &kernel,
                                  const Object &recorded,
                                  const std::string &field) const {
  static const Object kNone;
  const Value *launchValue = recorded.get("launch");
  const Object *launch = launchValue ? launchValue->getAsObject() : &kNone;
  if (!launch)
    return malformed("launch of '" + kernel.symbol + "'");
  // Every key either side has, in a stable order.
  std::set<std::string> keys;
  for (const Object *object : {&kernel.launch, launch})
    for (const auto &member : *object)
      keys.insert(member.first.str());
  for (const std::string &key : keys) {
    const Value *given = kernel.launch.get(key);
    const Value *expected = launch->get(key);
    if (given && expected && *given == *expected)
      continue;
    std::string keyField = field + ".launch." + key;
    if (!given)
      return Status::failure(manifest.path, keyField +
                                                ": absent, the binary has " +
                                                print(*expected));
    if (!expected)
      return Status::failure(manifest.path, keyField + ": " + print(*given) +
                                                ", absent from the binary");
    return mismatch(keyField, print(*given), print(*expected));
  }
  return Status::success();
}

Status checkAbiRecord(std::string_view record, const std::string &binaryPath,
                      const Manifest &manifest) {
  std::string_view text = record.substr(0, record.find('\0'));
  Value root = nullptr;
  if (Status s = parseJson(text, "ABI record", root))
    return Status::failure(binaryPath, s.message());
  return RecordChecker(manifest, binaryPath).check(root);
}

Status missingAbiRecord(const std::string &binaryPath) {
  return Status::failure(binaryPath,
                         std::string("has no ABI record (") + kAbiRecordSymbol +
                             "): it was not written by this mla-compile; "
                             "compile it again");
}

} // namespace mla::runtime
