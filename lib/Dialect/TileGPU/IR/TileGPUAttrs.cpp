//===- TileGPUAttrs.cpp - Layouts and their lane maps ---------------------===//
//
// Each layout builds its LaneMap for a shape. The matrix-core maps encode
// the hardware's lane layouts (shared/AMD.md for MFMA; the PTX ISA's
// "matrix fragments for mma.m16n8k16" for mma_sync).
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mla::tilegpu;

#include "mla/Dialect/TileGPU/IR/TileGPUAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mla/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"

void TileGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mla/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
}

static FailureOr<LaneMap> failWith(std::string *why, const Twine &message) {
  if (why)
    *why = message.str();
  return failure();
}

static int64_t product(ArrayRef<unsigned> values) {
  int64_t n = 1;
  for (unsigned v : values)
    n *= v;
  return n;
}

static bool isPermutation(ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned o : order) {
    if (o >= order.size() || seen[o])
      return false;
    seen[o] = true;
  }
  return true;
}

/// Repeats the pattern covered so far along each dimension until it spans
/// the shape, with register digits.
static LogicalResult appendRepeats(SmallVectorImpl<LaneFactor> &factors,
                                   ArrayRef<int64_t> shape,
                                   ArrayRef<int64_t> covered,
                                   ArrayRef<unsigned> order) {
  for (unsigned d : order) {
    if (covered[d] >= shape[d])
      continue;
    if (shape[d] % covered[d] != 0)
      return failure();
    factors.push_back({HwDim::Register, shape[d] / covered[d],
                       static_cast<int64_t>(d), covered[d]});
  }
  return success();
}

/// Appends a digit and tracks how much of `dim` is covered; fails when the
/// shape cannot be split by it.
static LogicalResult cover(SmallVectorImpl<LaneFactor> &factors,
                           SmallVectorImpl<int64_t> &covered, HwDim hw,
                           int64_t size, unsigned dim,
                           ArrayRef<int64_t> shape) {
  int64_t next =
      appendCovering(factors, hw, size, dim, covered[dim], shape[dim]);
  if (next < 0)
    return failure();
  covered[dim] = next;
  return success();
}

//===----------------------------------------------------------------------===//
// BlockedAttr
//===----------------------------------------------------------------------===//

LogicalResult BlockedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<unsigned> sizePerThread,
                                  ArrayRef<unsigned> threadsPerWarp,
                                  ArrayRef<unsigned> warpsPerCTA,
                                  ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0 || sizePerThread.size() != rank ||
      threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "blocked layout lists need one entry per dimension";
  if (!isPermutation(order))
    return emitError() << "blocked layout order must be a permutation";
  for (ArrayRef<unsigned> list : {sizePerThread, threadsPerWarp, warpsPerCTA})
    for (unsigned v : list)
      if (v == 0)
        return emitError() << "blocked layout sizes must be positive";
  int64_t lanes = product(threadsPerWarp);
  if (lanes != 32 && lanes != 64)
    return emitError() << "blocked layout has " << lanes
                       << " threads per warp; a warp has 32 or 64";
  return success();
}

FailureOr<LaneMap> BlockedAttr::getLaneMap(ArrayRef<int64_t> shape,
                                           std::string *why) const {
  if (shape.size() != getOrder().size())
    return failWith(why, "blocked layout of rank " + Twine(getOrder().size()) +
                             " for a rank-" + Twine(shape.size()) + " tile");
  SmallVector<LaneFactor> factors;
  SmallVector<int64_t> covered(shape.size(), 1);
  for (unsigned d : getOrder())
    if (failed(cover(factors, covered, HwDim::Register, getSizePerThread()[d],
                     d, shape)))
      return failWith(why, "sizePerThread does not divide the tile");
  for (unsigned d : getOrder())
    if (failed(cover(factors, covered, HwDim::Lane, getThreadsPerWarp()[d], d,
                     shape)))
      return failWith(why, "threadsPerWarp does not divide the tile");
  for (unsigned d : getOrder())
    if (failed(cover(factors, covered, HwDim::Warp, getWarpsPerCTA()[d], d,
                     shape)))
      return failWith(why, "warpsPerCTA does not divide the tile");
  if (failed(appendRepeats(factors, shape, covered, getOrder())))
    return failWith(why, "the layout's pattern does not divide the tile");
  return LaneMap(shape, factors);
}

unsigned BlockedAttr::getWaveSize() const {
  return product(getThreadsPerWarp());
}
unsigned BlockedAttr::getNumWarps() const { return product(getWarpsPerCTA()); }

//===----------------------------------------------------------------------===//
// MmaAttr
//===----------------------------------------------------------------------===//

LogicalResult MmaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              MmaKind kind, ArrayRef<unsigned> instrShape,
                              ArrayRef<unsigned> warpsPerCTA) {
  if (instrShape.size() != 3 ||
      (warpsPerCTA.size() != 2 && warpsPerCTA.size() != 3))
    return emitError() << "mma layouts take instrShape = [m, n, k] and "
                          "warpsPerCTA = [rows, columns] or [rows, columns, "
                          "K groups]";
  unsigned m = instrShape[0], n = instrShape[1], k = instrShape[2];
  bool known = false;
  switch (kind) {
  case MmaKind::mfma:
    // The last K of each is the scaled MFMA's (fp4 operands).
    known = (m == 16 && n == 16 && (k == 16 || k == 32 || k == 128)) ||
            (m == 32 && n == 32 && (k == 8 || k == 16 || k == 64));
    break;
  case MmaKind::mma_sync:
    known = m == 16 && n == 8 && k == 16;
    break;
  case MmaKind::wgmma:
    known = m == 64 && k == 16 && n % 8 == 0 && n >= 8 && n <= 256;
    break;
  }
  if (!known)
    return emitError() << "no " << stringifyMmaKind(kind) << " instruction of "
                       << m << "x" << n << "x" << k;
  if (llvm::is_contained(warpsPerCTA, 0u))
    return emitError() << "mma layout warp counts must be positive";
  if (kind == MmaKind::wgmma && warpsPerCTA.size() == 3 && warpsPerCTA[2] != 1)
    return emitError() << "wgmma layouts do not split K over warps";
  if (kind == MmaKind::wgmma && warpsPerCTA[0] % 4 != 0)
    return emitError() << "wgmma layouts split rows over whole warpgroups "
                          "(a multiple of 4 row warps)";
  return success();
}

unsigned MmaAttr::getKWidth() const {
  switch (getKind()) {
  case MmaKind::mfma:
    return getInstrK() / (64 / getInstrM());
  case MmaKind::mma_sync:
  case MmaKind::wgmma:
    return 8;
  }
  return 0;
}

/// The digits of one instruction's accumulator, and which register and lane
/// digits the hardware uses (shared/AMD.md; PTX ISA).
static void appendAccumulatorDigits(MmaAttr mma,
                                    SmallVectorImpl<LaneFactor> &f) {
  if (mma.getKind() != MmaKind::mfma) {
    // c0..c3: row = lane / 4 + 8 * (i / 2), column = 2 * (lane % 4) + i % 2.
    f.push_back({HwDim::Register, 2, 1, 1});
    f.push_back({HwDim::Lane, 4, 1, 2});
    f.push_back({HwDim::Lane, 8, 0, 1});
    f.push_back({HwDim::Register, 2, 0, 8});
    if (mma.getKind() == MmaKind::wgmma) {
      // d0..: the same 16x8 block per 8 columns (register i / 4), and
      // warp w % 4 of the warpgroup at rows 16 * (w % 4).
      if (mma.getInstrN() > 8)
        f.push_back({HwDim::Register, mma.getInstrN() / 8, 1, 8});
      f.push_back({HwDim::Warp, 4, 0, 16});
    }
    return;
  }
  if (mma.getInstrM() == 16) {
    // D[i][j]: lane j + 16 * (i / 4), register i % 4.
    f.push_back({HwDim::Register, 4, 0, 1});
    f.push_back({HwDim::Lane, 16, 1, 1});
    f.push_back({HwDim::Lane, 4, 0, 4});
    return;
  }
  // 32x32: lane j + 32 * ((i / 4) % 2), register 4 * (i / 8) + i % 4.
  f.push_back({HwDim::Register, 4, 0, 1});
  f.push_back({HwDim::Lane, 32, 1, 1});
  f.push_back({HwDim::Lane, 2, 0, 4});
  f.push_back({HwDim::Register, 4, 0, 8});
}

/// The digits of one instruction's operand `opIdx`: dimension `kDim` is K,
/// the other is M (A) or N (B).
static void appendOperandDigits(MmaAttr mma, unsigned opIdx,
                                SmallVectorImpl<LaneFactor> &f) {
  int64_t kDim = opIdx == 0 ? 1 : 0, otherDim = 1 - kDim;
  int64_t kWidth = mma.getKWidth();
  if (mma.getKind() != MmaKind::mfma) {
    if (opIdx == 0) {
      // a0..a7: row = lane / 4 + 8 * ((i / 2) % 2),
      // column = 2 * (lane % 4) + i % 2 + 8 * (i / 4).
      f.push_back({HwDim::Register, 2, 1, 1});
      f.push_back({HwDim::Lane, 4, 1, 2});
      f.push_back({HwDim::Lane, 8, 0, 1});
      f.push_back({HwDim::Register, 2, 0, 8});
      f.push_back({HwDim::Register, 2, 1, 8});
      return;
    }
    // b0..b3: row (k) = 2 * (lane % 4) + i % 2 + 8 * (i / 2),
    // column = lane / 4.
    f.push_back({HwDim::Register, 2, 0, 1});
    f.push_back({HwDim::Lane, 4, 0, 2});
    f.push_back({HwDim::Lane, 8, 1, 1});
    f.push_back({HwDim::Register, 2, 0, 8});
    return;
  }
  // MFMA: element k % kWidth of lane (row or column) + m * (k / kWidth).
  int64_t m = mma.getInstrM();
  f.push_back({HwDim::Register, kWidth, kDim, 1});
  f.push_back({HwDim::Lane, m, otherDim, 1});
  f.push_back({HwDim::Lane, 64 / m, kDim, kWidth});
}

/// Checks that a [rows, cols] tile holds whole instructions.
static FailureOr<LaneMap> checkInstrFits(ArrayRef<int64_t> shape, int64_t rows,
                                         int64_t cols, std::string *why) {
  if (shape.size() != 2)
    return failWith(why, "matrix-core layouts hold 2-D tiles");
  if (shape[0] % rows != 0 || shape[1] % cols != 0)
    return failWith(why, "a " + Twine(shape[0]) + "x" + Twine(shape[1]) +
                             " tile is not made of " + Twine(rows) + "x" +
                             Twine(cols) + " instruction tiles");
  return LaneMap();
}

FailureOr<LaneMap> MmaAttr::getLaneMap(ArrayRef<int64_t> shape,
                                       std::string *why) const {
  int64_t m = getInstrM(), n = getInstrN();
  if (failed(checkInstrFits(shape, m, n, why)))
    return failure();
  SmallVector<LaneFactor> factors;
  appendAccumulatorDigits(*this, factors);
  SmallVector<int64_t> covered = {m, n};
  // A warpgroup's 4 warps are the instruction's own (warp digit 0).
  unsigned rowWarps = getWarpsPerCTA()[0];
  if (getKind() == MmaKind::wgmma)
    rowWarps /= 4;
  if (failed(cover(factors, covered, HwDim::Warp, getWarpsPerCTA()[1], 1,
                   shape)) ||
      failed(cover(factors, covered, HwDim::Warp, rowWarps, 0, shape)) ||
      failed(appendRepeats(factors, shape, covered, {1, 0})))
    return failWith(why, "warpsPerCTA does not divide the tile");
  // The K groups each hold the whole (summed) result.
  if (getWarpsK() > 1)
    factors.push_back({HwDim::Warp, getWarpsK(), LaneFactor::kReplicated, 0});
  return LaneMap(shape, factors);
}

unsigned MmaAttr::getWaveSize() const {
  return getKind() == MmaKind::mfma ? 64 : 32;
}
unsigned MmaAttr::getNumWarps() const { return product(getWarpsPerCTA()); }

//===----------------------------------------------------------------------===//
// DotOperandAttr
//===----------------------------------------------------------------------===//

LogicalResult
DotOperandAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       unsigned opIdx, MmaAttr parent) {
  if (opIdx > 1)
    return emitError() << "dot operand index must be 0 (A) or 1 (B)";
  return success();
}

FailureOr<LaneMap> DotOperandAttr::getLaneMap(ArrayRef<int64_t> shape,
                                              std::string *why) const {
  MmaAttr mma = getParent();
  unsigned opIdx = getOpIdx();
  int64_t k = mma.getInstrK();
  int64_t other = opIdx == 0 ? mma.getInstrM() : mma.getInstrN();
  int64_t kDim = opIdx == 0 ? 1 : 0, otherDim = 1 - kDim;
  if (failed(checkInstrFits(shape, opIdx == 0 ? other : k,
                            opIdx == 0 ? k : other, why)))
    return failure();
  SmallVector<LaneFactor> factors;
  appendOperandDigits(mma, opIdx, factors);
  SmallVector<int64_t> covered(2);
  covered[kDim] = k;
  covered[otherDim] = other;
  // Warp digits as in the parent (columns first); the warps that split the
  // other operand's dimension hold replicas.
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  if (mma.getKind() == MmaKind::wgmma) {
    // A warpgroup's 4 warps split an instruction's rows (A) and read all of
    // its columns (B); wgmma reads its operands from shared memory, and
    // these layouts only describe where a register copy would live.
    if (opIdx == 0) {
      factors.push_back({HwDim::Warp, 4, 0, 16});
      factors.push_back({HwDim::Warp, warps[1], LaneFactor::kReplicated, 0});
      if (failed(cover(factors, covered, HwDim::Warp, warps[0] / 4, 0, shape)))
        return failWith(why, "warpsPerCTA does not divide the tile");
    } else {
      if (other > 8)
        factors.push_back({HwDim::Register, other / 8, 1, 8});
      factors.push_back({HwDim::Warp, 4, LaneFactor::kReplicated, 0});
      if (failed(cover(factors, covered, HwDim::Warp, warps[1], 1, shape)))
        return failWith(why, "warpsPerCTA does not divide the tile");
      factors.push_back(
          {HwDim::Warp, warps[0] / 4, LaneFactor::kReplicated, 0});
    }
  } else {
    if (opIdx == 0) {
      factors.push_back({HwDim::Warp, warps[1], LaneFactor::kReplicated, 0});
      if (failed(cover(factors, covered, HwDim::Warp, warps[0], 0, shape)))
        return failWith(why, "warpsPerCTA does not divide the tile");
    } else {
      if (failed(cover(factors, covered, HwDim::Warp, warps[1], 1, shape)))
        return failWith(why, "warpsPerCTA does not divide the tile");
      factors.push_back({HwDim::Warp, warps[0], LaneFactor::kReplicated, 0});
    }
    // K group g takes K steps g, g + wk, ...; a replica would be summed
    // twice.
    if (shape[kDim] % (k * mma.getWarpsK()) != 0 ||
        failed(cover(factors, covered, HwDim::Warp, mma.getWarpsK(),
                     static_cast<unsigned>(kDim), shape)))
      return failWith(why, "the K groups do not divide K");
  }
  // K steps first, so one instruction's registers are contiguous and the
  // steps of one row (column) of instructions follow each other.
  if (failed(appendRepeats(
          factors, shape, covered,
          {static_cast<unsigned>(kDim), static_cast<unsigned>(otherDim)})))
    return failWith(why, "the tile is not made of whole instructions");
  return LaneMap(shape, factors);
}

unsigned DotOperandAttr::getWaveSize() const {
  return getParent().getWaveSize();
}
unsigned DotOperandAttr::getNumWarps() const {
  return getParent().getNumWarps();
}

//===----------------------------------------------------------------------===//
// SliceAttr
//===----------------------------------------------------------------------===//

LogicalResult SliceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                unsigned dim, Attribute parent) {
  if (!isa<DistributedLayoutAttr>(parent))
    return emitError() << "slice parent must be a distributed layout";
  return success();
}

/// How many elements of dimension `dim` one pass of `layout`'s lanes and
/// warps spans: the extent a slice assumes its reduced dimension had.
static int64_t spanOf(Attribute layout, unsigned dim) {
  if (auto blocked = dyn_cast<BlockedAttr>(layout))
    return int64_t(blocked.getSizePerThread()[dim]) *
           blocked.getThreadsPerWarp()[dim] * blocked.getWarpsPerCTA()[dim];
  if (auto mma = dyn_cast<MmaAttr>(layout))
    return int64_t(mma.getInstrShape()[dim]) * mma.getWarpsPerCTA()[dim];
  if (auto linear = dyn_cast<LinearAttr>(layout)) {
    int64_t span = 1;
    for (const LaneFactor &f : linear.getFactors())
      if (f.dim == static_cast<int64_t>(dim))
        span = std::max(span, f.stride * f.size);
    return span;
  }
  if (auto op = dyn_cast<DotOperandAttr>(layout)) {
    MmaAttr mma = op.getParent();
    bool isK = (op.getOpIdx() == 0) == (dim == 1);
    if (isK)
      return int64_t(mma.getInstrK()) * mma.getWarpsK();
    return int64_t(op.getOpIdx() == 0 ? mma.getInstrM() : mma.getInstrN()) *
           mma.getWarpsPerCTA()[dim];
  }
  return 1;
}

FailureOr<LaneMap> SliceAttr::getLaneMap(ArrayRef<int64_t> shape,
                                         std::string *why) const {
  unsigned dim = getDim();
  if (dim > shape.size())
    return failWith(why, "slice dimension outside the tile");
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + dim, spanOf(getParent(), dim));
  FailureOr<LaneMap> parent =
      cast<DistributedLayoutAttr>(getParent()).getLaneMap(parentShape, why);
  if (failed(parent))
    return failure();
  return parent->reduced(dim);
}

unsigned SliceAttr::getWaveSize() const {
  return cast<DistributedLayoutAttr>(getParent()).getWaveSize();
}
unsigned SliceAttr::getNumWarps() const {
  return cast<DistributedLayoutAttr>(getParent()).getNumWarps();
}

//===----------------------------------------------------------------------===//
// LinearAttr
//===----------------------------------------------------------------------===//

// Digits are stored flat as (hardware index, size, dim, stride) quadruples.

SmallVector<LaneFactor> LinearAttr::getFactors() const {
  SmallVector<LaneFactor> factors;
  ArrayRef<int64_t> d = getDigits();
  for (size_t i = 0; i + 3 < d.size(); i += 4)
    factors.push_back({static_cast<HwDim>(d[i]), d[i + 1], d[i + 2], d[i + 3]});
  return factors;
}

LinearAttr LinearAttr::get(MLIRContext *ctx, ArrayRef<LaneFactor> factors) {
  SmallVector<int64_t> digits;
  for (const LaneFactor &f : factors)
    digits.append({static_cast<int64_t>(f.hw), f.size, f.dim,
                   f.isReplicated() ? 0 : f.stride});
  return get(ctx, digits);
}

LogicalResult LinearAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> digits) {
  if (digits.size() % 4 != 0)
    return emitError() << "linear layout digits come in quadruples";
  for (size_t i = 0; i < digits.size(); i += 4)
    if (digits[i] < 0 || digits[i] > 2 || digits[i + 1] < 1 ||
        digits[i + 2] < LaneFactor::kReplicated || digits[i + 3] < 0)
      return emitError() << "malformed linear layout digit";
  return success();
}

FailureOr<LaneMap> LinearAttr::getLaneMap(ArrayRef<int64_t> shape,
                                          std::string *why) const {
  LaneMap map(shape, getFactors());
  if (!map.isValid(why))
    return failure();
  return map;
}

unsigned LinearAttr::getWaveSize() const {
  return LaneMap({}, getFactors()).numLanes();
}
unsigned LinearAttr::getNumWarps() const {
  return LaneMap({}, getFactors()).numWarps();
}

Attribute LinearAttr::parse(AsmParser &parser, Type) {
  SmallVector<LaneFactor> factors;
  auto parseDigit = [&]() -> ParseResult {
    StringRef hw;
    int64_t size;
    if (parser.parseKeyword(&hw) || parser.parseInteger(size) ||
        parser.parseArrow())
      return failure();
    LaneFactor f{HwDim::Register, size, LaneFactor::kReplicated, 0};
    if (hw == "lane")
      f.hw = HwDim::Lane;
    else if (hw == "warp")
      f.hw = HwDim::Warp;
    else if (hw != "reg")
      return parser.emitError(parser.getCurrentLocation(),
                              "expected reg, lane or warp");
    if (succeeded(parser.parseOptionalStar())) {
      factors.push_back(f);
      return success();
    }
    StringRef dim, stride;
    if (parser.parseKeyword(&dim) || parser.parseKeyword(&stride) ||
        !dim.consume_front("d") || !stride.consume_front("x") ||
        dim.getAsInteger(10, f.dim) || stride.getAsInteger(10, f.stride))
      return parser.emitError(parser.getCurrentLocation(),
                              "expected `dN xS` or `*`");
    factors.push_back(f);
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseDigit) ||
      parser.parseGreater())
    return {};
  return LinearAttr::get(parser.getContext(), factors);
}

void LinearAttr::print(AsmPrinter &printer) const {
  printer << "<[" << LaneMap({}, getFactors()).str() << "]>";
}

//===----------------------------------------------------------------------===//
// SharedAttr
//===----------------------------------------------------------------------===//

LogicalResult SharedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned vec, unsigned perPhase,
                                 unsigned maxPhase, ArrayRef<unsigned> order,
                                 unsigned atom) {
  if (vec == 0 || perPhase == 0 || maxPhase == 0)
    return emitError() << "shared layout vec, perPhase and maxPhase must be "
                          "positive";
  if (order.empty() || !isPermutation(order))
    return emitError() << "shared layout order must be a permutation";
  if (atom != 0 && (order.size() < 2 || atom != vec * maxPhase))
    return emitError() << "a shared layout's atom holds one swizzle period "
                          "(vec * maxPhase) of a tile of rank 2 or more";
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor encoding verification
//===----------------------------------------------------------------------===//

static LogicalResult verifyHolds(DistributedLayoutAttr layout,
                                 ArrayRef<int64_t> shape,
                                 function_ref<InFlightDiagnostic()> emitError) {
  if (ShapedType::isDynamicShape(shape))
    return emitError() << "a tile with a layout has a static shape";
  std::string why;
  if (failed(layout.getLaneMap(shape, &why)))
    return emitError() << "layout " << Attribute(layout)
                       << " cannot hold a tile of shape "
                       << llvm::interleaved(shape, "x") << ": " << why;
  return success();
}

#define MLA_TILEGPU_VERIFY_ENCODING(Attr)                                      \
  LogicalResult Attr::verifyEncoding(                                          \
      ArrayRef<int64_t> shape, Type,                                           \
      function_ref<InFlightDiagnostic()> emitError) const {                    \
    return verifyHolds(*this, shape, emitError);                               \
  }
MLA_TILEGPU_VERIFY_ENCODING(BlockedAttr)
MLA_TILEGPU_VERIFY_ENCODING(MmaAttr)
MLA_TILEGPU_VERIFY_ENCODING(DotOperandAttr)
MLA_TILEGPU_VERIFY_ENCODING(SliceAttr)
MLA_TILEGPU_VERIFY_ENCODING(LinearAttr)
#undef MLA_TILEGPU_VERIFY_ENCODING

//===----------------------------------------------------------------------===//
// How layouts follow the shape-changing tile ops
//===----------------------------------------------------------------------===//

/// Reducing any distributed layout gives its slice.
static FailureOr<Attribute> sliceOf(Attribute layout, int64_t dim) {
  return Attribute(SliceAttr::get(layout.getContext(), dim, layout));
}

/// Broadcasting a slice back along its dimensions gives its parent; other
/// layouts have no opinion.
static FailureOr<Attribute> unslice(Attribute layout, ArrayRef<int64_t> dims) {
  if (dims.empty())
    return layout;
  auto slice = dyn_cast<SliceAttr>(layout);
  if (!slice || static_cast<int64_t>(slice.getDim()) != dims.front())
    return failure();
  return unslice(slice.getParent(), dims.drop_front());
}

/// The transposed lane map of a 2-D layout, where it has a name.
static FailureOr<Attribute> transposedLayout(Attribute layout) {
  MLIRContext *ctx = layout.getContext();
  if (auto blocked = dyn_cast<BlockedAttr>(layout)) {
    if (blocked.getOrder().size() != 2)
      return failure();
    auto swap = [](ArrayRef<unsigned> v) {
      return SmallVector<unsigned>{v[1], v[0]};
    };
    SmallVector<unsigned> order;
    for (unsigned d : blocked.getOrder())
      order.push_back(1 - d);
    return Attribute(BlockedAttr::get(ctx, swap(blocked.getSizePerThread()),
                                      swap(blocked.getThreadsPerWarp()),
                                      swap(blocked.getWarpsPerCTA()), order));
  }
  if (auto linear = dyn_cast<LinearAttr>(layout)) {
    SmallVector<LaneFactor> factors = linear.getFactors();
    for (LaneFactor &f : factors)
      if (!f.isReplicated())
        f.dim = 1 - f.dim;
    return Attribute(LinearAttr::get(ctx, factors));
  }
  return failure();
}

#define MLA_TILEGPU_ENCODING_RULES(Attr)                                       \
  FailureOr<Attribute> Attr::getReducedEncoding(int64_t dim) const {           \
    return sliceOf(*this, dim);                                                \
  }                                                                            \
  FailureOr<Attribute> Attr::getBroadcastEncoding(ArrayRef<int64_t> newDims,   \
                                                  ArrayRef<int64_t>) const {   \
    return unslice(*this, newDims);                                            \
  }                                                                            \
  FailureOr<Attribute> Attr::getTransposedEncoding() const {                   \
    return transposedLayout(*this);                                            \
  }
MLA_TILEGPU_ENCODING_RULES(BlockedAttr)
MLA_TILEGPU_ENCODING_RULES(MmaAttr)
MLA_TILEGPU_ENCODING_RULES(DotOperandAttr)
MLA_TILEGPU_ENCODING_RULES(SliceAttr)
MLA_TILEGPU_ENCODING_RULES(LinearAttr)
#undef MLA_TILEGPU_ENCODING_RULES

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

DistributedLayoutAttr mla::tilegpu::getLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return dyn_cast_if_present<DistributedLayoutAttr>(tensor.getEncoding());
}

LaneMap mla::tilegpu::getLaneMap(RankedTensorType type) {
  FailureOr<LaneMap> map =
      getLayout(type).getLaneMap(type.getShape(), /*why=*/nullptr);
  assert(succeeded(map) && "layout cannot hold the tile");
  return *map;
}
