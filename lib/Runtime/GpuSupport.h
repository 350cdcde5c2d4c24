//===- GpuSupport.h - Shared pieces of the GPU backends ---------*- C++ -*-===//
//
// The HIP and CUDA backends load their runtime library with dlopen and
// resolve each entry point by name, with their own minimal declarations, so
// that neither SDK is needed to build or run mla-run.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_RUNTIME_GPUSUPPORT_H
#define MLA_LIB_RUNTIME_GPUSUPPORT_H

#include "mla/Runtime/Status.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace mla::runtime {

/// A shared library opened with dlopen, closed on destruction.
class DynamicLibrary {
public:
  DynamicLibrary() = default;
  DynamicLibrary(const DynamicLibrary &) = delete;
  DynamicLibrary &operator=(const DynamicLibrary &) = delete;
  ~DynamicLibrary();

  /// Opens the first of `names` that loads; false when none does.
  bool open(std::initializer_list<const char *> names);
  /// The file name that was opened.
  const std::string &fileName() const { return openedName; }

  /// Sets `function` to the entry point `symbol`; false when it is missing.
  template <typename FunctionPointer>
  bool resolve(const char *symbol, FunctionPointer &function) const {
    void *address = lookup(symbol);
    function = reinterpret_cast<FunctionPointer>(address);
    return address != nullptr;
  }

private:
  void *lookup(const char *symbol) const;

  void *handle = nullptr;
  std::string openedName;
};

/// The largest code object readBinaryFile reads (a module of many kernels
/// is a few MiB).
constexpr size_t kMaxModuleBytes = size_t(1) << 30;

/// Reads the whole file at `path`, at most kMaxModuleBytes; errors name the
/// file.
Status readBinaryFile(const std::string &path, std::vector<char> &bytes);

} // namespace mla::runtime

#endif // MLA_LIB_RUNTIME_GPUSUPPORT_H
