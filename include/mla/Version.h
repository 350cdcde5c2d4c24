//===- Version.h - What the tools' --version says ---------------*- C++ -*-===//
//
// The project's version and the commit it was built from (written at build
// time by cmake/WriteVersion.cmake), and the LLVM the tools use. Header
// only: mla-run links no project library but its runtime.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_VERSION_H
#define MLA_VERSION_H

#include "mla/Version.inc"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

namespace mla {

/// "TOOL VERSION (commit REVISION), LLVM X.Y.Z" and a newline.
inline void printVersion(llvm::raw_ostream &os, llvm::StringRef tool) {
  os << tool << " " MLA_VERSION;
  llvm::StringRef revision = MLA_REVISION;
  if (revision.empty())
    os << " (commit unknown)";
  else
    os << " (commit " << revision << ")";
  os << ", LLVM " LLVM_VERSION_STRING "\n";
}

} // namespace mla

#endif // MLA_VERSION_H
