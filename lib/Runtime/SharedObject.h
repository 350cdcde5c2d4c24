//===- SharedObject.h - A module's shared object ----------------*- C++ -*-===//
//
// Host and emulated modules are shared objects. They are opened with
// RTLD_LOCAL and their symbols are looked up in them alone: dlsym on a
// library's handle also searches the libraries it depends on, so a
// manifest naming `getpid` as a kernel would otherwise run the C library's.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_LIB_RUNTIME_SHAREDOBJECT_H
#define MLA_LIB_RUNTIME_SHAREDOBJECT_H

#include "mla/Runtime/Status.h"

#include <cstddef>
#include <memory>
#include <string>

namespace mla::runtime {

struct Manifest;

/// An opened module, closed on destruction.
class SharedObject {
public:
  /// Opens the shared object at `path` (RTLD_NOW | RTLD_LOCAL); errors name
  /// it.
  static Status open(const std::string &path,
                     std::unique_ptr<SharedObject> &object);

  SharedObject(const SharedObject &) = delete;
  SharedObject &operator=(const SharedObject &) = delete;
  ~SharedObject();

  /// A symbol the object itself defines.
  struct Symbol {
    void *address = nullptr;
    /// The ELF symbol's size; 0 when the symbol table has none.
    size_t size = 0;
  };

  /// Looks `name` up in this object only. `found` is false when the object
  /// does not define it; `definedBy` then names the library a plain dlsym
  /// would have taken it from, if any.
  Symbol lookup(const std::string &name, bool &found,
                std::string &definedBy) const;

  /// Looks up kernel `symbol` of `manifest`; the error says where a name
  /// the object does not define comes from.
  Status lookupKernel(const std::string &symbol, const Manifest &manifest,
                      void *&address) const;

  /// Reads the object's ABI record and checks `manifest` against it.
  Status checkAbiRecord(const Manifest &manifest) const;

  const std::string &path() const { return filePath; }

private:
  SharedObject(void *handle, void *linkMap, std::string path)
      : handle(handle), linkMap(linkMap), filePath(std::move(path)) {}

  void *handle;
  /// The object's struct link_map, which identifies it among the loaded
  /// ones.
  void *linkMap;
  std::string filePath;
};

} // namespace mla::runtime

#endif // MLA_LIB_RUNTIME_SHAREDOBJECT_H
