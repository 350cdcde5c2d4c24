//===- DevicePlan.cpp - The launch plan made by the plan kernel -----------===//

#include "mla/Decode/DevicePlan.h"
#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>

using namespace mla::runtime;

namespace mla::decode {

constexpr const char *kPlanRole = "mla.plan";

/// ceil(a / b) for a >= 0 and b >= 1.
static int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

Status planCapacity(int64_t batch, int64_t totalQ, int64_t totalKv,
                    const PlanOptions &options, PlanCapacity &capacity) {
  if (batch < 0 || totalQ < 0 || totalKv < 0 || options.heads < 1 ||
      options.kvTile < 1 || options.blockRows < 1 ||
      options.combineBlockRows < 1 || options.maxSplits < 1)
    return Status::failure("launch plan", "negative shapes or plan options "
                                          "below 1");
  // Keeps every product below within int64.
  if (totalQ > INT32_MAX || totalKv > INT32_MAX || options.heads > INT32_MAX ||
      options.maxSplits > (1 << 10))
    return Status::failure("launch plan", "shapes beyond 2^31 - 1");
  const int64_t heads = options.heads, splits = options.maxSplits;
  // Sequences with queries, and the rows of one token in blocks.
  int64_t seqs = std::min(batch, totalQ);
  int64_t tokenBlocks = ceilDiv(heads, options.blockRows);
  int64_t chunkRows =
      ceilDiv(kReproducibleSplitRows, options.kvTile) * options.kvTile;
  // A sequence gets at most min(maxSplits, keys / chunkRows + 1) ranges in
  // the reproducible plan (the balanced plan's chunk may be one tile), so
  // its tokens times its ranges sum to at most this.
  int64_t tokenRanges = splits * totalQ;
  if (options.mode != PlanMode::Balanced)
    tokenRanges = std::min(tokenRanges, totalQ * (totalKv / chunkRows + 1));
  // Row blocks of all sequences: ceil(q * H / rows) each.
  int64_t blocks = std::min(totalQ * tokenBlocks,
                            (totalQ * heads + seqs * (options.blockRows - 1)) /
                                options.blockRows);
  PlanCapacity result;
  result.workItems = std::min(splits * blocks, tokenBlocks * tokenRanges);
  result.combineItems =
      std::min(totalQ * ceilDiv(heads, options.combineBlockRows),
               (totalQ * heads + seqs * (options.combineBlockRows - 1)) /
                   options.combineBlockRows);
  result.partRows = heads * tokenRanges;
  // work_indptr has one entry more than the work items.
  if (result.workItems >= INT32_MAX || result.combineItems > INT32_MAX ||
      result.partRows > INT32_MAX)
    return Status::failure(
        "launch plan",
        llvm::formatv("a batch of {0} tokens and {1} keys could need {2} "
                      "work items, {3} combine items and {4} part rows, "
                      "more than the kernels' int32 fields hold",
                      totalQ, totalKv, result.workItems, result.combineItems,
                      result.partRows)
            .str());
  capacity = result;
  return Status::success();
}

namespace {
/// The arguments of the plan kernel, by name.
enum class PlanArg {
  QoIndptr,
  KvIndptr,
  Work,
  WorkIndptr,
  Combine,
  Batch,
  Heads,
  KvTile,
  BlockRows,
  CombineBlockRows,
  MaxSplits,
  Parallelism,
  WorkCapacity,
  CombineCapacity,
  NumArgs
};
} // namespace

static constexpr std::array<const char *, size_t(PlanArg::NumArgs)> kArgNames =
    {"qo_indptr",     "kv_indptr",
     "work",          "work_indptr",
     "combine",       "batch",
     "heads",         "kv_tile",
     "block_rows",    "combine_block_rows",
     "max_splits",    "parallelism",
     "work_capacity", "combine_capacity"};

static bool isPointerArg(PlanArg arg) { return arg <= PlanArg::Combine; }

/// The PlanArg named `name`, or NumArgs.
static PlanArg planArgNamed(const std::string &name) {
  auto it = std::find(kArgNames.begin(), kArgNames.end(), name);
  return static_cast<PlanArg>(it - kArgNames.begin());
}

Status selectPlanKernel(const Manifest &manifest, const KernelInfo *&kernel) {
  kernel = nullptr;
  for (const KernelInfo &candidate : manifest.kernels) {
    if (candidate.role != kPlanRole)
      continue;
    if (kernel)
      return Status::failure(manifest.path, "kernels '" + kernel->symbol +
                                                "' and '" + candidate.symbol +
                                                "' are both mla.plan");
    kernel = &candidate;
  }
  if (!kernel)
    return Status::failure(manifest.path,
                           "no mla.plan kernel to plan on the device "
                           "(examples/mla_decode.mlir has one; recompile)");
  std::array<bool, size_t(PlanArg::NumArgs)> seen = {};
  for (const KernelArg &arg : kernel->args) {
    PlanArg role = planArgNamed(arg.name);
    if (role == PlanArg::NumArgs)
      return Status::failure(arg.location, "kernel '" + kernel->symbol +
                                               "': argument '" + arg.name +
                                               "' is unknown to mla.plan");
    ArgKind kind = isPointerArg(role) ? ArgKind::Pointer : ArgKind::Scalar;
    if (arg.kind != kind || arg.type != "i32")
      return Status::failure(
          arg.location, "kernel '" + kernel->symbol + "': argument '" +
                            arg.name + "' must be " +
                            (kind == ArgKind::Pointer ? "ptr i32" : "i32"));
    seen[size_t(role)] = true;
  }
  for (size_t i = 0; i < seen.size(); ++i)
    if (!seen[i])
      return Status::failure(kernel->location, "kernel '" + kernel->symbol +
                                                   "': mla.plan has "
                                                   "no '" +
                                                   kArgNames[i] + "' argument");
  return Status::success();
}

Status planOnDevice(Backend &backend, const KernelInfo &kernel,
                    const std::vector<int32_t> &qoIndptr,
                    const std::vector<int32_t> &kvIndptr, int64_t totalKv,
                    const PlanOptions &options, LaunchPlan &plan) {
  if (options.mode == PlanMode::Throughput)
    return Status::failure("launch plan", "the plan kernel makes the "
                                          "reproducible and balanced plans");
  if (options.parallelism > INT32_MAX)
    return Status::failure("launch plan", "parallelism beyond 2^31 - 1");
  int64_t batch = static_cast<int64_t>(qoIndptr.size()) - 1;
  int64_t totalQ = batch >= 0 ? qoIndptr.back() : 0;
  PlanCapacity capacity;
  if (Status s = planCapacity(batch, totalQ, totalKv, options, capacity))
    return s;
  std::array<DeviceBuffer, size_t(PlanArg::Combine) + 1> buffers;
  auto buffer = [&](PlanArg arg) -> DeviceBuffer & {
    return buffers[size_t(arg)];
  };
  const size_t row = 8 * sizeof(int32_t);
  std::array<size_t, size_t(PlanArg::Combine) + 1> bytes = {
      qoIndptr.size() * sizeof(int32_t), kvIndptr.size() * sizeof(int32_t),
      static_cast<size_t>(capacity.workItems) * row,
      static_cast<size_t>(capacity.workItems + 1) * sizeof(int32_t),
      static_cast<size_t>(capacity.combineItems) * row};
  for (size_t i = 0; i < buffers.size(); ++i)
    if (Status s = buffers[i].allocate(backend, bytes[i]))
      return s;
  if (Status s = backend.copyToDevice(buffer(PlanArg::QoIndptr).get(),
                                      qoIndptr.data(), bytes[0]))
    return s;
  if (Status s = backend.copyToDevice(buffer(PlanArg::KvIndptr).get(),
                                      kvIndptr.data(), bytes[1]))
    return s;

  const std::array<int64_t, size_t(PlanArg::NumArgs)> scalars = {
      0,
      0,
      0,
      0,
      0,
      batch,
      options.heads,
      options.kvTile,
      options.blockRows,
      options.combineBlockRows,
      options.maxSplits,
      options.mode == PlanMode::Balanced ? options.parallelism : 0,
      capacity.workItems,
      capacity.combineItems};
  union Slot {
    void *pointer;
    int32_t i32;
  };
  std::vector<Slot> slots(kernel.args.size());
  std::vector<void *> args(kernel.args.size());
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    PlanArg arg = planArgNamed(kernel.args[i].name);
    if (isPointerArg(arg))
      slots[i].pointer = buffer(arg).get();
    else
      slots[i].i32 = static_cast<int32_t>(scalars[size_t(arg)]);
    args[i] = &slots[i];
  }
  if (Status s = backend.launch(kernel, {batch + 1, 1, 1}, args.data()))
    return s;
  if (Status s = backend.synchronize())
    return s;

  LaunchPlan result;
  result.mode = options.mode;
  result.workIndptr.resize(capacity.workItems + 1);
  if (Status s =
          backend.copyToHost(result.workIndptr.data(),
                             buffer(PlanArg::WorkIndptr).get(), bytes[3]))
    return s;
  int32_t items = result.workIndptr.back();
  if (items < 0 || items > capacity.workItems)
    return Status::failure(
        kernel.location, llvm::formatv("kernel '{0}' planned {1} work items, "
                                       "outside its capacity {2}",
                                       kernel.symbol, items, capacity.workItems)
                             .str());
  result.items.resize(items);
  if (items)
    if (Status s =
            backend.copyToHost(result.items.data(), buffer(PlanArg::Work).get(),
                               items * sizeof(WorkItem)))
      return s;
  result.combineItems.resize(capacity.combineItems);
  if (capacity.combineItems)
    if (Status s = backend.copyToHost(result.combineItems.data(),
                                      buffer(PlanArg::Combine).get(), bytes[4]))
      return s;
  result.partRows = capacity.partRows;
  for (const WorkItem &item : result.items)
    result.maxSplitsUsed =
        std::max<int64_t>(result.maxSplitsUsed, item.numSplits);
  plan = std::move(result);
  return Status::success();
}

/// "seq=1 kv=[0, 64) split=0/2 row=0 part=3" for messages.
static std::string describe(const WorkItem &item) {
  return llvm::formatv("seq={0} kv=[{1}, {2}) split={3}/{4} row={5} part={6}",
                       item.seq, item.kvBegin, item.kvEnd, item.split,
                       item.numSplits, item.rowBegin, item.partRow)
      .str();
}

static std::string describe(const CombineItem &item) {
  return llvm::formatv("part={0} out={1} rows={2} splits={3} stride={4}",
                       item.partRow, item.outRow, item.rows, item.numSplits,
                       item.splitStride)
      .str();
}

Status compareWithHostPlan(const LaunchPlan &device, const LaunchPlan &host) {
  auto differ = [](const std::string &what) {
    return Status::failure("device plan", what);
  };
  if (device.items.size() != host.items.size())
    return differ(llvm::formatv("{0} work items, the host plan has {1}",
                                device.items.size(), host.items.size())
                      .str());
  for (size_t i = 0; i < host.items.size(); ++i)
    if (std::memcmp(&device.items[i], &host.items[i], sizeof(WorkItem)))
      return differ(llvm::formatv("work item {0} is {1}, the host's {2}", i,
                                  describe(device.items[i]),
                                  describe(host.items[i]))
                        .str());
  if (device.workIndptr.size() < host.workIndptr.size())
    return differ("work_indptr is shorter than the host plan's");
  int32_t total = static_cast<int32_t>(host.items.size());
  for (size_t p = 0; p < device.workIndptr.size(); ++p) {
    int32_t expected = p < host.workIndptr.size() ? host.workIndptr[p] : total;
    if (device.workIndptr[p] != expected)
      return differ(llvm::formatv("work_indptr[{0}] is {1}, expected {2}", p,
                                  device.workIndptr[p], expected)
                        .str());
  }
  if (device.combineItems.size() < host.combineItems.size())
    return differ(llvm::formatv("{0} combine rows, fewer than the host "
                                "plan's {1} items",
                                device.combineItems.size(),
                                host.combineItems.size())
                      .str());
  const CombineItem blank = {};
  for (size_t i = 0; i < device.combineItems.size(); ++i) {
    const CombineItem &expected =
        i < host.combineItems.size() ? host.combineItems[i] : blank;
    if (std::memcmp(&device.combineItems[i], &expected, sizeof(CombineItem)))
      return differ(llvm::formatv("combine item {0} is {1}, expected {2}", i,
                                  describe(device.combineItems[i]),
                                  describe(expected))
                        .str());
  }
  if (host.partRows > device.partRows)
    return differ(llvm::formatv("the host plan needs {0} part rows, more "
                                "than the capacity {1}",
                                host.partRows, device.partRows)
                      .str());
  return Status::success();
}

} // namespace mla::decode
