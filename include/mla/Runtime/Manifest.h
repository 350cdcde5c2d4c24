//===- Manifest.h - Module manifests (docs/ABI.md) --------------*- C++ -*-===//
//
// A compiled module is a binary plus BINARY.json, the manifest that
// mla-compile writes next to it. This is the runtime's only source of truth
// about the kernels in the binary.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_MANIFEST_H
#define MLA_RUNTIME_MANIFEST_H

#include "mla/Runtime/Status.h"

#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mla::runtime {

/// The most work-items a workgroup holds on any GPU the runtime launches
/// on; the manifest's workgroup_size is refused beyond it.
constexpr int64_t kMaxWorkgroupSize = 1024;
/// The most LDS / shared memory a manifest may give a kernel: more than any
/// GPU has per workgroup (160 KiB on gfx950, 228 KiB on sm_90).
constexpr int64_t kMaxLdsBytes = 1 << 20;

enum class ArgKind { Pointer, Scalar };

/// The largest alignment a requirement may ask of a pointer argument
/// (`P % C == 0`); launchers that allocate the buffers, as mla-run does,
/// allocate at a multiple of it.
constexpr int64_t kMaxPointerAlignment = 64;

/// One kernel argument, in call order.
struct KernelArg {
  std::string name;
  ArgKind kind = ArgKind::Pointer;
  /// MLIR's element type name: the pointee type of a pointer, the value type
  /// of a scalar (i32, i64 or f32).
  std::string type;
  /// A pointer's extent expression (docs/ABI.md, "Extents"); nullopt where
  /// the manifest has none, extentUnknown then saying why if it does.
  std::optional<llvm::json::Value> extent;
  std::string extentUnknown;
  /// The manifest that describes it, for messages.
  std::string location;
};

/// One entry of a kernel's grid rule: an expression of its scalar
/// arguments or a problem quantity an application's driver computes.
struct GridExtent {
  /// The quantity's name (docs/ABI.md lists those of the MLA driver), or
  /// empty where `rule` gives the size.
  std::string quantity;
  /// The size as an expression (docs/ABI.md, "Extents"); a fixed count is
  /// an integer.
  llvm::json::Value rule = 1;
};

/// One kernel of the module.
struct KernelInfo {
  std::string symbol;
  std::vector<KernelArg> args;
  std::array<int64_t, 3> workgroupSize = {1, 1, 1};
  /// All LDS / shared memory of the kernel, static included.
  int64_t ldsBytes = 0;
  /// The part of it a launch provides as dynamic shared memory.
  int64_t dynamicLdsBytes = 0;
  std::optional<int64_t> registers;
  std::optional<int64_t> spills;
  /// The `launch` object (copied from the kernel's tile.launch attribute);
  /// empty when the kernel has none.
  llvm::json::Object launch;
  /// launch.role, empty when absent.
  std::string role;
  /// launch.grid; only meaningful when hasGrid.
  bool hasGrid = false;
  std::array<GridExtent, 3> grid;
  /// launch.free_grid: any grid may be given, the rule's being the default.
  bool freeGrid = false;
  /// launch.requires: conditions on the scalar arguments, as expressions.
  std::vector<llvm::json::Value> requirements;
  /// The manifest that describes it, for messages.
  std::string location;
};

/// A parsed and validated manifest.
struct Manifest {
  /// The manifest file.
  std::string path;
  /// host, gfx950, gfx942 or sm_90.
  std::string target;
  /// The `binary` field: the binary's file name, relative to the manifest.
  std::string binary;
  std::vector<KernelInfo> kernels;
};

/// The manifest path of a module binary: the binary's path plus ".json".
std::string manifestPathFor(const std::string &modulePath);

/// Reads and validates the manifest of the module at `modulePath`.
Status loadManifest(const std::string &modulePath, Manifest &manifest);

/// Validates manifest `text`; `path` is used in messages only. Errors name
/// the manifest and the field ("kernels[1].args[0].kind"); syntax errors
/// name the line and column.
Status parseManifest(std::string_view text, const std::string &path,
                     Manifest &manifest);

/// Reads launch.KEY of `kernel` when present: an integer >= `minimum`. The
/// error names the kernel and the key.
Status readLaunchInteger(const Manifest &manifest, const KernelInfo &kernel,
                         const char *key, int64_t minimum,
                         std::optional<int64_t> &value);

/// Reads launch.KEY of `kernel` when present: a string.
Status readLaunchString(const Manifest &manifest, const KernelInfo &kernel,
                        const char *key, std::optional<std::string> &value);

} // namespace mla::runtime

#endif // MLA_RUNTIME_MANIFEST_H
