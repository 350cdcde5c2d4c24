//===- Reference.h - float64 MLA decode reference ---------------*- C++ -*-===//
//
// The answer kernels are checked against: attention computed in double from
// the dequantized inputs, one query token and head at a time.
//
//===----------------------------------------------------------------------===//

#ifndef MLA_DECODE_REFERENCE_H
#define MLA_DECODE_REFERENCE_H

#include <vector>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace mla::decode {

struct MlaProblem;

/// MLA decode of `problem` in double: [totalQ, heads, 512]. For sequence b
/// with Q queries and L KV rows, query j attends to the first L - Q + 1 + j
/// rows (causal, bottom-right aligned) with scores smScale * q.k over 576
/// dimensions, and its output is the softmax-weighted sum of the first 512
/// dimensions of those rows. A query that attends to no row (kv_len 0, or
/// L - Q + 1 + j <= 0) gets zeros. NaN inputs (an E8M0 scale of 0xFF)
/// propagate to the outputs they touch.
std::vector<double> computeReference(const MlaProblem &problem,
                                     llvm::ThreadPoolInterface &pool);

} // namespace mla::decode

#endif // MLA_DECODE_REFERENCE_H
