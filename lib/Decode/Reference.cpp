//===- Reference.cpp - float64 MLA decode reference -----------------------===//

#include "mla/Decode/Reference.h"
#include "mla/Decode/Problem.h"
#include "mla/Runtime/Formats.h"
#include "mla/Runtime/Parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mla::runtime;

namespace mla::decode {

std::vector<double> computeReference(const MlaProblem &problem,
                                     llvm::ThreadPoolInterface &pool) {
  int64_t heads = problem.heads;
  std::vector<double> out(problem.totalQ() * heads * kVDim, 0.0);
  double smScale = problem.smScale;
  std::vector<double> keys;
  for (int64_t seq = 0; seq < problem.batch(); ++seq) {
    int64_t qLen = problem.qLen(seq), kvLen = problem.kvLen(seq);
    if (qLen == 0 || kvLen == 0)
      continue;
    // Decode the sequence's rows once; every query and head reads them all.
    int64_t kvBegin = problem.kvIndptr[seq];
    keys.resize(kvLen * kQkDim);
    parallelFor(pool, kvLen, [&](int64_t row) {
      problem.dequantizeKvRow(kvBegin + row, &keys[row * kQkDim]);
    });

    parallelFor(pool, qLen * heads, [&](int64_t task) {
      int64_t j = task / heads, head = task % heads;
      int64_t visible = std::min(kvLen, kvLen - qLen + 1 + j);
      if (visible <= 0)
        return;
      int64_t qRow = problem.qoIndptr[seq] + j;
      const uint16_t *qBits = &problem.q[(qRow * heads + head) * kQkDim];
      double query[kQkDim];
      for (int64_t d = 0; d < kQkDim; ++d)
        query[d] = bf16ToFloat(qBits[d]);

      std::vector<double> scores(visible);
      // `!(s <= maximum)` also takes a NaN, so NaN scores poison the row.
      double maximum = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < visible; ++k) {
        const double *key = &keys[k * kQkDim];
        double dot = 0;
        for (int64_t d = 0; d < kQkDim; ++d)
          dot += query[d] * key[d];
        scores[k] = smScale * dot;
        if (!(scores[k] <= maximum))
          maximum = scores[k];
      }
      double sum = 0;
      double *result = &out[(qRow * heads + head) * kVDim];
      for (int64_t k = 0; k < visible; ++k) {
        double weight = std::exp(scores[k] - maximum);
        sum += weight;
        const double *value = &keys[k * kQkDim];
        for (int64_t d = 0; d < kVDim; ++d)
          result[d] += weight * value[d];
      }
      for (int64_t d = 0; d < kVDim; ++d)
        result[d] /= sum;
    });
  }
  return out;
}

} // namespace mla::decode
