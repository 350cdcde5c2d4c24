//===- HostMemory.cpp - How much memory this machine has ------------------===//

#include "mla/Runtime/HostMemory.h"

#include <unistd.h>

namespace mla::runtime {

uint64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return UINT64_MAX;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
}

} // namespace mla::runtime
