//===- LayoutChoice.cpp - Default layouts for tiles on a chip -------------===//

#include "LayoutChoice.h"

#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include <optional>

using namespace mlir;
using namespace mla::tilegpu;

/// The largest power of two that is at most `limit` and divides `n`.
static unsigned largestPow2Dividing(int64_t n, unsigned limit) {
  unsigned p = 1;
  while (p * 2 <= limit && n % (p * 2) == 0)
    p *= 2;
  return p;
}

BlockedAttr mla::tilegpu::chooseBlocked(MLIRContext *ctx,
                                        ArrayRef<int64_t> shape,
                                        unsigned elementBits,
                                        unsigned contiguousDim,
                                        unsigned waveSize, unsigned numWarps,
                                        unsigned reducedDims) {
  unsigned rank = shape.size();
  // Fastest first: the contiguous dimension, then the others from the last.
  SmallVector<unsigned> order = {contiguousDim};
  for (unsigned d = rank; d-- > 0;)
    if (d != contiguousDim)
      order.push_back(d);

  SmallVector<unsigned> sizePerThread(rank, 1), threads(rank, 1),
      warps(rank, 1);
  unsigned elementBytes = std::max(1u, elementBits / 8);
  sizePerThread[contiguousDim] =
      largestPow2Dividing(shape[contiguousDim], 16 / elementBytes);

  unsigned lanesLeft = waveSize;
  for (unsigned d : order) {
    threads[d] = largestPow2Dividing(shape[d] / sizePerThread[d], lanesLeft);
    lanesLeft /= threads[d];
  }
  // Lanes the tile cannot use hold replicas along the slowest dimension.
  threads[order.back()] *= lanesLeft;

  // Warps from the slowest dimension inwards: first over the dimensions
  // not reduced, then over the reduced ones.
  unsigned warpsLeft = numWarps;
  for (bool reduced : {false, true}) {
    for (unsigned i = rank; i-- > 0;) {
      unsigned d = order[i];
      if (bool(reducedDims & (1u << d)) != reduced)
        continue;
      int64_t rest = shape[d] / (int64_t(sizePerThread[d]) * threads[d]);
      warps[d] = largestPow2Dividing(std::max<int64_t>(rest, 1), warpsLeft);
      warpsLeft /= warps[d];
    }
  }
  warps[order.back()] *= warpsLeft;

  // Warps that only a reduced dimension could take are traded for lanes of
  // a dimension not reduced (the slowest first), whose warps then cover
  // what those lanes did: a reduction across lanes is shuffles, one across
  // warps an exchange through LDS behind barriers.
  for (unsigned r = 0; r < rank; ++r) {
    if (!(reducedDims & (1u << r)))
      continue;
    for (unsigned i = rank; i-- > 0;) {
      unsigned d = order[i];
      if (reducedDims & (1u << d))
        continue;
      while (warps[r] > 1 && threads[d] > 1) {
        warps[r] /= 2;
        threads[r] *= 2;
        threads[d] /= 2;
        warps[d] *= 2;
      }
    }
  }
  return BlockedAttr::get(ctx, sizePerThread, threads, warps, order);
}

/// The warpgroup-product layout of an [m, n] product on `numWarps` warps:
/// warpgroups split the rows into whole instructions first, then the
/// columns, each taking the widest instruction (at most 256 columns) that
/// its columns are made of. None where the shape does not split so.
static std::optional<MmaAttr> chooseWarpgroupMma(MLIRContext *ctx, int64_t m,
                                                 int64_t n, unsigned numWarps) {
  if (m % 64 != 0 || numWarps % 4 != 0)
    return std::nullopt;
  unsigned groups = numWarps / 4;
  unsigned rowGroups = largestPow2Dividing(m / 64, groups);
  unsigned colGroups = groups / rowGroups;
  if (n % colGroups != 0 || (n / colGroups) % 8 != 0)
    return std::nullopt;
  int64_t cols = n / colGroups, instrN = cols;
  while (instrN > 256 || cols % instrN != 0 || instrN % 8 != 0)
    instrN -= 8;
  return MmaAttr::get(ctx, MmaKind::wgmma,
                      {64, static_cast<unsigned>(instrN), 16},
                      {4 * rowGroups, colGroups});
}

MmaAttr mla::tilegpu::chooseMma(MLIRContext *ctx, const ChipInfo &chip,
                                int64_t m, int64_t n, int64_t k,
                                unsigned numWarps, Type element,
                                ProductUse use) {
  if (chip.warpgroupMma && (element.isBF16() || element.isF16()))
    if (std::optional<MmaAttr> mma = chooseWarpgroupMma(ctx, m, n, numWarps))
      return *mma;
  // One row of instructions and a few columns, over a long K (an attention
  // step's scores on a 16-row block): split among the warps, each would
  // read all of A and multiply few columns. The warps split K instead,
  // each reading its part of both operands once; one exchange of the
  // small result sums the parts (Dot.cpp), and every warp then holds the
  // whole result, so the softmax's row reductions stay in the warp. A
  // product that adds to a loop's carried accumulator would pay that
  // exchange and its barriers every iteration (a 16-row GEMM's K step), so
  // its warps take columns instead.
  if (!use.accumulatesInLoop && numWarps > 1 && m == chip.mmaM &&
      n % chip.mmaN == 0 && n <= 4 * int64_t(chip.mmaN) &&
      k % (int64_t(chip.mmaK) * numWarps) == 0 &&
      k >= 2 * int64_t(chip.mmaK) * numWarps)
    return MmaAttr::get(ctx, getMmaKind(chip),
                        {chip.mmaM, chip.mmaN, chip.mmaK}, {1, 1, numWarps});
  // Per K step a warp reads the A rows and B columns of its part of the
  // result, so the grid that reads the fewest, m / rowWarps + n / colWarps,
  // wins (ties go to more row warps). A warp's part spans at least one
  // instruction each way and at most two instruction rows: its A registers
  // live beside its share of the accumulator, and a 64x512 product on 8
  // warps of 64 rows each spilled and ran slower on sm_90 than on 32-row
  // warps (bench/README.md); so did gfx950's attention step (its left
  // operand, the probabilities, held whole in registers). A loaded left
  // operand is read one K step at a time, so on the AMD chips a warp takes
  // up to four instruction rows of it: a 256x256 GEMM tile on 8 waves then
  // reads 192 operand rows and columns per K step instead of 288.
  int64_t maxRows =
      (use.lhsLoaded && chip.isAMD() ? 4 : 2) * int64_t(chip.mmaM);
  std::optional<unsigned> bestRows;
  int64_t bestCost = 0;
  for (unsigned rowWarps = numWarps; rowWarps >= 1; rowWarps /= 2) {
    unsigned colWarps = numWarps / rowWarps;
    int64_t rows = m / rowWarps, cols = n / colWarps;
    bool fits = m % rowWarps == 0 && n % colWarps == 0 &&
                rows % chip.mmaM == 0 && cols % chip.mmaN == 0 &&
                rows <= maxRows;
    if (fits && (!bestRows || rows + cols < bestCost)) {
      bestRows = rowWarps;
      bestCost = rows + cols;
    }
  }
  unsigned rowWarps =
      bestRows
          ? *bestRows
          : largestPow2Dividing(std::max<int64_t>(m / chip.mmaM, 1), numWarps);
  return MmaAttr::get(ctx, getMmaKind(chip), {chip.mmaM, chip.mmaN, chip.mmaK},
                      {rowWarps, numWarps / rowWarps});
}

MmaAttr mla::tilegpu::withInstrKFor(MmaAttr mma, const ChipInfo &chip,
                                    int64_t k) {
  unsigned instrK = mma.getInstrK();
  if (k % instrK == 0 || chip.family != ChipFamily::CDNA4 ||
      k % (instrK / 2) != 0)
    return mma;
  return MmaAttr::get(mma.getContext(), mma.getKind(),
                      {mma.getInstrM(), mma.getInstrN(), instrK / 2},
                      mma.getWarpsPerCTA());
}

MmaAttr mla::tilegpu::scaledFp4Mma(MmaAttr mma) {
  unsigned m = mma.getInstrM();
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  return MmaAttr::get(mma.getContext(), mma.getKind(),
                      {m, mma.getInstrN(), 32 * 64 / m},
                      {warps[0], warps[1] * mma.getWarpsK()});
}

bool mla::tilegpu::isScaledFp4Mma(MmaAttr mma) {
  return mma.getKind() == MmaKind::mfma && mma.getKWidth() == 32;
}

MemDescType mla::tilegpu::bufferArrayOf(MemDescType type, int64_t count) {
  SharedAttr layout = type.getLayout();
  SmallVector<int64_t> shape = {count};
  llvm::append_range(shape, type.getShape());
  SmallVector<unsigned> order;
  for (unsigned d : layout.getOrder())
    order.push_back(d + 1);
  order.push_back(0);
  return MemDescType::get(
      type.getContext(), shape, type.getElementType(),
      SharedAttr::get(type.getContext(), layout.getVec(), layout.getPerPhase(),
                      layout.getMaxPhase(), order, layout.getAtom()));
}

SharedAttr mla::tilegpu::chooseWarpgroupShared(MLIRContext *ctx,
                                               RankedTensorType type) {
  if (type.getRank() != 2 ||
      type.getElementType().getIntOrFloatBitWidth() != 16)
    return {};
  int64_t rowBytes = type.getDimSize(1) * 2;
  for (int64_t atomBytes : {128, 64, 32})
    if (rowBytes % atomBytes == 0)
      return SharedAttr::get(ctx, /*vec=*/8, /*perPhase=*/128 / atomBytes,
                             /*maxPhase=*/atomBytes / 16, {1, 0},
                             /*atom=*/atomBytes / 2);
  return {};
}

void mla::tilegpu::setLoadLayout(tile::LoadOp load, RankedTensorType type) {
  load.getResult().setType(type);
  Value mask = load.getMask();
  if (!mask)
    return;
  auto maskType = cast<RankedTensorType>(mask.getType());
  Attribute layout = type.getEncoding();
  for (int64_t d = type.getRank(); d-- > maskType.getRank();)
    layout = SliceAttr::get(load.getContext(), d, layout);
  if (maskType.getEncoding() == layout)
    return;
  OpBuilder b(load);
  load.getMaskMutable()[0].set(ConvertLayoutOp::create(
      b, load.getLoc(),
      RankedTensorType::get(maskType.getShape(), maskType.getElementType(),
                            layout),
      mask));
}
