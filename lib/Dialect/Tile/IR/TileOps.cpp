//===- TileOps.cpp - Tile dialect operations ------------------------------===//
//
// Parsing, printing and verification of the tile ops. Kernels, parameters
// and helpers are in TileProgramOps.cpp; folds and canonicalization
// patterns in TileFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mla::tile;

static RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Whether every size in `sizes` is known before specialization; checks
/// that involve a symbolic size wait for the instance.
static bool areStatic(std::initializer_list<int64_t> sizes) {
  return llvm::none_of(sizes, ShapedType::isDynamic);
}

//===----------------------------------------------------------------------===//
// RangeOp, BroadcastOp, TransOp
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  if (getType().getRank() != 1)
    return emitOpError() << "builds a 1-D tile, got " << getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError() << "result element type " << out.getElementType()
                         << " differs from the input's " << in.getElementType();
  ArrayRef<int64_t> dims = getDims();
  if (in.getRank() + static_cast<int64_t>(dims.size()) != out.getRank())
    return emitOpError() << "input rank " << in.getRank() << " plus "
                         << dims.size() << " new dims must equal result rank "
                         << out.getRank();
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= out.getRank())
      return emitOpError() << "new dim " << d << " is outside the result's "
                           << out.getRank() << " dimensions";
    if (i > 0 && d <= dims[i - 1])
      return emitOpError("new dims must be listed in increasing order");
  }
  int64_t inDim = 0;
  for (int64_t outDim = 0; outDim < out.getRank(); ++outDim) {
    if (llvm::is_contained(dims, outDim))
      continue;
    if (!mayBeEqual(in.getDimSize(inDim), out.getDimSize(outDim)))
      return emitOpError() << "input dim " << inDim << " (size "
                           << in.getDimSize(inDim) << ") maps to result dim "
                           << outDim << " (size " << out.getDimSize(outDim)
                           << "); sizes must agree";
    ++inDim;
  }
  // A symbolic input names the kept dimensions of the result; new
  // symbolic dimensions have no name to derive, and wait for the instance.
  if (auto symbolic = dyn_cast_if_present<DimsAttr>(in.getEncoding())) {
    FailureOr<Attribute> encoding =
        symbolic.getBroadcastEncoding(dims, out.getShape());
    if (succeeded(encoding) && *encoding != out.getEncoding())
      return emitOpError() << "result must be "
                           << RankedTensorType::get(out.getShape(),
                                                    out.getElementType(),
                                                    *encoding);
    return success();
  }
  RankedTensorType expected = getBroadcastType(in, out.getShape(), dims);
  if (getLayout(out) != getLayout(expected))
    return emitOpError() << "result must be " << expected
                         << ": its encoding follows the input's";
  return success();
}

LogicalResult TransOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getRank() != 2)
    return emitOpError() << "transposes 2-D tiles, got " << in;
  RankedTensorType expected = getTransposedType(in);
  if (out != expected)
    return emitOpError() << "result must be " << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

OpFoldResult ViewOp::getMixedSize(unsigned dim) {
  return getMixedValues(getStaticSizes(), getSizes(), getContext())[dim];
}

OpFoldResult ViewOp::getMixedStride(unsigned dim) {
  return getMixedValues(getStaticStrides(), getStrides(), getContext())[dim];
}

LogicalResult ViewOp::verify() {
  ViewType type = getType();
  Type pointee = getBase().getType().getElementType();
  if (type.getElementType() != pointee)
    return emitOpError() << "view element type " << type.getElementType()
                         << " differs from the pointer's " << pointee;
  int64_t rank = type.getRank();
  if (rank < 1)
    return emitOpError("views have at least one dimension");
  if (static_cast<int64_t>(getStaticSizes().size()) != rank ||
      static_cast<int64_t>(getStaticStrides().size()) != rank)
    return emitOpError() << "needs " << rank << " sizes and " << rank
                         << " strides for a rank-" << rank << " view, got "
                         << getStaticSizes().size() << " and "
                         << getStaticStrides().size();
  if (failed(verifyListOfOperandsOrIntegers(*this, "size", rank,
                                            getStaticSizes(), getSizes())) ||
      failed(verifyListOfOperandsOrIntegers(*this, "stride", rank,
                                            getStaticStrides(), getStrides())))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = getStaticSizes()[d];
    int64_t typeSize = type.getShape()[d];
    if (size != typeSize)
      return emitOpError() << "size " << d << " is "
                           << (ShapedType::isDynamic(size) ? "dynamic"
                                                           : "static")
                           << " but the result type says "
                           << (ShapedType::isDynamic(typeSize)
                                   ? std::string("?")
                                   : std::to_string(typeSize))
                           << "; they must agree";
    int64_t stride = getStaticStrides()[d];
    if (!ShapedType::isDynamic(stride) && stride < 0)
      return emitOpError() << "stride " << d << " is negative";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp, StoreOp
//===----------------------------------------------------------------------===//

/// Checks what loads and stores share: one index per view dimension, a tile
/// of the view's rank and element type, and a mask over leading tile dims.
static LogicalResult verifyAccess(Operation *op, ViewType view,
                                  size_t numIndices, RankedTensorType tile,
                                  Value mask) {
  if (static_cast<int64_t>(numIndices) != view.getRank())
    return op->emitOpError()
           << "needs " << view.getRank() << " indices for a rank-"
           << view.getRank() << " view, got " << numIndices;
  if (tile.getRank() != view.getRank())
    return op->emitOpError() << "tile " << tile << " must have the view's rank "
                             << view.getRank();
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError()
           << "tile element type " << tile.getElementType()
           << " differs from the view's " << view.getElementType();
  if (!mask)
    return success();
  RankedTensorType maskType = tensorType(mask);
  ArrayRef<int64_t> maskShape = maskType.getShape();
  if (maskShape.size() > tile.getShape().size() ||
      !mayBeEqual(maskShape, tile.getShape().take_front(maskShape.size())))
    return op->emitOpError()
           << "mask " << mask.getType()
           << " must match the tile's shape or its leading dimensions (" << tile
           << ")";
  // A full-rank mask is read element for element with the tile.
  if (maskType.getRank() == tile.getRank() &&
      getLayout(maskType) != getLayout(tile))
    return op->emitOpError()
           << "mask " << maskType << " must have the tile's encoding (" << tile
           << ")";
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, getView().getType(), getIndices().size(),
                      getType(), getMask());
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getView().getType(), getIndices().size(),
                      getValue().getType(), getMask());
}

//===----------------------------------------------------------------------===//
// Dequantization
//===----------------------------------------------------------------------===//

LogicalResult DequantMxOp::verify() {
  RankedTensorType packed = getPacked().getType();
  RankedTensorType scales = getScales().getType();
  RankedTensorType out = getType();
  if (packed.getRank() < 1 || packed.getRank() != out.getRank() ||
      scales.getRank() != out.getRank())
    return emitOpError() << "packed, scale and result tiles must have the "
                            "same rank (>= 1), got "
                         << packed.getRank() << ", " << scales.getRank()
                         << " and " << out.getRank();
  if (!mayBeEqual(packed.getShape().drop_back(), out.getShape().drop_back()) ||
      !mayBeEqual(scales.getShape().drop_back(), out.getShape().drop_back()))
    return emitOpError() << "leading dimensions of packed (" << packed
                         << "), scales (" << scales << ") and result (" << out
                         << ") must agree";
  int64_t n = out.getShape().back(), p = packed.getShape().back(),
          s = scales.getShape().back();
  // Whether packed holds fp4 or fp8 may depend on a parameter.
  bool known = !isa<SwitchType>(packed.getElementType()) && areStatic({n, p});
  bool isFp4 = packed.getElementType().isInteger(8);
  if (known && !isFp4 && p != n)
    return emitOpError() << "fp8 tile's last dimension (" << p
                         << ") must equal the result's (" << n << ")";
  if (known && isFp4 && p * 2 != n)
    return emitOpError() << "packed fp4 tile's last dimension (" << p
                         << ") times 2 must equal the result's last dimension ("
                         << n << "): each byte holds two values";
  if (areStatic({n, s}) && s * 32 != n)
    return emitOpError()
           << "scale tile's last dimension (" << scales.getShape().back()
           << ") times 32 must equal the result's last dimension (" << n
           << "): one E8M0 scale per block of 32 values";
  return success();
}

/// `T` or `T, S`: the input's type, then the scale's unless it is f32.
static ParseResult parseInputAndScaleTypes(OpAsmParser &parser, Type &inputType,
                                           Type &scaleType) {
  if (parser.parseType(inputType))
    return failure();
  if (succeeded(parser.parseOptionalComma()))
    return parser.parseType(scaleType);
  scaleType = parser.getBuilder().getF32Type();
  return success();
}

static void printInputAndScaleTypes(OpAsmPrinter &printer, Operation *,
                                    Type inputType, Type scaleType) {
  printer << inputType;
  if (!scaleType.isF32())
    printer << ", " << scaleType;
}

LogicalResult DequantFp8Op::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (!mayBeEqual(in.getShape(), out.getShape()))
    return emitOpError() << "result " << out
                         << " must have the shape of the input " << in;
  if (getLayout(in) != getLayout(out))
    return emitOpError() << "result " << out
                         << " must have the encoding of the input " << in;
  return success();
}

//===----------------------------------------------------------------------===//
// DotOp, DotScaledOp
//===----------------------------------------------------------------------===//

/// Checks `acc: [M, N]` for a product of `[M, K] x [K, N]`.
static LogicalResult verifyAccumulator(Operation *op, int64_t m, int64_t n,
                                       RankedTensorType acc) {
  if (acc.getRank() != 2 || !mayBeEqual(acc.getDimSize(0), m) ||
      !mayBeEqual(acc.getDimSize(1), n))
    return op->emitOpError()
           << "accumulator must be "
           << getTileLike(acc, {m, n}, acc.getElementType()) << ", got " << acc;
  return success();
}

LogicalResult DotOp::verify() {
  RankedTensorType lhs = getLhs().getType(), rhs = getRhs().getType();
  if (lhs.getRank() != 2 || rhs.getRank() != 2)
    return emitOpError("operands must be 2-D tiles");
  if (lhs.getElementType() != rhs.getElementType() &&
      !isa<SwitchType>(lhs.getElementType()) &&
      !isa<SwitchType>(rhs.getElementType()))
    return emitOpError() << "operand element types differ ("
                         << lhs.getElementType() << " vs "
                         << rhs.getElementType()
                         << "); convert one, or use tile.dot_scaled";
  if (!mayBeEqual(lhs.getDimSize(1), rhs.getDimSize(0)))
    return emitOpError() << "contraction sizes differ: lhs is " << lhs
                         << ", rhs is " << rhs
                         << "; lhs dim 1 must equal rhs dim 0";
  return verifyAccumulator(*this, lhs.getDimSize(0), rhs.getDimSize(1),
                           getAcc().getType());
}

namespace {
/// How one tile.dot_scaled operand is encoded.
struct ScaledOperand {
  bool packedFp4;
  int64_t k;     // logical contraction length
  int64_t other; // M for lhs, N for rhs
};
} // namespace

/// Classifies a dot_scaled operand; `kDim` is its contraction dimension.
static FailureOr<ScaledOperand>
classifyScaledOperand(Operation *op, StringRef which, RankedTensorType type,
                      unsigned kDim, Value scale) {
  if (type.getRank() != 2)
    return op->emitOpError() << which << " must be a 2-D tile";
  Type elem = type.getElementType();
  // The encoding, and with it K, may depend on a parameter.
  if (isa<SwitchType>(elem))
    return ScaledOperand{false, ShapedType::kDynamic,
                         type.getDimSize(1 - kDim)};
  bool packed = elem.isInteger(8);
  bool fp8 = isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
                 Float8E5M2FNUZType>(elem);
  if (!packed && !fp8 && !isa<BFloat16Type, Float16Type, Float32Type>(elem))
    return op->emitOpError()
           << which << " element type " << elem
           << " is not bf16, f16, f32, fp8 or packed fp4 (i8)";
  if (packed && !scale)
    return op->emitOpError()
           << which << " is packed fp4 (i8) and needs its E8M0 scale";
  if (!packed && !fp8 && scale)
    return op->emitOpError() << which << " is " << elem
                             << "; only fp8 and fp4 operands take a scale";
  int64_t k = type.getDimSize(kDim);
  if (packed && !ShapedType::isDynamic(k))
    k *= 2;
  return ScaledOperand{packed, k, type.getDimSize(1 - kDim)};
}

static LogicalResult verifyScale(Operation *op, StringRef which, Value scale,
                                 int64_t rows, int64_t k) {
  if (!scale)
    return success();
  RankedTensorType type = tensorType(scale);
  if (!areStatic({k}))
    return success();
  if (k % 32 != 0)
    return op->emitOpError() << "contraction length " << k
                             << " must be a multiple of the MX block of 32";
  RankedTensorType expected =
      getTileLike(type, {rows, k / 32}, type.getElementType());
  if (!mayBeEqual(type.getShape(), expected.getShape()))
    return op->emitOpError() << which << " scale must be " << expected
                             << " (one per 32 of K), got " << type;
  return success();
}

LogicalResult DotScaledOp::verify() {
  FailureOr<ScaledOperand> lhs = classifyScaledOperand(
      *this, "lhs", getLhs().getType(), /*kDim=*/1, getLhsScale());
  if (failed(lhs))
    return failure();
  FailureOr<ScaledOperand> rhs = classifyScaledOperand(
      *this, "rhs", getRhs().getType(), /*kDim=*/0, getRhsScale());
  if (failed(rhs))
    return failure();
  if (!mayBeEqual(lhs->k, rhs->k))
    return emitOpError() << "contraction lengths differ: lhs has " << lhs->k
                         << " and rhs " << rhs->k
                         << " logical elements (packed fp4 counts twice)";
  if (failed(verifyScale(*this, "lhs", getLhsScale(), lhs->other, lhs->k)) ||
      failed(verifyScale(*this, "rhs", getRhsScale(), rhs->other, rhs->k)))
    return failure();
  return verifyAccumulator(*this, lhs->other, rhs->other, getAcc().getType());
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  int64_t dim = getDim();
  if (dim < 0 || dim >= in.getRank())
    return emitOpError() << "dim " << dim << " is outside the input's "
                         << in.getRank() << " dimensions";
  RankedTensorType expected = getReducedType(in, dim);
  if (out != expected)
    return emitOpError() << "result must be " << expected
                         << " (the input without dim " << dim << ")";
  if (getKind() == ReduceKind::sum && in.getElementType().isInteger(1))
    return emitOpError("sum of i1 tiles is not defined; extend to i32 first");
  return success();
}

//===----------------------------------------------------------------------===//
// QKSoftmaxAccOp
//===----------------------------------------------------------------------===//

/// `%q, %k[, %v], %m, %l, %acc`: five operands without `v`, six with it.
static ParseResult
parseAttentionOperands(OpAsmParser &parser, OpAsmParser::UnresolvedOperand &q,
                       OpAsmParser::UnresolvedOperand &k,
                       std::optional<OpAsmParser::UnresolvedOperand> &v,
                       OpAsmParser::UnresolvedOperand &m,
                       OpAsmParser::UnresolvedOperand &l,
                       OpAsmParser::UnresolvedOperand &acc) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand, 6> operands;
  if (parser.parseOperandList(operands))
    return failure();
  if (operands.size() != 5 && operands.size() != 6)
    return parser.emitError(loc)
           << "expected q, k, [v,] m, l, acc: 5 or 6 operands, got "
           << operands.size();
  bool hasV = operands.size() == 6;
  q = operands[0];
  k = operands[1];
  if (hasV)
    v = operands[2];
  m = operands[2 + hasV];
  l = operands[3 + hasV];
  acc = operands[4 + hasV];
  return success();
}

static void printAttentionOperands(OpAsmPrinter &printer, QKSoftmaxAccOp,
                                   Value q, Value k, Value v, Value m, Value l,
                                   Value acc) {
  printer << q << ", " << k << ", ";
  if (v)
    printer << v << ", ";
  printer << m << ", " << l << ", " << acc;
}

LogicalResult QKSoftmaxAccOp::verify() {
  RankedTensorType q = getQ().getType(), k = getK().getType(),
                   acc = getAcc().getType();
  Value vValue = getV();
  RankedTensorType v = vValue ? tensorType(vValue) : RankedTensorType();
  if (q.getRank() != 2 || k.getRank() != 2 || (v && v.getRank() != 2) ||
      acc.getRank() != 2)
    return emitOpError("q, k, v and acc must be 2-D tiles");
  int64_t m = q.getDimSize(0), d = q.getDimSize(1), n = k.getDimSize(0);
  if (!mayBeEqual(k.getDimSize(1), d))
    return emitOpError() << "q rows have " << d << " features but k rows have "
                         << k.getDimSize(1);
  if (v && !mayBeEqual(v.getDimSize(0), n))
    return emitOpError() << "k has " << n << " keys but v has "
                         << v.getDimSize(0) << " rows";
  if (!v && areStatic({acc.getDimSize(1), d}) && acc.getDimSize(1) > d)
    return emitOpError() << "without v, the values are the first "
                         << acc.getDimSize(1)
                         << " columns of k (acc's columns), but k has " << d;
  int64_t dv = v ? v.getDimSize(1) : acc.getDimSize(1);
  if (!mayBeEqual(acc.getDimSize(0), m) || !mayBeEqual(acc.getDimSize(1), dv))
    return emitOpError() << "acc must be "
                         << getTileLike(acc, {m, dv}, acc.getElementType())
                         << " (q rows x v columns), got " << acc;
  if (Value mask = getMask()) {
    RankedTensorType type = tensorType(mask);
    auto perKey = getTileLike(type, {n}, type.getElementType());
    auto perScore = getTileLike(type, {m, n}, type.getElementType());
    if (!mayBeEqual(type.getShape(), perKey.getShape()) &&
        !mayBeEqual(type.getShape(), perScore.getShape()))
      return emitOpError() << "mask must be " << perKey << " (per key) or "
                           << perScore << " (per query and key), got " << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SplitReduceOp
//===----------------------------------------------------------------------===//

LogicalResult SplitReduceOp::verify() {
  RankedTensorType partial = getPartial().getType(), out = getType();
  if (partial.getRank() != 3)
    return emitOpError() << "partial must be a [splits, rows, columns] "
                            "tile, got "
                         << partial;
  bool lseForm = static_cast<bool>(getLse());
  bool stateForm = getMax() || getSum();
  if (lseForm == stateForm)
    return emitOpError("takes either `lse` or both `max` and `sum`");
  if (stateForm && !(getMax() && getSum()))
    return emitOpError("the max/sum form needs both `max` and `sum`");
  RankedTensorType expected = getReducedType(partial, 0);
  if (out != expected)
    return emitOpError() << "result must be " << expected
                         << " (partial without the split dimension)";
  return success();
}

#define GET_OP_CLASSES
#include "mla/Dialect/Tile/IR/TileOps.cpp.inc"
