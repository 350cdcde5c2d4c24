//===- LaneMap.cpp - Where each element of a distributed tile lives -------===//

#include "mla/Dialect/TileGPU/IR/LaneMap.h"

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <numeric>
#include <set>

using namespace mla::tilegpu;

LaneMap::LaneMap(llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<LaneFactor> factors)
    : shape(shape) {
  // A digit of one value moves nothing. A lane or warp replica digit next
  // to another (in that dimension's order) merges with it, so that a
  // placement reached by slicing has the map of the same placement built
  // directly. Register digits keep their structure: the matrix-core
  // lowering reads instruction repeats off them.
  for (const LaneFactor &f : factors) {
    if (f.size == 1)
      continue;
    if (f.hw != HwDim::Register && f.isReplicated()) {
      auto previous =
          llvm::find_if(llvm::reverse(this->factors),
                        [&](const LaneFactor &p) { return p.hw == f.hw; });
      if (previous != this->factors.rend() && previous->isReplicated()) {
        previous->size *= f.size;
        continue;
      }
    }
    this->factors.push_back(f);
  }
}

int64_t LaneMap::count(HwDim hw) const {
  int64_t n = 1;
  for (const LaneFactor &f : factors)
    if (f.hw == hw)
      n *= f.size;
  return n;
}

llvm::SmallVector<LaneFactor> LaneMap::factorsOf(HwDim hw) const {
  llvm::SmallVector<LaneFactor> result;
  for (const LaneFactor &f : factors)
    if (f.hw == hw)
      result.push_back(f);
  return result;
}

llvm::SmallVector<int64_t> LaneMap::partialCoords(HwDim hw,
                                                  int64_t index) const {
  llvm::SmallVector<int64_t> result(shape.size(), 0);
  for (const LaneFactor &f : factors) {
    if (f.hw != hw)
      continue;
    int64_t digit = index % f.size;
    index /= f.size;
    if (!f.isReplicated())
      result[f.dim] += digit * f.stride;
  }
  return result;
}

llvm::SmallVector<int64_t> LaneMap::coords(int64_t reg, int64_t lane,
                                           int64_t warp) const {
  llvm::SmallVector<int64_t> result = partialCoords(HwDim::Register, reg);
  llvm::SmallVector<int64_t> l = partialCoords(HwDim::Lane, lane);
  llvm::SmallVector<int64_t> w = partialCoords(HwDim::Warp, warp);
  for (size_t d = 0; d < result.size(); ++d)
    result[d] += l[d] + w[d];
  return result;
}

bool LaneMap::isOwner(HwDim hw, int64_t index) const {
  for (const LaneFactor &f : factors) {
    if (f.hw != hw)
      continue;
    int64_t digit = index % f.size;
    index /= f.size;
    if (f.isReplicated() && digit != 0)
      return false;
  }
  return true;
}

bool LaneMap::isValid(std::string *why) const {
  auto fail = [&](const llvm::Twine &message) {
    if (why)
      *why = message.str();
    return false;
  };
  for (const LaneFactor &f : factors)
    if (f.size < 1 ||
        (!f.isReplicated() &&
         (f.dim < 0 || f.dim >= static_cast<int64_t>(shape.size()))))
      return fail("factor outside the shape");
  int64_t elements = 1;
  for (int64_t extent : shape)
    elements *= extent;
  // Small maps are checked exhaustively; large ones by their per-dimension
  // extents, which is exact for maps built from non-overlapping digits.
  int64_t total = numRegisters() * numLanes() * numWarps();
  if (total <= (1 << 20)) {
    std::set<llvm::SmallVector<int64_t>> seen;
    for (int64_t w = 0; w < numWarps(); ++w)
      for (int64_t l = 0; l < numLanes(); ++l)
        for (int64_t r = 0; r < numRegisters(); ++r) {
          llvm::SmallVector<int64_t> c = coords(r, l, w);
          for (size_t d = 0; d < c.size(); ++d)
            if (c[d] >= shape[d])
              return fail("element outside the shape");
          seen.insert(c);
        }
    if (static_cast<int64_t>(seen.size()) != elements)
      return fail("not every element has a home");
    return true;
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t extent = 1;
    for (const LaneFactor &f : factors)
      if (f.dim == static_cast<int64_t>(d))
        extent = std::max(extent, f.stride * f.size);
    if (extent != shape[d])
      return fail("dimension " + llvm::Twine(d) + " is not covered exactly");
  }
  return true;
}

LaneMap LaneMap::reduced(int64_t dim) const {
  llvm::SmallVector<int64_t> newShape(shape);
  newShape.erase(newShape.begin() + dim);
  llvm::SmallVector<LaneFactor> newFactors;
  for (LaneFactor f : factors) {
    if (f.dim == dim) {
      if (f.hw == HwDim::Register)
        continue;
      f.dim = LaneFactor::kReplicated;
      f.stride = 0;
    } else if (f.dim > dim) {
      --f.dim;
    }
    newFactors.push_back(f);
  }
  return LaneMap(newShape, newFactors);
}

mlir::FailureOr<LaneMap> LaneMap::coarsened(int64_t dim, int64_t block) const {
  if (shape[dim] % block != 0)
    return mlir::failure();
  // The digits of `dim`, by stride, must count 0, 1, 2, ... without gaps.
  llvm::SmallVector<LaneFactor> along;
  for (const LaneFactor &f : factors)
    if (f.dim == dim)
      along.push_back(f);
  llvm::sort(along, [](const LaneFactor &a, const LaneFactor &b) {
    return a.stride < b.stride;
  });
  int64_t expected = 1;
  for (const LaneFactor &f : along) {
    if (f.stride != expected)
      return mlir::failure();
    expected *= f.size;
  }

  llvm::SmallVector<LaneFactor> result;
  for (const LaneFactor &f : factors) {
    if (f.dim != dim) {
      result.push_back(f);
      continue;
    }
    if (f.stride * f.size <= block) {
      if (f.hw != HwDim::Register)
        result.push_back({f.hw, f.size, LaneFactor::kReplicated, 0});
      continue;
    }
    if (f.stride >= block) {
      if (f.stride % block != 0)
        return mlir::failure();
      result.push_back({f.hw, f.size, dim, f.stride / block});
      continue;
    }
    int64_t inner = block / f.stride;
    if (block % f.stride != 0 || f.size % inner != 0)
      return mlir::failure();
    if (f.hw != HwDim::Register)
      result.push_back({f.hw, inner, LaneFactor::kReplicated, 0});
    result.push_back({f.hw, f.size / inner, dim, 1});
  }
  llvm::SmallVector<int64_t> newShape(shape);
  newShape[dim] /= block;
  return LaneMap(newShape, result);
}

LaneMap LaneMap::permuted(llvm::ArrayRef<int64_t> perm) const {
  llvm::SmallVector<int64_t> newShape;
  llvm::SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm)) {
    newShape.push_back(shape[p]);
    inverse[p] = i;
  }
  llvm::SmallVector<LaneFactor> newFactors;
  for (LaneFactor f : factors) {
    if (!f.isReplicated())
      f.dim = inverse[f.dim];
    newFactors.push_back(f);
  }
  return LaneMap(newShape, newFactors);
}

bool LaneMap::sameLanesAndWarps(const LaneMap &other) const {
  if (shape != other.shape || numLanes() != other.numLanes() ||
      numWarps() != other.numWarps())
    return false;
  return factorsOf(HwDim::Lane) == other.factorsOf(HwDim::Lane) &&
         factorsOf(HwDim::Warp) == other.factorsOf(HwDim::Warp) &&
         numRegisters() == other.numRegisters();
}

llvm::SmallVector<int64_t>
LaneMap::registerPermutationTo(const LaneMap &other) const {
  // Registers of `other` by the coordinates their register digits reach.
  std::map<llvm::SmallVector<int64_t>, int64_t> byCoords;
  for (int64_t r = 0; r < other.numRegisters(); ++r)
    byCoords.emplace(other.partialCoords(HwDim::Register, r), r);
  llvm::SmallVector<int64_t> result;
  for (int64_t r = 0; r < numRegisters(); ++r) {
    auto it = byCoords.find(partialCoords(HwDim::Register, r));
    result.push_back(it == byCoords.end() ? -1 : it->second);
  }
  return result;
}

std::string LaneMap::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  static const char *names[] = {"reg", "lane", "warp"};
  llvm::interleaveComma(factors, os, [&](const LaneFactor &f) {
    os << names[static_cast<int>(f.hw)] << ' ' << f.size << " -> ";
    if (f.isReplicated())
      os << '*';
    else
      os << 'd' << f.dim << " x" << f.stride;
  });
  return text;
}

int64_t mla::tilegpu::appendCovering(llvm::SmallVectorImpl<LaneFactor> &factors,
                                     HwDim hw, int64_t size, int64_t dim,
                                     int64_t stride, int64_t extent) {
  if (size == 1)
    return stride;
  if (stride >= extent) {
    factors.push_back({hw, size, LaneFactor::kReplicated, 0});
    return stride;
  }
  if (extent % stride != 0)
    return -1;
  // The largest part of the resource that divides what is left of the
  // dimension moves it (all of it, or all that is left, where one divides
  // the other); the rest holds copies. What is left over goes to register
  // repeats: 24 elements in vectors of 4 take 2 of 32 lanes, 3 repeats.
  int64_t fit = std::gcd(extent / stride, size);
  if (fit > 1)
    factors.push_back({hw, fit, dim, stride});
  if (size / fit > 1)
    factors.push_back({hw, size / fit, LaneFactor::kReplicated, 0});
  return stride * fit;
}
