//===- SharedObject.cpp - A module's shared object ------------------------===//

#include "SharedObject.h"
#include "mla/Runtime/AbiRecord.h"
#include "mla/Runtime/Manifest.h"

#include "llvm/Support/FormatVariadic.h"

#include <dlfcn.h>
#include <link.h>

namespace mla::runtime {

Status SharedObject::open(const std::string &path,
                          std::unique_ptr<SharedObject> &object) {
  // Without a slash dlopen would search the library path instead.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return Status::failure(path, std::string("cannot load: ") + dlerror());
  struct link_map *linkMap = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &linkMap) != 0 || !linkMap) {
    std::string error = dlerror();
    dlclose(handle);
    return Status::failure(path, "cannot inspect: " + error);
  }
  object.reset(new SharedObject(handle, linkMap, path));
  return Status::success();
}

SharedObject::~SharedObject() { dlclose(handle); }

SharedObject::Symbol SharedObject::lookup(const std::string &name, bool &found,
                                          std::string &definedBy) const {
  found = false;
  definedBy.clear();
  dlerror();
  void *address = dlsym(handle, name.c_str());
  if (!address)
    return {};
  Dl_info info;
  struct link_map *owner = nullptr;
  if (!dladdr1(address, &info, reinterpret_cast<void **>(&owner),
               RTLD_DL_LINKMAP))
    return {};
  if (owner != linkMap) {
    definedBy = info.dli_fname ? info.dli_fname : "another library";
    return {};
  }
  ElfW(Sym) *entry = nullptr;
  Symbol symbol{address, 0};
  if (dladdr1(address, &info, reinterpret_cast<void **>(&entry),
              RTLD_DL_SYMENT) &&
      entry && info.dli_saddr == address)
    symbol.size = entry->st_size;
  found = true;
  return symbol;
}

Status SharedObject::lookupKernel(const std::string &symbol,
                                  const Manifest &manifest,
                                  void *&address) const {
  bool found;
  std::string definedBy;
  address = lookup(symbol, found, definedBy).address;
  if (found)
    return Status::success();
  std::string what =
      "kernel '" + symbol + "' of " + manifest.path + " is not defined";
  if (!definedBy.empty())
    what += " (" + symbol + " is a symbol of " + definedBy + ")";
  return Status::failure(filePath, what);
}

Status SharedObject::checkAbiRecord(const Manifest &manifest) const {
  bool found;
  std::string definedBy;
  Symbol record = lookup(kAbiRecordSymbol, found, definedBy);
  if (!found)
    return missingAbiRecord(filePath);
  if (record.size == 0 || record.size > kMaxAbiRecordBytes)
    return Status::failure(
        filePath, llvm::formatv("ABI record of {0} bytes", record.size));
  return runtime::checkAbiRecord(
      std::string_view(static_cast<const char *>(record.address), record.size),
      filePath, manifest);
}

} // namespace mla::runtime
