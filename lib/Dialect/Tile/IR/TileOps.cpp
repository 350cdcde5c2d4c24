//===- TileOps.cpp - Tile dialect operations ------------------------------===//
//
// Parsing, printing and verification. Folds and canonicalization patterns
// live in TileFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mla::tile;

static RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

/// SSA names that a launcher can use as argument names (`%q`, `%kv_scale`);
/// numbered values (`%0`) get a positional name instead.
static bool isIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name.front()) || name.front() == '_');
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  StringAttr nameAttr;
  if (parser.parseSymbolName(nameAttr, getSymNameAttrName(result.name),
                             result.attributes))
    return failure();

  SMLoc signatureLoc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (!resultTypes.empty())
    return parser.emitError(signatureLoc)
           << "a tile kernel returns nothing; write results through "
              "!tile.ptr arguments";

  SmallVector<Type> argTypes;
  SmallVector<Attribute> argNames;
  for (auto [i, arg] : llvm::enumerate(args)) {
    argTypes.push_back(arg.type);
    StringRef name = arg.ssaName.name.drop_front(); // drop the '%'
    argNames.push_back(StringAttr::get(
        ctx, isIdentifier(name) ? name : ("arg" + Twine(i)).str()));
  }
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(FunctionType::get(ctx, argTypes, {})));
  result.addAttribute(getArgNamesAttrName(result.name),
                      ArrayAttr::get(ctx, argNames));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Builder builder(ctx);
  call_interface_impl::addArgAndResultAttrs(builder, result, args, resultAttrs,
                                            getArgAttrsAttrName(result.name),
                                            getResAttrsAttrName(result.name));
  return parser.parseRegion(*result.addRegion(), args);
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, /*resultTypes=*/{});
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymNameAttrName(), getFunctionTypeAttrName(), getArgNamesAttrName(),
       getArgAttrsAttrName(), getResAttrsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  if (&region != &getBody() || region.empty())
    return;
  for (BlockArgument arg : region.getArguments())
    setNameFn(arg, getArgName(arg.getArgNumber()));
}

StringRef KernelOp::getArgName(unsigned i) {
  if (ArrayAttr names = getArgNamesAttr())
    if (i < names.size())
      return cast<StringAttr>(names[i]).getValue();
  return "";
}

LogicalResult KernelOp::verify() {
  FunctionType type = getFunctionType();
  if (!type.getResults().empty())
    return emitOpError("returns nothing; write results through !tile.ptr "
                       "arguments");
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    if (isa<PtrType>(argType) || argType.isInteger(32) ||
        argType.isInteger(64) || argType.isF32())
      continue;
    return emitOpError() << "argument #" << i << " has type " << argType
                         << "; kernel arguments are !tile.ptr<T>, i32, i64 "
                            "or f32";
  }
  if (ArrayAttr names = getArgNamesAttr()) {
    if (names.size() != type.getNumInputs())
      return emitOpError() << "has " << names.size() << " argument names for "
                           << type.getNumInputs() << " arguments";
    llvm::SmallSet<StringRef, 16> seen;
    for (Attribute name : names)
      if (!seen.insert(cast<StringAttr>(name).getValue()).second)
        return emitOpError()
               << "argument name '" << cast<StringAttr>(name).getValue()
               << "' is used twice; launchers bind by name";
  }
  return success();
}

/// A loop whose step is a constant <= 0 never reaches its upper bound, and
/// the canonicalizer would silently delete it as a loop of no iterations.
/// Like scf.parallel's own verifier, this looks through the step to its
/// constant; a step known only at run time cannot be checked (docs/DSL.md).
LogicalResult KernelOp::verifyRegions() {
  bool valid = true;
  getBody().walk([&](LoopLikeOpInterface loop) {
    std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
    if (!steps)
      return;
    for (OpFoldResult step : *steps) {
      std::optional<std::pair<APInt, bool>> value = getConstantAPIntValue(step);
      if (!value || value->first.sgt(0))
        continue;
      loop->emitOpError() << "has constant step "
                          << llvm::toString(value->first, 10, /*Signed=*/true)
                          << "; loops in a tile kernel need a positive step";
      valid = false;
    }
  });
  return success(valid);
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
    if (in.getDimSize(inDim) != out.getDimSize(outDim))
      return emitOpError() << "input dim " << inDim << " (size "
                           << in.getDimSize(inDim) << ") maps to result dim "
                           << outDim << " (size " << out.getDimSize(outDim)
                           << "); sizes must agree";
    ++inDim;
  }
  return success();
}

LogicalResult TransOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getRank() != 2)
    return emitOpError() << "transposes 2-D tiles, got " << in;
  if (in.getElementType() != out.getElementType() || out.getRank() != 2 ||
      out.getDimSize(0) != in.getDimSize(1) ||
      out.getDimSize(1) != in.getDimSize(0))
    return emitOpError() << "result must be "
                         << RankedTensorType::get(
                                {in.getDimSize(1), in.getDimSize(0)},
                                in.getElementType());
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
  ArrayRef<int64_t> maskShape = tensorType(mask).getShape();
  if (maskShape.size() > tile.getShape().size() ||
      maskShape != tile.getShape().take_front(maskShape.size()))
    return op->emitOpError()
           << "mask " << mask.getType()
           << " must match the tile's shape or its leading dimensions (" << tile
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
  if (packed.getShape().drop_back() != out.getShape().drop_back() ||
      scales.getShape().drop_back() != out.getShape().drop_back())
    return emitOpError() << "leading dimensions of packed (" << packed
                         << "), scales (" << scales << ") and result (" << out
                         << ") must agree";
  int64_t n = out.getShape().back();
  bool isFp4 = packed.getElementType().isInteger(8);
  if (!isFp4 && packed.getShape().back() != n)
    return emitOpError() << "fp8 tile's last dimension ("
                         << packed.getShape().back()
                         << ") must equal the result's (" << n << ")";
  if (isFp4 && packed.getShape().back() * 2 != n)
    return emitOpError() << "packed fp4 tile's last dimension ("
                         << packed.getShape().back()
                         << ") times 2 must equal the result's last dimension ("
                         << n << "): each byte holds two values";
  if (scales.getShape().back() * 32 != n)
    return emitOpError()
           << "scale tile's last dimension (" << scales.getShape().back()
           << ") times 32 must equal the result's last dimension (" << n
           << "): one E8M0 scale per block of 32 values";
  return success();
}

LogicalResult DequantFp8Op::verify() {
  if (getInput().getType().getShape() != getType().getShape())
    return emitOpError() << "result " << getType()
                         << " must have the shape of the input "
                         << getInput().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// DotOp, DotScaledOp
//===----------------------------------------------------------------------===//

/// Checks `acc: [M, N]` for a product of `[M, K] x [K, N]`.
static LogicalResult verifyAccumulator(Operation *op, int64_t m, int64_t n,
                                       RankedTensorType acc) {
  if (acc.getRank() != 2 || acc.getDimSize(0) != m || acc.getDimSize(1) != n)
    return op->emitOpError()
           << "accumulator must be "
           << RankedTensorType::get({m, n}, acc.getElementType()) << ", got "
           << acc;
  return success();
}

LogicalResult DotOp::verify() {
  RankedTensorType lhs = getLhs().getType(), rhs = getRhs().getType();
  if (lhs.getRank() != 2 || rhs.getRank() != 2)
    return emitOpError("operands must be 2-D tiles");
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError() << "operand element types differ ("
                         << lhs.getElementType() << " vs "
                         << rhs.getElementType()
                         << "); convert one, or use tile.dot_scaled";
  if (lhs.getDimSize(1) != rhs.getDimSize(0))
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
  int64_t k = type.getDimSize(kDim) * (packed ? 2 : 1);
  return ScaledOperand{packed, k, type.getDimSize(1 - kDim)};
}

static LogicalResult verifyScale(Operation *op, StringRef which, Value scale,
                                 int64_t rows, int64_t k) {
  if (!scale)
    return success();
  RankedTensorType type = tensorType(scale);
  if (k % 32 != 0)
    return op->emitOpError() << "contraction length " << k
                             << " must be a multiple of the MX block of 32";
  auto expected = RankedTensorType::get({rows, k / 32}, type.getElementType());
  if (type != expected)
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
  if (lhs->k != rhs->k)
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
  SmallVector<int64_t> expected(in.getShape());
  expected.erase(expected.begin() + dim);
  if (out.getShape() != ArrayRef<int64_t>(expected) ||
      out.getElementType() != in.getElementType())
    return emitOpError() << "result must be "
                         << RankedTensorType::get(expected, in.getElementType())
                         << " (the input without dim " << dim << ")";
  if (getKind() == ReduceKind::sum && in.getElementType().isInteger(1))
    return emitOpError("sum of i1 tiles is not defined; extend to i32 first");
  return success();
}

//===----------------------------------------------------------------------===//
// QKSoftmaxAccOp
//===----------------------------------------------------------------------===//

LogicalResult QKSoftmaxAccOp::verify() {
  RankedTensorType q = getQ().getType(), k = getK().getType(),
                   v = getV().getType(), acc = getAcc().getType();
  if (q.getRank() != 2 || k.getRank() != 2 || v.getRank() != 2 ||
      acc.getRank() != 2)
    return emitOpError("q, k, v and acc must be 2-D tiles");
  int64_t m = q.getDimSize(0), d = q.getDimSize(1), n = k.getDimSize(0);
  if (k.getDimSize(1) != d)
    return emitOpError() << "q rows have " << d << " features but k rows have "
                         << k.getDimSize(1);
  if (v.getDimSize(0) != n)
    return emitOpError() << "k has " << n << " keys but v has "
                         << v.getDimSize(0) << " rows";
  if (acc.getDimSize(0) != m || acc.getDimSize(1) != v.getDimSize(1))
    return emitOpError() << "acc must be "
                         << RankedTensorType::get({m, v.getDimSize(1)},
                                                  acc.getElementType())
                         << " (q rows x v columns), got " << acc;
  if (Value mask = getMask()) {
    RankedTensorType type = tensorType(mask);
    auto perKey = RankedTensorType::get({n}, type.getElementType());
    auto perScore = RankedTensorType::get({m, n}, type.getElementType());
    if (type != perKey && type != perScore)
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
  if (out.getShape() != partial.getShape().drop_front())
    return emitOpError() << "result must be "
                         << RankedTensorType::get(
                                partial.getShape().drop_front(),
                                partial.getElementType())
                         << " (partial without the split dimension)";
  return success();
}

#define GET_OP_CLASSES
#include "mla/Dialect/Tile/IR/TileOps.cpp.inc"
