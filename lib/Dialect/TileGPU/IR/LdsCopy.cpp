//===- LdsCopy.cpp - Copies from global memory straight into LDS ----------===//

#include "mla/Dialect/TileGPU/IR/LdsCopy.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mla;
using namespace mla::tilegpu;

unsigned mla::tilegpu::getLdsCopyBytes(const ChipInfo &chip, Value view,
                                       ValueRange indices, MemDescType buffer) {
  auto viewOp = view.getDefiningOp<tile::ViewOp>();
  SharedAttr layout = buffer.getLayout();
  if (!chip.maxLdsCopyBytes || !viewOp || buffer.getRank() != 2 ||
      layout.getOrder() != ArrayRef<unsigned>{1, 0} || indices.size() != 2)
    return 0;
  unsigned bits = buffer.getElementType().getIntOrFloatBitWidth();
  if (bits % 8)
    return 0;
  int64_t elementBytes = bits / 8;

  // Every column of the tile is inside the view, and a row is contiguous.
  ArrayRef<int64_t> sizes = viewOp.getStaticSizes();
  ArrayRef<int64_t> strides = viewOp.getStaticStrides();
  std::optional<int64_t> column = getConstantIntValue(indices[1]);
  int64_t columns = buffer.getShape()[1];
  if (strides[1] != 1 || ShapedType::isDynamic(sizes[1]) || !column ||
      *column < 0 || *column + columns > sizes[1])
    return 0;

  // A chunk stays inside a row and a swizzle group, and starts aligned when
  // the row stride is known; rows of unknown stride move element by element.
  auto fits = [&](int64_t bytes) {
    if ((columns * elementBytes) % bytes || (*column * elementBytes) % bytes)
      return false;
    if (layout.getMaxPhase() > 1 && (layout.getVec() * elementBytes) % bytes)
      return false;
    if (ShapedType::isDynamic(strides[0]))
      return bytes == elementBytes;
    return (strides[0] * elementBytes) % bytes == 0;
  };
  int64_t narrowest = std::max<int64_t>(elementBytes, chip.minLdsCopyBytes);
  for (int64_t bytes = chip.maxLdsCopyBytes; bytes >= narrowest; bytes /= 2)
    if (fits(bytes))
      return bytes;
  return 0;
}
