//===- GpuSupport.cpp - Shared pieces of the GPU backends -----------------===//

#include "GpuSupport.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
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

Status readBinaryFile(const std::string &path, std::vector<char> &bytes) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return Status::failure(path, std::strerror(errno));
  std::vector<char> contents;
  char buffer[65536];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
    if (contents.size() + got > kMaxModuleBytes) {
      std::fclose(file);
      return Status::failure(path,
                             formatString("larger than %zu MiB; not a module",
                                          kMaxModuleBytes >> 20));
    }
    contents.insert(contents.end(), buffer, buffer + got);
  }
  bool readError = std::ferror(file);
  std::fclose(file);
  if (readError)
    return Status::failure(path, "read failed");
  if (contents.empty())
    return Status::failure(path, "empty file");
  bytes = std::move(contents);
  return Status::success();
}

} // namespace mla::runtime
