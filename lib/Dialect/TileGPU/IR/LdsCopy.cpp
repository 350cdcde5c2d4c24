//===- LdsCopy.cpp - Copies from global memory straight into LDS ----------===//

#include "mla/Dialect/TileGPU/IR/LdsCopy.h"
#include "mla/Dialect/Tile/Analysis/KnownMultiple.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mla;
using namespace mla::tilegpu;

bool mla::tilegpu::ldsCopyColumnsInsideView(Value view, ValueRange indices,
                                            int64_t columns) {
  auto viewOp = view.getDefiningOp<tile::ViewOp>();
  if (!viewOp || indices.size() != 2)
    return false;
  int64_t size = viewOp.getStaticSizes()[1];
  std::optional<int64_t> column = getConstantIntValue(indices[1]);
  return !ShapedType::isDynamic(size) && column && *column >= 0 &&
         *column + columns <= size;
}

unsigned mla::tilegpu::getLdsCopyBytes(const ChipInfo &chip, Value view,
                                       ValueRange indices, MemDescType buffer) {
  auto viewOp = view.getDefiningOp<tile::ViewOp>();
  SharedAttr layout = buffer.getLayout();
  if (!chip.maxLdsCopyBytes || !viewOp || buffer.getRank() != 2 ||
      layout.getOrder() != ArrayRef<unsigned>{1, 0} || indices.size() != 2 ||
      viewOp.getStaticStrides()[1] != 1)
    return 0;
  unsigned bits = buffer.getElementType().getIntOrFloatBitWidth();
  if (bits % 8)
    return 0;
  int64_t elementBytes = bits / 8;

  // A chunk lies inside one row of the tile, one swizzle group and one row
  // of the view, or past the view's row end as a whole (it then reads
  // zero): the tile's first column, the view's row length and its row
  // stride are multiples of it, as constants or as the program states them
  // (getKnownMultiple). A tile whose columns are all inside the view needs
  // nothing of its row length.
  int64_t columns = buffer.getShape()[1];
  int64_t columnBytes = getKnownMultiple(indices[1]) * elementBytes;
  int64_t strideBytes =
      getKnownMultiple(viewOp.getMixedStride(0)) * elementBytes;
  int64_t rowBytes =
      ldsCopyColumnsInsideView(view, indices, columns)
          ? columnBytes
          : getKnownMultiple(viewOp.getMixedSize(1)) * elementBytes;
  auto fits = [&](int64_t bytes) {
    if ((columns * elementBytes) % bytes || columnBytes % bytes ||
        rowBytes % bytes || strideBytes % bytes)
      return false;
    return layout.getMaxPhase() <= 1 ||
           (layout.getVec() * elementBytes) % bytes == 0;
  };
  int64_t narrowest = std::max<int64_t>(elementBytes, chip.minLdsCopyBytes);
  for (int64_t bytes = chip.maxLdsCopyBytes; bytes >= narrowest; bytes /= 2)
    if (fits(bytes))
      return bytes;
  return 0;
}
