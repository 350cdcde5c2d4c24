//===- InitAll.h - Register the project's dialects and passes ---*- C++ -*-===//

#ifndef MLA_INITALL_H
#define MLA_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace mla {

/// The tile dialect and every upstream dialect a pipeline produces.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Project passes, the upstream passes pipelines use, and named pipelines.
void registerAllPasses();

} // namespace mla

#endif // MLA_INITALL_H
