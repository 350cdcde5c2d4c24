//===- HostMemory.h - How much memory this machine has ----------*- C++ -*-===//
//
// Sizes that come from the command line or input files are checked against
// the machine's memory before anything is allocated, so that a typo fails
// with a message rather than an allocation failure or the OOM killer.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_HOSTMEMORY_H
#define MLA_RUNTIME_HOSTMEMORY_H

#include <cstdint>

namespace mla::runtime {

/// Physical memory of this machine in bytes; UINT64_MAX when unknown.
uint64_t physicalMemoryBytes();

} // namespace mla::runtime

#endif // MLA_RUNTIME_HOSTMEMORY_H
