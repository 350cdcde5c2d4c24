//===- GpuSupport.cpp - Shared pieces of the GPU backends -----------------===//

#include "GpuSupport.h"

#include <dlfcn.h>

namespace mla::runtime {

DynamicLibrary::~DynamicLibrary() {
  if (handle)
    dlclose(handle);
}

bool DynamicLibrary::open(std::initializer_list<const char *> names) {
  for (const char *name : names) {
    handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      openedName = name;
      return true;
    }
  }
  return false;
}

void *DynamicLibrary::lookup(const char *symbol) const {
  return handle ? dlsym(handle, symbol) : nullptr;
}

Status DynamicLibrary::checkBound(const std::string &subject) const {
  if (missing)
    return Status::failure(subject, openedName + " lacks " + missing);
  return Status::success();
}

} // namespace mla::runtime
