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

#include <initializer_list>
#include <string>

namespace mla::runtime {

/// A shared library opened with dlopen, closed on destruction. Not
/// llvm::sys::DynamicLibrary, which opens with RTLD_GLOBAL and never closes.
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

  /// Sets `function` to the entry point `symbol`, remembering the first
  /// symbol that is missing.
  template <typename FunctionPointer>
  void bind(const char *symbol, FunctionPointer &function) {
    void *address = lookup(symbol);
    function = reinterpret_cast<FunctionPointer>(address);
    if (!address && !missing)
      missing = symbol;
  }

  /// Fails against `subject` when bind missed a symbol.
  Status checkBound(const std::string &subject) const;

private:
  void *lookup(const char *symbol) const;

  void *handle = nullptr;
  std::string openedName;
  const char *missing = nullptr;
};

} // namespace mla::runtime

#endif // MLA_LIB_RUNTIME_GPUSUPPORT_H
