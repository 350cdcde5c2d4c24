//===- KernelArgs.h - Kernel arguments from the command line ----*- C++ -*-===//
//
// mla-run's generic mode runs any one kernel of a module. The user binds
// every argument by name (--arg NAME=VALUE), picks the grid (--grid) and the
// buffers to write back (--save); the manifest says what each argument must
// be. This file parses those flags and checks them against the kernel, with
// no device involved; KernelRunner then places the values on a device.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_KERNELARGS_H
#define MLA_RUNTIME_KERNELARGS_H

#include "mla/Runtime/Backend.h"
#include "mla/Runtime/Npy.h"
#include "mla/Runtime/Status.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mla::runtime {

struct KernelArg;
struct KernelInfo;
struct Manifest;

/// One `--arg NAME=VALUE`. What VALUE means depends on the argument's kind,
/// so it is interpreted by bindArgs.
struct ArgSpec {
  std::string name;
  std::string value;
};

/// One `--save NAME=FILE.npy`.
struct SaveSpec {
  std::string name;
  std::string path;
};

/// Parses the `D0xD1x...` of `empty:D0xD1x...`: one or more integers >= 0.
/// False when `text` is not of that form.
bool parseShape(const std::string &text, std::vector<int64_t> &shape);

/// How buffers of one manifest element type are stored.
struct ElementLayout {
  /// The .npy dtype of new buffers, which --save writes.
  NpyDType dtype;
  /// Another dtype a loaded file may have; equal to `dtype` when there is
  /// none.
  NpyDType alternative;
  /// The contents of a new buffer's elements, so that elements a kernel
  /// does not write show: all bits set for floats (NaN in every format but
  /// f8E4M3FNUZ, whose only NaN is 0x80), the largest value for integers.
  uint64_t poison;
};

/// The layout of element type `type` (an MLIR name from the manifest).
/// False for f4E2M1FN, whose packing in memory no .npy dtype describes.
bool getElementLayout(const std::string &type, ElementLayout &layout);

/// The value of a scalar argument; the member in use follows its type.
union ScalarValue {
  int32_t i32;
  int64_t i64;
  float f32;
};

/// Parses `text` as the value of scalar argument `arg` of `kernel`: a
/// decimal integer in range for i32 and i64, a number for f32 (strtof's
/// forms, inf and nan included; a finite value beyond the f32 range is an
/// error). Errors name the argument and the kernel.
Status parseScalar(const KernelInfo &kernel, const KernelArg &arg,
                   const std::string &text, ScalarValue &value);

/// One argument of a kernel with its value.
struct BoundArg {
  const KernelArg *arg = nullptr;
  /// The value of a scalar argument.
  ScalarValue scalar = {0};
  /// The initial contents of a pointer argument's buffer, with the shape
  /// and dtype --save writes.
  NpyArray buffer;
};

/// Finds the kernel `symbol` of `manifest`; the error lists the kernels
/// the module has.
Status findKernel(const Manifest &manifest, const std::string &symbol,
                  const KernelInfo *&kernel);

/// Binds each argument of `kernel` to the one spec that names it, in call
/// order. Pointer arguments take `@FILE.npy`, whose dtype must fit the
/// element type, or `empty:D0xD1x...`, a new buffer filled with the poison
/// of its element type; scalar arguments take a number (parseScalar).
/// Errors name the kernel and the argument: a name the kernel does not
/// have, a name bound twice, an argument left unbound, or a value that does
/// not fit.
Status bindArgs(const KernelInfo &kernel, const std::vector<ArgSpec> &specs,
                std::vector<BoundArg> &bound);

/// Checks that every save names a pointer argument of `kernel`, none twice,
/// and that each file's directory exists.
Status checkSaves(const KernelInfo &kernel, const std::vector<SaveSpec> &saves);

} // namespace mla::runtime

#endif // MLA_RUNTIME_KERNELARGS_H
