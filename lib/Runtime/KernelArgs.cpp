//===- KernelArgs.cpp - Kernel arguments from the command line ------------===//

#include "mla/Runtime/KernelArgs.h"
#include "mla/Runtime/HostMemory.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sys/stat.h>
#include <utility>

namespace mla::runtime {

/// The largest buffer `empty:` creates; a typo in a shape should fail with a
/// message, not exhaust memory.
constexpr uint64_t kMaxEmptyBytes = uint64_t(1) << 40;

/// Parses unsigned decimal digits and nothing else into `value`.
static bool parseDigits(const std::string &text, int64_t &value) {
  if (text.empty() || !std::all_of(text.begin(), text.end(),
                                   [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  errno = 0;
  long long parsed = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE)
    return false;
  value = parsed;
  return true;
}

bool parseShape(const std::string &text, std::vector<int64_t> &shape) {
  std::vector<int64_t> result;
  size_t start = 0;
  while (true) {
    size_t separator = text.find('x', start);
    int64_t dim;
    if (!parseDigits(text.substr(start, separator - start), dim))
      return false;
    result.push_back(dim);
    if (separator == std::string::npos)
      break;
    start = separator + 1;
  }
  shape = std::move(result);
  return true;
}

bool getElementLayout(const std::string &type, ElementLayout &layout) {
  static const std::pair<const char *, ElementLayout> kLayouts[] = {
      {"f32", {NpyDType::Float32, NpyDType::Float32, 0xFFFFFFFF}},
      {"bf16", {NpyDType::UInt16, NpyDType::UInt16, 0xFFFF}},
      {"f16", {NpyDType::Float16, NpyDType::UInt16, 0xFFFF}},
      {"i32", {NpyDType::Int32, NpyDType::Int32, 0x7FFFFFFF}},
      {"i64", {NpyDType::Int64, NpyDType::Int64, 0x7FFFFFFFFFFFFFFF}},
      {"i8", {NpyDType::Int8, NpyDType::UInt8, 0x7F}},
      {"f8E4M3FNUZ", {NpyDType::UInt8, NpyDType::Int8, 0x80}},
      {"f8E4M3FN", {NpyDType::UInt8, NpyDType::Int8, 0xFF}},
      {"f8E8M0FNU", {NpyDType::UInt8, NpyDType::Int8, 0xFF}},
  };
  for (const auto &[name, entry] : kLayouts)
    if (type == name) {
      layout = entry;
      return true;
    }
  return false;
}

/// "ptr bf16" or "scalar i32".
static std::string spellType(const KernelArg &arg) {
  return (arg.kind == ArgKind::Pointer ? "ptr " : "scalar ") + arg.type;
}

/// "kernel 'gemm' takes ptr bf16 'a'", the end of every message about an
/// argument's value.
static std::string describeArg(const KernelInfo &kernel, const KernelArg &arg) {
  return "kernel '" + kernel.symbol + "' takes " + spellType(arg) + " '" +
         arg.name + "'";
}

/// The error for `name`, given with flag `subject`, when `kernel` has no
/// argument of that name.
static Status unknownArg(const std::string &subject, const KernelInfo &kernel,
                         const std::string &name) {
  std::string list;
  for (const KernelArg &arg : kernel.args)
    list += (list.empty() ? "" : ", ") + arg.name;
  return Status::failure(
      subject, "kernel '" + kernel.symbol + "' has no argument '" + name +
                   "' (its arguments: " + (list.empty() ? "none" : list) + ")");
}

/// The argument of `kernel` named `name`, or null.
static const KernelArg *lookupArg(const KernelInfo &kernel,
                                  const std::string &name) {
  for (const KernelArg &arg : kernel.args)
    if (arg.name == name)
      return &arg;
  return nullptr;
}

Status parseScalar(const KernelInfo &kernel, const KernelArg &arg,
                   const std::string &text, ScalarValue &value) {
  auto fail = [&](const char *what) {
    return Status::failure("--arg " + arg.name,
                           "'" + text + "' " + what + " (" +
                               describeArg(kernel, arg) + ")");
  };
  // strtoll and strtof skip leading spaces, which a value should not have.
  bool startsWell =
      !text.empty() && !std::isspace(static_cast<unsigned char>(text[0]));
  char *end = nullptr;
  errno = 0;
  if (arg.type == "f32") {
    float parsed = std::strtof(text.c_str(), &end);
    if (!startsWell || *end != '\0')
      return fail("is not a number");
    if (errno == ERANGE && std::isinf(parsed))
      return fail("is out of range");
    value.f32 = parsed;
    return Status::success();
  }
  long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (!startsWell || *end != '\0')
    return fail("is not an integer");
  if (arg.type == "i64") {
    if (errno == ERANGE)
      return fail("is out of range");
    value.i64 = parsed;
    return Status::success();
  }
  if (errno == ERANGE || parsed < INT32_MIN || parsed > INT32_MAX)
    return fail("is out of range");
  value.i32 = static_cast<int32_t>(parsed);
  return Status::success();
}

Status findKernel(const Manifest &manifest, const std::string &symbol,
                  const KernelInfo *&kernel) {
  std::string list;
  for (const KernelInfo &candidate : manifest.kernels) {
    if (candidate.symbol == symbol) {
      kernel = &candidate;
      return Status::success();
    }
    list += (list.empty() ? "" : ", ") + candidate.symbol;
  }
  return Status::failure(manifest.path,
                         "no kernel '" + symbol + "' (the module has " +
                             (list.empty() ? "none" : list) + ")");
}

/// The bytes of a buffer of `shape` and `layout`; nullopt when more than
/// kMaxEmptyBytes.
static std::optional<uint64_t> bufferBytes(const ElementLayout &layout,
                                           const std::vector<int64_t> &shape) {
  uint64_t bytes = npyItemSize(layout.dtype);
  for (int64_t dim : shape) {
    if (dim != 0 && bytes > kMaxEmptyBytes / static_cast<uint64_t>(dim))
      return std::nullopt;
    bytes *= static_cast<uint64_t>(dim);
  }
  return bytes;
}

/// A buffer of `shape`, `bytes` long, filled with the poison of `layout`.
static void createPoisoned(const ElementLayout &layout,
                           const std::vector<int64_t> &shape, uint64_t bytes,
                           NpyArray &array) {
  uint64_t itemSize = npyItemSize(layout.dtype);
  array.dtype = layout.dtype;
  array.shape = shape;
  array.bytes.resize(bytes);
  for (uint64_t i = 0; i < bytes; ++i)
    array.bytes[i] =
        static_cast<uint8_t>(layout.poison >> (8 * (i % itemSize)));
}

/// Interprets `value` as the buffer of pointer argument `arg`.
static Status bindBuffer(const KernelInfo &kernel, const KernelArg &arg,
                         const std::string &value, NpyArray &buffer) {
  std::string subject = "--arg " + arg.name;
  std::string described = " (" + describeArg(kernel, arg) + ")";
  ElementLayout layout;
  if (!getElementLayout(arg.type, layout))
    return Status::failure(subject, "no .npy dtype holds " + arg.type +
                                        " elements" + described);
  if (!value.empty() && value[0] == '@') {
    std::string path = value.substr(1);
    if (path.empty())
      return Status::failure(subject, "'@' names no file" + described);
    NpyArray array;
    if (Status s = readNpy(path, array))
      return s;
    if (array.dtype != layout.dtype && array.dtype != layout.alternative) {
      std::string expected = npyDTypeName(layout.dtype);
      if (layout.alternative != layout.dtype)
        expected += std::string(" or ") + npyDTypeName(layout.alternative);
      return Status::failure(path,
                             llvm::formatv("dtype {0}, expected {1}",
                                           npyDTypeName(array.dtype), expected)
                                     .str() +
                                 described);
    }
    buffer = std::move(array);
    return Status::success();
  }
  const std::string prefix = "empty:";
  if (value.compare(0, prefix.size(), prefix) != 0)
    return Status::failure(subject, "'" + value +
                                        "' is not @FILE.npy or "
                                        "empty:D0xD1x..." +
                                        described);
  std::vector<int64_t> shape;
  if (!parseShape(value.substr(prefix.size()), shape))
    return Status::failure(subject, "'" + value +
                                        "' is not a shape: expected "
                                        "empty:D0xD1x..., each D an integer "
                                        ">= 0" +
                                        described);
  std::optional<uint64_t> bytes = bufferBytes(layout, shape);
  if (!bytes)
    return Status::failure(subject, "'" + value + "' is more than 2^40 bytes" +
                                        described);
  uint64_t available = physicalMemoryBytes();
  if (*bytes > available)
    return Status::failure(
        subject,
        llvm::formatv("'{0}' needs {1:F1} GiB, more than the {2:F1} "
                      "GiB of memory of this machine",
                      value, *bytes / 1073741824.0, available / 1073741824.0)
                .str() +
            described);
  createPoisoned(layout, shape, *bytes, buffer);
  return Status::success();
}

Status bindArgs(const KernelInfo &kernel, const std::vector<ArgSpec> &specs,
                std::vector<BoundArg> &bound) {
  std::vector<const ArgSpec *> specOf(kernel.args.size(), nullptr);
  for (const ArgSpec &spec : specs) {
    const KernelArg *arg = lookupArg(kernel, spec.name);
    if (!arg)
      return unknownArg("--arg " + spec.name, kernel, spec.name);
    const ArgSpec *&slot = specOf[arg - kernel.args.data()];
    if (slot)
      return Status::failure("--arg " + spec.name,
                             "argument '" + spec.name + "' of kernel '" +
                                 kernel.symbol + "' is bound more than once");
    slot = &spec;
  }
  for (size_t i = 0; i < kernel.args.size(); ++i)
    if (!specOf[i])
      return Status::failure("--arg", "argument '" + kernel.args[i].name +
                                          "' (" + spellType(kernel.args[i]) +
                                          ") of kernel '" + kernel.symbol +
                                          "' is not bound");

  std::vector<BoundArg> result(kernel.args.size());
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    const KernelArg &arg = kernel.args[i];
    result[i].arg = &arg;
    Status s =
        arg.kind == ArgKind::Scalar
            ? parseScalar(kernel, arg, specOf[i]->value, result[i].scalar)
            : bindBuffer(kernel, arg, specOf[i]->value, result[i].buffer);
    if (s)
      return s;
  }
  bound = std::move(result);
  return Status::success();
}

Status checkSaves(const KernelInfo &kernel,
                  const std::vector<SaveSpec> &saves) {
  for (size_t i = 0; i < saves.size(); ++i) {
    const SaveSpec &save = saves[i];
    std::string subject = "--save " + save.name;
    const KernelArg *arg = lookupArg(kernel, save.name);
    if (!arg)
      return unknownArg(subject, kernel, save.name);
    if (arg->kind != ArgKind::Pointer)
      return Status::failure(
          subject, "argument '" + save.name + "' of kernel '" + kernel.symbol +
                       "' is " + spellType(*arg) + ", not a buffer");
    for (size_t j = 0; j < i; ++j)
      if (saves[j].name == save.name)
        return Status::failure(subject, "given more than once");
    size_t slash = save.path.rfind('/');
    std::string directory =
        slash == std::string::npos ? "." : save.path.substr(0, slash + 1);
    struct stat info;
    if (stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
      return Status::failure(subject,
                             "directory '" + directory + "' does not exist");
  }
  return Status::success();
}

} // namespace mla::runtime
