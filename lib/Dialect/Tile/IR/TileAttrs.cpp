//===- TileAttrs.cpp - Parameter declarations and symbolic shapes ---------===//

#include "mla/Dialect/Tile/IR/TileDialect.h"
#include "mla/Dialect/Tile/IR/TileTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mla::tile;

#define GET_ATTRDEF_CLASSES
#include "mla/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mla/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

/// Parameter names are identifiers: they are written bare in types.
static bool isIdentifier(StringRef name) {
  return !name.empty() &&
         (llvm::isAlpha(name.front()) || name.front() == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

bool mla::tile::isParamValue(ParamKind kind, Attribute value) {
  if (kind == ParamKind::i64) {
    auto integer = dyn_cast_if_present<IntegerAttr>(value);
    return integer && integer.getType().isInteger(64);
  }
  auto str = dyn_cast_if_present<StringAttr>(value);
  return str && !str.getValue().empty() &&
         llvm::all_of(str.getValue(),
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

void mla::tile::printParamValue(llvm::raw_ostream &os, Attribute value) {
  if (auto integer = dyn_cast<IntegerAttr>(value))
    os << integer.getInt();
  else
    os << '"' << cast<StringAttr>(value).getValue() << '"';
}

ParseResult mla::tile::parseParamValue(AsmParser &parser, Attribute &value,
                                       bool keywords) {
  Builder &builder = parser.getBuilder();
  int64_t integer;
  OptionalParseResult isInteger = parser.parseOptionalInteger(integer);
  if (isInteger.has_value()) {
    if (failed(*isInteger))
      return failure();
    value = builder.getI64IntegerAttr(integer);
    return success();
  }
  std::string name;
  if (keywords ? parser.parseKeywordOrString(&name) : parser.parseString(&name))
    return failure();
  value = builder.getStringAttr(name);
  return success();
}

//===----------------------------------------------------------------------===//
// ParamDeclAttr
//===----------------------------------------------------------------------===//

LogicalResult
ParamDeclAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringAttr name, ParamKind kind, Attribute defaultValue) {
  if (!isIdentifier(name.getValue()))
    return emitError() << "parameter name '" << name.getValue()
                       << "' is not an identifier";
  if (defaultValue && !isParamValue(kind, defaultValue))
    return emitError() << "default " << defaultValue << " of parameter '"
                       << name.getValue() << "' is not "
                       << (kind == ParamKind::i64
                               ? "an integer"
                               : "a string of letters, digits and '_'");
  return success();
}

//===----------------------------------------------------------------------===//
// DimsAttr
//===----------------------------------------------------------------------===//

Attribute DimsAttr::parse(AsmParser &parser, Type) {
  SmallVector<Attribute> dims;
  auto parseDim = [&]() {
    return parseParamValue(parser, dims.emplace_back(), /*keywords=*/true);
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim) ||
      parser.parseGreater())
    return {};
  return DimsAttr::get(parser.getContext(), dims);
}

void DimsAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getDims(), printer, [&](Attribute dim) {
    if (auto name = dyn_cast<StringAttr>(dim))
      printer.printKeywordOrString(name.getValue());
    else
      printer << cast<IntegerAttr>(dim).getInt();
  });
  printer << "]>";
}

LogicalResult
DimsAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                         function_ref<InFlightDiagnostic()> emitError) const {
  ArrayRef<Attribute> dims = getDims();
  if (dims.size() != shape.size())
    return emitError() << "#tile.dims has " << dims.size()
                       << " entries for a rank-" << shape.size() << " tensor";
  bool symbolic = false;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (auto name = dyn_cast<StringAttr>(dim)) {
      if (!isIdentifier(name.getValue()))
        return emitError() << "#tile.dims entry '" << name.getValue()
                           << "' is not a parameter name";
      if (!ShapedType::isDynamic(shape[i]))
        return emitError() << "dimension " << i << " is named by parameter '"
                           << name.getValue() << "' and must be '?'";
      symbolic = true;
      continue;
    }
    auto size = dyn_cast<IntegerAttr>(dim);
    if (!size || size.getInt() != shape[i])
      return emitError() << "dimension " << i << " is "
                         << (ShapedType::isDynamic(shape[i])
                                 ? std::string("'?'")
                                 : std::to_string(shape[i]))
                         << " but its #tile.dims entry is " << dim;
  }
  if (!symbolic)
    return emitError() << "#tile.dims names no parameter; use a static shape";
  return success();
}

DimsAttr DimsAttr::getIfSymbolic(MLIRContext *context,
                                 ArrayRef<Attribute> entries) {
  if (llvm::none_of(entries, llvm::IsaPred<StringAttr>))
    return {};
  return DimsAttr::get(context, entries);
}

FailureOr<Attribute> DimsAttr::getReducedEncoding(int64_t dim) const {
  SmallVector<Attribute> dims(getDims());
  dims.erase(dims.begin() + dim);
  return Attribute(getIfSymbolic(getContext(), dims));
}

FailureOr<Attribute>
DimsAttr::getBroadcastEncoding(ArrayRef<int64_t> newDims,
                               ArrayRef<int64_t> resultShape) const {
  SmallVector<Attribute> dims;
  Builder builder(getContext());
  ArrayRef<Attribute> kept = getDims();
  for (auto [i, size] : llvm::enumerate(resultShape)) {
    if (!llvm::is_contained(newDims, static_cast<int64_t>(i))) {
      dims.push_back(kept.front());
      kept = kept.drop_front();
      continue;
    }
    // A new symbolic dimension has no name to take.
    if (ShapedType::isDynamic(size))
      return failure();
    dims.push_back(builder.getI64IntegerAttr(size));
  }
  return Attribute(getIfSymbolic(getContext(), dims));
}

FailureOr<Attribute> DimsAttr::getTransposedEncoding() const {
  ArrayRef<Attribute> dims = getDims();
  return Attribute(DimsAttr::get(getContext(), {dims[1], dims[0]}));
}
