//===- MlaDriver.cpp - Run MLA decode kernels of a module -----------------===//

#include "mla/Decode/MlaDriver.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>
#include <iterator>

using namespace mla::runtime;

namespace mla::decode {

constexpr const char *kPartialRole = "mla.partial";
constexpr const char *kCombineRole = "mla.combine";
/// Upper bounds on the launch keys: beyond them a value is a mistake, not a
/// tiling, and they keep the plan's arithmetic far from overflow.
constexpr int64_t kMaxKvTile = 1 << 16;
constexpr int64_t kMaxBlockRows = 1 << 16;
constexpr int64_t kMaxSplitsLimit = 1 << 10;
/// A program's start-up and tail latency, as bytes of traffic it could have
/// moved meanwhile.
constexpr int64_t kProgramLatencyBytes = 32 * 1024;

namespace {

/// The launch keys of an MLA kernel that selection reads.
struct MlaLaunchKeys {
  std::optional<std::string> kvDType;
  std::optional<int64_t> heads;
  std::optional<int64_t> kvTile;
  std::optional<int64_t> blockRows;
  std::optional<int64_t> maxSplits;
};

/// An argument the driver binds by name: what it passes, and the kind and
/// element type the argument must have for the problem's KV format.
struct ArgBinding {
  const char *name;
  MlaArg role;
  ArgKind kind;
  /// Null where it depends on the KV format (kvElementType).
  const char *type;
};

} // namespace

/// docs/ABI.md's argument table, in the order messages list the names.
static const ArgBinding kBindings[] = {
    {"q", MlaArg::Q, ArgKind::Pointer, "bf16"},
    {"kv", MlaArg::Kv, ArgKind::Pointer, nullptr},
    {"kv_scale", MlaArg::KvScale, ArgKind::Pointer, nullptr},
    {"scale_stride", MlaArg::ScaleStride, ArgKind::Scalar, "i32"},
    {"qo_indptr", MlaArg::QoIndptr, ArgKind::Pointer, "i32"},
    {"kv_indptr", MlaArg::KvIndptr, ArgKind::Pointer, "i32"},
    {"work", MlaArg::Work, ArgKind::Pointer, "i32"},
    {"work_indptr", MlaArg::WorkIndptr, ArgKind::Pointer, "i32"},
    {"combine", MlaArg::Combine, ArgKind::Pointer, "i32"},
    {"part_out", MlaArg::PartOut, ArgKind::Pointer, "f32"},
    {"part_lse", MlaArg::PartLse, ArgKind::Pointer, "f32"},
    {"out", MlaArg::Out, ArgKind::Pointer, "bf16"},
    {"sm_scale", MlaArg::SmScale, ArgKind::Scalar, "f32"},
    {"heads", MlaArg::Heads, ArgKind::Scalar, "i32"},
};

/// The element type of the KV cache (`role` Kv) or of its scales (KvScale)
/// in format `kvDType`.
static const char *kvElementType(MlaArg role, KvDType kvDType) {
  if (role == MlaArg::KvScale)
    return isFp8(kvDType) ? "f32" : "f8E8M0FNU";
  return kvDType == KvDType::BF16       ? "bf16"
         : kvDType == KvDType::FP8      ? "f8E4M3FN"
         : kvDType == KvDType::FP8_FNUZ ? "f8E4M3FNUZ"
                                        : "i8";
}

/// Reads launch.KEY of `kernel` when present: an integer in
/// [1, `maximum`].
static Status readBoundedKey(const Manifest &manifest, const KernelInfo &kernel,
                             const char *key, int64_t maximum,
                             std::optional<int64_t> &value) {
  if (Status s = readLaunchInteger(manifest, kernel, key, 1, value))
    return s;
  if (value && *value > maximum)
    return Status::failure(
        manifest.path,
        llvm::formatv("kernel '{0}': launch.{1}: {2} is more than {3}",
                      kernel.symbol, key, *value, maximum)
            .str());
  return Status::success();
}

/// Fails, saying that `kernel`'s role needs launch.KEY, unless `present`.
static Status requireKey(const KernelInfo &kernel, const char *key,
                         bool present) {
  if (present)
    return Status::success();
  return Status::failure(kernel.location, "kernel '" + kernel.symbol +
                                              "': " + kernel.role +
                                              " needs launch." + key);
}

/// Reads the launch keys selection uses and checks what every kernel of the
/// role needs: heads (partial) and one program per item of the role's
/// quantity.
static Status readMlaLaunchKeys(const Manifest &manifest,
                                const KernelInfo &kernel, MlaLaunchKeys &keys) {
  if (Status s = readLaunchString(manifest, kernel, "kv_dtype", keys.kvDType))
    return s;
  if (Status s = readLaunchInteger(manifest, kernel, "heads", 1, keys.heads))
    return s;
  if (Status s =
          readBoundedKey(manifest, kernel, "kv_tile", kMaxKvTile, keys.kvTile))
    return s;
  if (Status s = readBoundedKey(manifest, kernel, "block_rows", kMaxBlockRows,
                                keys.blockRows))
    return s;
  if (Status s = readBoundedKey(manifest, kernel, "max_splits", kMaxSplitsLimit,
                                keys.maxSplits))
    return s;
  bool partial = kernel.role == kPartialRole;
  // A partial kernel learns the head count from its `heads` argument, or
  // serves only launch.heads.
  if (partial && !keys.heads &&
      llvm::none_of(kernel.args,
                    [](const KernelArg &arg) { return arg.name == "heads"; }))
    return Status::failure(kernel.location,
                           "kernel '" + kernel.symbol + "': " + kernel.role +
                               " needs a 'heads' argument or launch.heads");
  if (Status s = requireKey(kernel, "grid", kernel.hasGrid))
    return s;
  const char *quantity = partial ? "programs" : "combine_items";
  const std::array<GridExtent, 3> &grid = kernel.grid;
  // Before work_indptr, a partial program ran one work item.
  if (partial && grid[0].quantity == "work_items")
    return Status::failure(
        kernel.location,
        llvm::formatv("kernel '{0}': launch.grid [\"work_items\", 1, 1] is "
                      "the launch rule of an older mla-compile (one program "
                      "per work item); recompile the module, whose partial "
                      "kernels now run [\"programs\", 1, 1] over work_indptr",
                      kernel.symbol)
            .str());
  for (size_t d = 0; d < 3; ++d) {
    const std::string &name = grid[d].quantity;
    if (!name.empty() && name != quantity)
      return Status::failure(
          kernel.location,
          llvm::formatv("kernel '{0}': launch.grid[{1}]: unknown quantity "
                        "\"{2}\" (the MLA driver computes {3} for {4})",
                        kernel.symbol, d, name, quantity, kernel.role)
              .str());
  }
  // A fixed count in x would run programs the plan does not have; one in y
  // or z would run every program that many times over.
  const llvm::json::Value one = 1;
  if (grid[0].quantity != quantity || !grid[1].quantity.empty() ||
      grid[1].rule != one || !grid[2].quantity.empty() || grid[2].rule != one)
    return Status::failure(
        kernel.location,
        llvm::formatv("kernel '{0}': launch.grid: expected [\"{1}\", 1, 1] "
                      "(one {2} program per {3})",
                      kernel.symbol, quantity, kernel.role,
                      partial ? "run of work items" : "combine item")
            .str());
  return Status::success();
}

/// "bf16/16, mxfp4/32" for the kernels of `role`, to say what the module
/// offers.
static std::string describeAvailable(const Manifest &manifest,
                                     const char *role) {
  std::vector<std::string> offered;
  for (const KernelInfo &kernel : manifest.kernels) {
    if (kernel.role != role)
      continue;
    MlaLaunchKeys keys;
    if (readMlaLaunchKeys(manifest, kernel, keys))
      continue;
    std::string entry = keys.kvDType.value_or("any") + "/" +
                        (keys.heads ? std::to_string(*keys.heads) : "any");
    if (!llvm::is_contained(offered, entry))
      offered.push_back(entry);
  }
  return offered.empty() ? "none" : llvm::join(offered, ", ");
}

/// Finds the kernel of `role` for the dtype and head count. Of several
/// that differ in launch.block_rows, the one with the fewest rows that
/// still hold `rows` (a program then takes all of a sequence's query rows
/// at once, with the least padding), else the one with the most.
static Status selectKernel(const Manifest &manifest, const char *role,
                           KvDType kvDType, int64_t heads, int64_t rows,
                           bool requireDType, const KernelInfo *&selected,
                           MlaLaunchKeys &selectedKeys) {
  selected = nullptr;
  // How well `keys` fits: holding the rows beats not; then fewer rows if
  // they hold them, else more.
  auto better = [&](const MlaLaunchKeys &keys, const MlaLaunchKeys &than) {
    int64_t a = keys.blockRows.value_or(0), b = than.blockRows.value_or(0);
    if ((a >= rows) != (b >= rows))
      return a >= rows;
    return a >= rows ? a < b : a > b;
  };
  for (const KernelInfo &kernel : manifest.kernels) {
    if (kernel.role != role)
      continue;
    MlaLaunchKeys keys;
    if (Status s = readMlaLaunchKeys(manifest, kernel, keys))
      return s;
    if (requireDType && !keys.kvDType)
      return Status::failure(kernel.location, "kernel '" + kernel.symbol +
                                                  "': " + role +
                                                  " needs launch.kv_dtype");
    if ((keys.heads && *keys.heads != heads) ||
        (keys.kvDType && *keys.kvDType != kvDTypeName(kvDType)))
      continue;
    if (selected && keys.blockRows == selectedKeys.blockRows)
      return Status::failure(
          manifest.path,
          llvm::formatv("kernels '{0}' and '{1}' both match {2} "
                        "for kv_dtype {3} and {4} heads with the same "
                        "block_rows",
                        selected->symbol, kernel.symbol, role,
                        kvDTypeName(kvDType), heads)
              .str());
    if (!selected || better(keys, selectedKeys)) {
      selected = &kernel;
      selectedKeys = keys;
    }
  }
  if (!selected)
    return Status::failure(
        manifest.path,
        llvm::formatv("no {0} kernel for kv_dtype {1} and {2} heads (the "
                      "module has {3})",
                      role, kvDTypeName(kvDType), heads,
                      describeAvailable(manifest, role))
            .str());
  return Status::success();
}

/// Maps `arg` of `kernel` to what the driver binds, checking its kind and
/// element type against the ABI table for `kvDType`.
static Status resolveArg(const KernelInfo &kernel, const KernelArg &arg,
                         KvDType kvDType, ArgBinding &binding) {
  auto error = [&](const std::string &what) {
    return Status::failure(arg.location, "kernel '" + kernel.symbol +
                                             "': argument '" + arg.name + "' " +
                                             what);
  };
  const ArgBinding *known =
      llvm::find_if(kBindings, [&](const ArgBinding &candidate) {
        return arg.name == candidate.name;
      });
  if (known == std::end(kBindings)) {
    std::string names;
    for (const ArgBinding &candidate : kBindings)
      names += (names.empty() ? "" : ", ") + std::string(candidate.name);
    return error("is unknown to the MLA driver (it binds " + names + ")");
  }
  if (known->role == MlaArg::KvScale && kvDType == KvDType::BF16)
    return error("has no meaning for kv dtype bf16 (it has no scales)");
  if (known->role == MlaArg::ScaleStride && kvDType != KvDType::MXFP4)
    return error(std::string("has no meaning for kv dtype ") +
                 kvDTypeName(kvDType) + " (only mxfp4 has a scale tensor)");
  binding = *known;
  if (!binding.type)
    binding.type = kvElementType(binding.role, kvDType);
  if (arg.kind == binding.kind && arg.type == binding.type)
    return Status::success();
  auto spell = [](ArgKind kind, const std::string &type) {
    return (kind == ArgKind::Pointer ? "ptr " : "scalar ") + type;
  };
  return error(llvm::formatv("is {0}, expected {1} for kv dtype {2}",
                             spell(arg.kind, arg.type),
                             spell(binding.kind, binding.type),
                             kvDTypeName(kvDType))
                   .str());
}

/// Checks that every argument of `kernel` resolves.
static Status checkArguments(const KernelInfo &kernel, KvDType kvDType) {
  for (const KernelArg &arg : kernel.args) {
    ArgBinding binding;
    if (Status s = resolveArg(kernel, arg, kvDType, binding))
      return s;
  }
  return Status::success();
}

/// Fails unless `kernel` has an argument named `name`, which its role
/// needs.
static Status requireArgument(const KernelInfo &kernel, const char *name) {
  for (const KernelArg &arg : kernel.args)
    if (arg.name == name)
      return Status::success();
  return Status::failure(kernel.location,
                         "kernel '" + kernel.symbol + "': " + kernel.role +
                             " has no '" + name + "' argument");
}

Status selectMlaKernels(const Manifest &manifest, KvDType kvDType,
                        int64_t heads, int64_t queryRows, MlaKernels &kernels) {
  MlaKernels result;
  MlaLaunchKeys partialKeys, combineKeys;
  if (Status s =
          selectKernel(manifest, kPartialRole, kvDType, heads, queryRows,
                       /*requireDType=*/true, result.partial, partialKeys))
    return s;
  if (Status s =
          selectKernel(manifest, kCombineRole, kvDType, heads, queryRows,
                       /*requireDType=*/false, result.combine, combineKeys))
    return s;
  if (Status s = requireKey(*result.partial, "kv_tile",
                            partialKeys.kvTile.has_value()))
    return s;
  if (Status s = requireKey(*result.partial, "block_rows",
                            partialKeys.blockRows.has_value()))
    return s;
  if (Status s = requireKey(*result.combine, "block_rows",
                            combineKeys.blockRows.has_value()))
    return s;
  result.kvTile = *partialKeys.kvTile;
  result.blockRows = *partialKeys.blockRows;
  result.combineBlockRows = *combineKeys.blockRows;
  result.maxSplits = partialKeys.maxSplits.value_or(kDefaultMaxSplits);
  for (const KernelInfo *kernel : {result.partial, result.combine})
    if (Status s = checkArguments(*kernel, kvDType))
      return s;
  // The partial kernel writes single-split rows to out and the others to
  // the partial buffers, which the combine kernel merges into out.
  for (const char *name :
       {"work", "work_indptr", "out", "part_out", "part_lse"})
    if (Status s = requireArgument(*result.partial, name))
      return s;
  for (const char *name : {"combine", "out", "part_out", "part_lse"})
    if (Status s = requireArgument(*result.combine, name))
      return s;
  kernels = result;
  return Status::success();
}

PlanOptions planOptionsFor(const MlaProblem &problem, const MlaKernels &kernels,
                           PlanMode mode, int64_t parallelism) {
  PlanOptions options;
  options.mode = mode;
  options.heads = problem.heads;
  options.kvTile = kernels.kvTile;
  options.blockRows = kernels.blockRows;
  options.combineBlockRows = kernels.combineBlockRows;
  options.maxSplits = kernels.maxSplits;
  options.parallelism = parallelism;
  options.kvRowBytes = problem.kvRowBytes();
  if (problem.kvDType == KvDType::MXFP4)
    options.kvRowBytes += kMxScalesPerRow;
  options.queryRowBytes = kQkDim * 2;
  options.outRowBytes = kVDim * 2;
  options.partialRowBytes = (kVDim + 1) * 4;
  options.programLatencyBytes = kProgramLatencyBytes;
  return options;
}

MlaDriver::MlaDriver(Backend &backend, const MlaKernels &kernels,
                     const MlaProblem &problem, const LaunchPlan &plan)
    : backend(backend), kernels(kernels), problem(problem), plan(plan) {}

Status MlaDriver::prepare() {
  if (Status s = bindKernel(*kernels.partial, partial))
    return s;
  return bindKernel(*kernels.combine, combine);
}

Status MlaDriver::bindKernel(const KernelInfo &kernel, BoundKernel &bound) {
  bound.kernel = &kernel;
  if (Status s = computeGrid(kernel, bound.grid))
    return s;
  bound.slots.assign(kernel.args.size(), ArgSlot{nullptr});
  bound.args.assign(kernel.args.size(), nullptr);
  bound.roles.assign(kernel.args.size(), MlaArg::NumArgs);
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    ArgBinding binding;
    if (Status s = resolveArg(kernel, kernel.args[i], problem.kvDType, binding))
      return s;
    ArgSlot &slot = bound.slots[i];
    bound.args[i] = &slot;
    bound.roles[i] = binding.role;
    if (binding.role == MlaArg::ScaleStride) {
      slot.i32 = static_cast<int32_t>(problem.scaleStride);
      continue;
    }
    if (binding.role == MlaArg::SmScale) {
      slot.f32 = problem.smScale;
      continue;
    }
    if (binding.role == MlaArg::Heads) {
      slot.i32 = static_cast<int32_t>(problem.heads);
      continue;
    }
    if (Status s = materialize(binding.role))
      return s;
    slot.pointer = buffers[static_cast<size_t>(binding.role)].get();
  }
  return Status::success();
}

Status MlaDriver::computeGrid(const KernelInfo &kernel,
                              std::array<int64_t, 3> &grid) {
  // selectMlaKernels has checked the rule: [quantity, 1, 1].
  size_t items = kernel.grid[0].quantity == "programs"
                     ? static_cast<size_t>(plan.programs())
                     : plan.combineItems.size();
  if (items > static_cast<size_t>(kMaxGridX))
    return Status::failure(
        kernel.location,
        llvm::formatv("kernel '{0}': {1} programs, more than {2} (the CUDA "
                      "and HIP limit)",
                      kernel.symbol, items, kMaxGridX)
            .str());
  grid = {static_cast<int64_t>(items), 1, 1};
  return Status::success();
}

namespace {
/// The bytes of a buffer and, for an input, the host data it starts as.
struct HostData {
  /// Null for outputs.
  const void *source = nullptr;
  size_t bytes = 0;
};
} // namespace

template <typename T> static HostData bytesOf(const std::vector<T> &values) {
  return {values.data(), values.size() * sizeof(T)};
}

/// What the buffer of pointer argument `arg` holds.
static HostData hostData(const MlaProblem &problem, const LaunchPlan &plan,
                         MlaArg arg) {
  // At least one partial row even when nothing is split, as docs/ABI.md
  // promises kernels.
  int64_t partRows = std::max<int64_t>(plan.partRows, 1);
  switch (arg) {
  case MlaArg::Q:
    return bytesOf(problem.q);
  case MlaArg::Kv:
    return bytesOf(problem.kv);
  case MlaArg::KvScale:
    if (isFp8(problem.kvDType))
      return {&problem.fp8Scale, sizeof(float)};
    return bytesOf(problem.mxScale);
  case MlaArg::QoIndptr:
    return bytesOf(problem.qoIndptr);
  case MlaArg::KvIndptr:
    return bytesOf(problem.kvIndptr);
  case MlaArg::Work:
    return bytesOf(plan.items);
  case MlaArg::WorkIndptr:
    return bytesOf(plan.workIndptr);
  case MlaArg::Combine:
    return bytesOf(plan.combineItems);
  case MlaArg::PartOut:
    return {nullptr, partRows * kVDim * sizeof(float)};
  case MlaArg::PartLse:
    return {nullptr, partRows * sizeof(float)};
  case MlaArg::Out:
    return {nullptr,
            problem.totalQ() * problem.heads * kVDim * sizeof(uint16_t)};
  case MlaArg::ScaleStride:
  case MlaArg::SmScale:
  case MlaArg::Heads:
  case MlaArg::NumArgs:
    break;
  }
  return {};
}

Status MlaDriver::allocateInput(MlaArg arg, DeviceBuffer &buffer) {
  HostData data = hostData(problem, plan, arg);
  if (Status s = buffer.allocate(backend, data.bytes))
    return s;
  if (data.source && data.bytes)
    return backend.copyToDevice(buffer.get(), data.source, data.bytes);
  return Status::success();
}

Status MlaDriver::materialize(MlaArg arg) {
  DeviceBuffer &buffer = buffers[static_cast<size_t>(arg)];
  if (buffer.get())
    return Status::success();
  // Scalars are passed by value.
  if (arg == MlaArg::ScaleStride || arg == MlaArg::SmScale ||
      arg == MlaArg::Heads || arg == MlaArg::NumArgs)
    return Status::success();
  return allocateInput(arg, buffer);
}

Status MlaDriver::poisonOutputs() {
  // Buffers may be larger than host memory allows to copy at once.
  constexpr size_t kChunkBytes = size_t(1) << 20;
  for (MlaArg arg : {MlaArg::PartOut, MlaArg::PartLse, MlaArg::Out}) {
    DeviceBuffer &buffer = buffers[static_cast<size_t>(arg)];
    if (!buffer.get())
      continue;
    std::vector<uint8_t> poison(std::min(buffer.size(), kChunkBytes));
    if (arg == MlaArg::Out) {
      // bf16 NaN 0xFFFF.
      std::fill(poison.begin(), poison.end(), 0xFF);
    } else {
      const uint32_t nan = 0x7FC00000;
      for (size_t i = 0; i + 4 <= poison.size(); i += 4)
        std::memcpy(&poison[i], &nan, 4);
    }
    // Chunks are whole elements: kChunkBytes is a multiple of 4.
    auto *device = static_cast<uint8_t *>(buffer.get());
    for (size_t offset = 0; offset < buffer.size(); offset += poison.size())
      if (Status s = backend.copyToDevice(
              device + offset, poison.data(),
              std::min(poison.size(), buffer.size() - offset)))
        return s;
  }
  return Status::success();
}

Status MlaDriver::launchBoth() {
  for (BoundKernel *bound : {&partial, &combine}) {
    // An empty grid (no queries, or no sequence with several splits) has
    // nothing to run.
    if (bound->grid[0] == 0 || bound->grid[1] == 0 || bound->grid[2] == 0)
      continue;
    if (Status s =
            backend.launch(*bound->kernel, bound->grid, bound->args.data()))
      return s;
  }
  return Status::success();
}

Status MlaDriver::run() {
  if (Status s = poisonOutputs())
    return s;
  if (Status s = launchBoth())
    return s;
  return backend.synchronize();
}

Status MlaDriver::readOutput(std::vector<uint16_t> &out) {
  out.resize(problem.totalQ() * problem.heads * kVDim);
  if (out.empty())
    return Status::success();
  return backend.copyToHost(out.data(),
                            buffers[static_cast<size_t>(MlaArg::Out)].get(),
                            out.size() * sizeof(uint16_t));
}

Status MlaDriver::replan(const PlanOptions &options) {
  auto download = [&](MlaArg arg, std::vector<int32_t> &values) -> Status {
    const DeviceBuffer &buffer = buffers[static_cast<size_t>(arg)];
    values.resize(buffer.size() / sizeof(int32_t));
    return backend.copyToHost(values.data(), buffer.get(), buffer.size());
  };
  std::vector<int32_t> qoIndptr, kvIndptr;
  if (Status s = download(MlaArg::QoIndptr, qoIndptr))
    return s;
  if (Status s = download(MlaArg::KvIndptr, kvIndptr))
    return s;
  LaunchPlan fresh;
  if (Status s = planSplitKv(qoIndptr, kvIndptr, options, fresh))
    return s;
  for (MlaArg arg : {MlaArg::Work, MlaArg::WorkIndptr, MlaArg::Combine}) {
    const DeviceBuffer &buffer = buffers[static_cast<size_t>(arg)];
    if (!buffer.get())
      continue;
    HostData data = hostData(problem, fresh, arg);
    // The same indptrs and options make the same plan.
    if (data.bytes > buffer.size())
      return Status::failure("--bench", "the plan of the same indptrs grew "
                                        "between calls");
    if (data.bytes)
      if (Status s =
              backend.copyToDevice(buffer.get(), data.source, data.bytes))
        return s;
  }
  return Status::success();
}

Status MlaDriver::timeCalls(int64_t warmup, int64_t iterations,
                            size_t rotationBytes, bool queued,
                            const std::function<Status()> &call,
                            double &medianMicroseconds, int64_t &copies) {
  constexpr MlaArg streamed[] = {MlaArg::Q, MlaArg::Kv, MlaArg::KvScale};
  constexpr size_t numStreamed = std::size(streamed);
  size_t setBytes = 0;
  for (MlaArg arg : streamed)
    setBytes += buffers[static_cast<size_t>(arg)].size();
  copies = 1;
  if (rotationBytes > 0 && setBytes > 0)
    copies = static_cast<int64_t>(std::min<size_t>(
        kMaxRotationCopies, (rotationBytes + setBytes - 1) / setBytes + 1));

  // Copy 0 is the bound buffers; the others are uploaded from the host.
  std::vector<std::array<DeviceBuffer, numStreamed>> extra(copies - 1);
  for (auto &set : extra)
    for (size_t i = 0; i < numStreamed; ++i) {
      if (!buffers[static_cast<size_t>(streamed[i])].get())
        continue;
      if (Status s = allocateInput(streamed[i], set[i]))
        return s;
    }
  auto useCopy = [&](int64_t copy) {
    for (size_t slot = 0; slot < partial.roles.size(); ++slot)
      for (size_t i = 0; i < numStreamed; ++i)
        if (partial.roles[slot] == streamed[i])
          partial.slots[slot].pointer =
              copy == 0 ? buffers[static_cast<size_t>(streamed[i])].get()
                        : extra[copy - 1][i].get();
  };
  // Backends take the argument values at launch, so the next launch may
  // point elsewhere.
  int64_t next = 0;
  auto rotated = [&] {
    useCopy(next++ % copies);
    return call();
  };
  Status status = Status::success();
  if (queued) {
    status = benchmarkLaunches(backend, warmup, iterations, rotated,
                               medianMicroseconds);
  } else {
    for (int64_t i = 0; i < warmup && status.ok(); ++i)
      status = rotated();
    std::vector<double> times;
    if (status.ok())
      status = backend.synchronize();
    // The base implementation times each call alone.
    if (status.ok())
      status = backend.Backend::timeQueued(iterations, rotated, times);
    medianMicroseconds = median(std::move(times));
  }
  useCopy(0);
  return status;
}

Status MlaDriver::benchmark(int64_t warmup, int64_t iterations,
                            size_t rotationBytes, double &medianMicroseconds,
                            int64_t &copies) {
  return timeCalls(
      warmup, iterations, rotationBytes, /*queued=*/true,
      [&] { return launchBoth(); }, medianMicroseconds, copies);
}

Status MlaDriver::benchmarkWholeCall(const PlanOptions &options, int64_t warmup,
                                     int64_t iterations, size_t rotationBytes,
                                     double &medianMicroseconds) {
  int64_t copies = 0;
  return timeCalls(
      warmup, iterations, rotationBytes, /*queued=*/false,
      [&]() -> Status {
        if (Status s = replan(options))
          return s;
        return launchBoth();
      },
      medianMicroseconds, copies);
}

} // namespace mla::decode
