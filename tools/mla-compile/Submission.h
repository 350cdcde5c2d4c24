//===- Submission.h - mla-compile's leaderboard submissions -----*- C++ -*-===//

#ifndef MLA_TOOLS_MLACOMPILE_SUBMISSION_H
#define MLA_TOOLS_MLACOMPILE_SUBMISSION_H

#include "llvm/ADT/StringRef.h"

namespace mla {

/// Writes `outputPath`, a self-contained GPU MODE amd-mixed-mla
/// submission.py (DESIGN section 8): the `mla` package, the binary at
/// `binaryPath` and its manifest (`binaryPath`.json) embedded, and
/// custom_kernel over them. `source` and `target` name what was compiled,
/// in the file's docstring. Fails, with one error line, unless the
/// manifest has the MLA decode kernels (mla.plan, mla.partial,
/// mla.combine). Returns the exit status; leaves no output on failure.
int writeSubmission(llvm::StringRef outputPath, llvm::StringRef binaryPath,
                    llvm::StringRef source, llvm::StringRef target);

} // namespace mla

#endif // MLA_TOOLS_MLACOMPILE_SUBMISSION_H
