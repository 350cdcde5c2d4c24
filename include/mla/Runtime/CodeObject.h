//===- CodeObject.h - What a GPU driver may be handed -----------*- C++ -*-===//
//
// hipModuleLoadData and cuModuleLoadDataEx take a code object without its
// size and trust the ELF headers' offsets, so a truncated file makes the
// driver read past the buffer: a crash or a hang instead of an error. The
// GPU backends check an image with this first.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_RUNTIME_CODEOBJECT_H
#define MLA_RUNTIME_CODEOBJECT_H

#include "mla/Runtime/Status.h"

#include "llvm/ADT/ArrayRef.h"
#include <string>

#include <vector>

namespace mla::runtime {

/// Whether `image` starts with the ELF magic.
bool isElfImage(llvm::ArrayRef<char> image);

/// Fails, naming `path`, unless the ELF image `image` is a 64-bit
/// little-endian ELF (as AMDGPU code objects and cubins are) whose program
/// headers, section headers and the bytes of every section and segment lie
/// within it.
Status checkElfExtents(llvm::ArrayRef<char> image, const std::string &path);

} // namespace mla::runtime

#endif // MLA_RUNTIME_CODEOBJECT_H
