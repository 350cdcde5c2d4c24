//===- AssignLayouts.cpp - The tilegpu-assign-layouts pass ----------------===//
//
// Tiles that must share a layout (operands and results of elementwise ops,
// loop-carried values, if results) are grouped with a union-find. Each group
// gets one layout: from its anchors (loads, matrix products) when it has
// any, else derived from a related group (a reduction's result is the slice
// of its input's layout, a broadcast's input the slice of its result's),
// else a default blocked layout. Types are then rewritten in place and
// conversions inserted where an op needs another layout than its operand
// has.
//
//===----------------------------------------------------------------------===//

#include "LaunchKeys.h"
#include "LayoutChoice.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/LdsCopy.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"
#include "mla/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

namespace mla::tilegpu {
#define GEN_PASS_DEF_TILEGPUASSIGNLAYOUTS
#include "mla/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mla::tilegpu

using namespace mlir;
using namespace mla;
using namespace mla::tilegpu;

static RankedTensorType tileType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

static RankedTensorType withLayout(RankedTensorType type, Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

/// How `dot`'s layout choice sees its operands and result (ProductUse):
/// whether its left operand is loaded, and whether its accumulator is the
/// carried value of the loop whose body holds it.
static ProductUse productUse(Operation *dot, Value lhs, Value acc) {
  auto carried = dyn_cast<BlockArgument>(acc);
  return {lhs.getDefiningOp<tile::LoadOp>() != nullptr,
          carried && isa<scf::ForOp>(carried.getOwner()->getParentOp()) &&
              carried.getArgNumber() > 0 &&
              carried.getOwner() == dot->getBlock()};
}

/// Ops that can be cloned for each user, so that each copy takes the layout
/// its user needs, and made next to it.
static bool isRematerializable(Operation *op) {
  if (isa<tile::SplatOp, tile::RangeOp>(op))
    return true;
  return isa<arith::ConstantOp>(op) && tileType(op->getResult(0));
}

/// Ops whose tile operands and results share one layout.
static bool sharesLayout(Operation *op) {
  if (isa<tile::DequantFp8Op>(op))
    return true;
  return op->hasTrait<OpTrait::Elementwise>() &&
         llvm::any_of(op->getResultTypes(),
                      [](Type t) { return isa<RankedTensorType>(t); });
}

namespace {
class LayoutAssigner {
public:
  /// `stages`: the kernel's launch key (tilegpu-pipeline-loads).
  LayoutAssigner(tile::KernelOp kernel, const ChipInfo &chip, unsigned numWarps,
                 unsigned stages)
      : kernel(kernel), chip(chip), numWarps(numWarps), stages(stages),
        ctx(kernel.getContext()) {}

  LogicalResult run();

private:
  /// Union-find over tile values.
  Value find(Value v);
  void unite(Value a, Value b);

  void splitRematerializable();
  void buildGroups();
  /// The layout an anchor op gives its result, with a priority (higher
  /// wins within a group); null when `v` is not an anchor.
  std::pair<Attribute, int> anchorLayout(Value v);
  void decideAnchored();
  bool deriveOnce();
  void decideDefaults();
  LogicalResult rewrite();
  void loadOperandsDirectly();
  /// Whether `dot` multiplies two block-scaled fp4 operands on a chip whose
  /// matrix cores take them.
  bool isScaledFp4Product(tile::DotScaledOp dot) const {
    auto packedFp4 = [](Value operand, Value scale) {
      return scale && tileType(operand).getElementType().isInteger(8);
    };
    return chip.scaledFp4Mma && packedFp4(dot.getLhs(), dot.getLhsScale()) &&
           packedFp4(dot.getRhs(), dot.getRhsScale());
  }
  /// Gives `product` (a tile.dot or tile.dot_scaled of result group
  /// layout `group`) the result layout `mma` of its own instruction: the
  /// accumulator converted to it, the result converted back where they
  /// differ (products of one group may each lay out their own result, e.g.
  /// warps that split one's K and not another's).
  void produceProduct(OpBuilder &b, Operation *product, OpOperand &acc,
                      MmaAttr group, MmaAttr mma);
  /// Gives `operand` the lane map `required`: a tile loaded (or transposed
  /// from one loaded) for this use alone is loaded in it, anything else
  /// converted.
  void placeOperand(OpBuilder &b, Location loc, OpOperand &operand,
                    const LaneMap &required);
  /// Whether the tile of `load` can be copied straight into LDS as widely
  /// as the chip loads into registers.
  bool copiesWhole(tile::LoadOp load);
  LogicalResult checkLayoutsHold();

  Attribute layoutOf(Value v) { return layouts.lookup(find(v)); }
  /// The blocked layout of a tile of `type` in the group of `member`
  /// (none: of no group), its warps off the dimensions the group's tiles are
  /// reduced along.
  Attribute defaultBlocked(RankedTensorType type, Value member = {});
  Value convertTo(OpBuilder &b, Location loc, Value v, Attribute layout);

  tile::KernelOp kernel;
  const ChipInfo &chip;
  unsigned numWarps;
  unsigned stages;
  MLIRContext *ctx;

  llvm::MapVector<Value, Value> parent;
  /// Per group root, bit d set where a tile of the group is reduced along
  /// dimension d (buildGroups).
  llvm::DenseMap<Value, unsigned> reducedDims;
  llvm::DenseMap<Value, Attribute> layouts;
  /// Values whose defining op produces another layout than their group's
  /// (a load in a matrix-core group): the op's own layout.
  llvm::DenseMap<Value, Attribute> natural;
};
} // namespace

Value LayoutAssigner::find(Value v) {
  auto it = parent.find(v);
  if (it == parent.end()) {
    parent[v] = v;
    return v;
  }
  if (it->second == v)
    return v;
  Value root = find(it->second);
  parent[v] = root;
  return root;
}

void LayoutAssigner::unite(Value a, Value b) {
  Value ra = find(a), rb = find(b);
  if (ra != rb)
    parent[rb] = ra;
}

/// Each use of a rematerializable tile gets its own copy, made right before
/// its user: a tile made outside a loop (LICM hoists them) would hold its
/// registers across the loop, as a splat of the fp8 tensor scale held 30
/// SGPRs across a partial program's run of work items on gfx942.
void LayoutAssigner::splitRematerializable() {
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    if (isRematerializable(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getResult(0).getUses())
      uses.push_back(&use);
    for (OpOperand *use : uses) {
      if (use->getOwner() == op->getNextNode())
        continue;
      OpBuilder b(use->getOwner());
      use->set(b.clone(*op)->getResult(0));
    }
    if (op->use_empty())
      op->erase();
  }
}

void LayoutAssigner::buildGroups() {
  kernel.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (tileType(result))
        find(result);
    if (sharesLayout(op)) {
      Value first;
      for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults())) {
        if (!tileType(v))
          continue;
        if (first)
          unite(first, v);
        else
          first = v;
      }
    }
    if (auto dot = dyn_cast<tile::DotOp>(op))
      unite(dot.getAcc(), dot.getResult());
    if (auto dot = dyn_cast<tile::DotScaledOp>(op))
      unite(dot.getAcc(), dot.getResult());
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg, result, yielded] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                     loop.getResults(), loop.getYieldedValues())) {
        if (!tileType(result))
          continue;
        unite(result, init);
        unite(result, arg);
        unite(result, yielded);
      }
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (auto [i, result] : llvm::enumerate(branch.getResults())) {
        if (!tileType(result))
          continue;
        unite(result, branch.thenYield().getOperand(i));
        if (!branch.getElseRegion().empty())
          unite(result, branch.elseYield().getOperand(i));
      }
    }
  });
  kernel.walk([&](tile::ReduceOp reduce) {
    reducedDims[find(reduce.getInput())] |= 1u << reduce.getDim();
  });
}

Attribute LayoutAssigner::defaultBlocked(RankedTensorType type, Value member) {
  unsigned bits = type.getElementType().isIntOrFloat()
                      ? type.getElementType().getIntOrFloatBitWidth()
                      : 32;
  return chooseBlocked(ctx, type.getShape(), bits, type.getRank() - 1,
                       chip.waveSize, numWarps,
                       member ? reducedDims.lookup(find(member)) : 0);
}

std::pair<Attribute, int> LayoutAssigner::anchorLayout(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return {};
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    // A tile loaded only to be broadcast (a layer norm's weights) is loaded
    // in the slice layout the broadcasts need: each warp reads it whole,
    // where a blocked load would be exchanged through LDS behind a barrier.
    if (!load->use_empty() &&
        llvm::all_of(load->getUsers(), llvm::IsaPred<tile::BroadcastOp>))
      return {};
    return {defaultBlocked(load.getType(), load.getResult()), 1};
  }
  if (auto dequant = dyn_cast<tile::DequantMxOp>(op)) {
    // Dequantize where the packed bytes were loaded: each lane expands its
    // own bytes (two fp4 values each) without moving them.
    RankedTensorType type = dequant.getType();
    auto packed = dyn_cast_if_present<BlockedAttr>(
        anchorLayout(dequant.getPacked()).first);
    if (packed) {
      SmallVector<unsigned> perThread(packed.getSizePerThread());
      if (dequant.getPacked().getType().getElementType().isInteger(8))
        perThread.back() *= 2;
      auto layout =
          BlockedAttr::get(ctx, perThread, packed.getThreadsPerWarp(),
                           packed.getWarpsPerCTA(), packed.getOrder());
      std::string why;
      if (succeeded(layout.getLaneMap(type.getShape(), &why)))
        return {layout, 1};
    }
    return {defaultBlocked(type, dequant.getResult()), 1};
  }
  if (auto dot = dyn_cast<tile::DotOp>(op)) {
    RankedTensorType type = dot.getType();
    return {chooseMma(ctx, chip, type.getDimSize(0), type.getDimSize(1),
                      dot.getLhs().getType().getDimSize(1), numWarps,
                      dot.getLhs().getType().getElementType(),
                      productUse(dot, dot.getLhs(), dot.getAcc())),
            2};
  }
  if (auto dot = dyn_cast<tile::DotScaledOp>(op)) {
    // Products of two scaled fp4 operands (tile-decompose keep-scaled-fp4)
    // take the chip's scaled instruction, the warps placed as for a bf16
    // product of as many K steps (a quarter of K: the scaled instruction
    // takes 4 times the bf16 one's K), with no K split: the rows and
    // columns of instructions go to the warps.
    if (!isScaledFp4Product(dot))
      return {};
    RankedTensorType type = dot.getType();
    int64_t k = 2 * tileType(dot.getLhs()).getDimSize(1);
    return {scaledFp4Mma(
                chooseMma(ctx, chip, type.getDimSize(0), type.getDimSize(1),
                          k / 4, numWarps, BFloat16Type::get(ctx),
                          productUse(dot, dot.getLhs(), dot.getAcc()))),
            2};
  }
  return {};
}

void LayoutAssigner::decideAnchored() {
  llvm::DenseMap<Value, int> priority;
  for (auto &[value, unused] : parent) {
    auto [layout, rank] = anchorLayout(value);
    if (!layout)
      continue;
    Value root = find(value);
    if (!layouts.count(root) || rank > priority[root]) {
      layouts[root] = layout;
      priority[root] = rank;
    }
  }
  for (auto &[value, unused] : parent) {
    auto [layout, rank] = anchorLayout(value);
    if (layout && layout != layoutOf(value))
      natural[value] = layout;
  }
}

/// Decides undecided groups from decided neighbours through reductions,
/// broadcasts, transposes and masks; returns whether anything changed.
bool LayoutAssigner::deriveOnce() {
  bool changed = false;
  auto decide = [&](Value v, Attribute layout) {
    Value root = find(v);
    if (layouts.count(root) || !layout)
      return;
    RankedTensorType type = tileType(v);
    std::string why;
    auto distributed = dyn_cast<DistributedLayoutAttr>(layout);
    if (!distributed || failed(distributed.getLaneMap(type.getShape(), &why)))
      return;
    layouts[root] = layout;
    changed = true;
  };
  kernel.walk([&](Operation *op) {
    if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      if (Attribute in = layoutOf(reduce.getInput()))
        decide(reduce.getResult(), SliceAttr::get(ctx, reduce.getDim(), in));
      return;
    }
    if (auto broadcast = dyn_cast<tile::BroadcastOp>(op)) {
      Attribute out = layoutOf(broadcast.getResult());
      if (out) {
        // Slice away the new dims, highest first.
        Attribute in = out;
        for (int64_t d : llvm::reverse(broadcast.getDims()))
          in = SliceAttr::get(ctx, d, in);
        decide(broadcast.getInput(), in);
      } else if (auto slice = dyn_cast_if_present<SliceAttr>(
                     layoutOf(broadcast.getInput()))) {
        if (broadcast.getDims().size() == 1 &&
            slice.getDim() == broadcast.getDims()[0])
          decide(broadcast.getResult(), slice.getParent());
      }
      return;
    }
    if (auto trans = dyn_cast<tile::TransOp>(op)) {
      if (auto in = dyn_cast_if_present<tile::TileEncodingAttrInterface>(
              layoutOf(trans.getInput()))) {
        FailureOr<Attribute> out = in.getTransposedEncoding();
        if (succeeded(out))
          decide(trans.getResult(), *out);
      }
      return;
    }
    auto maskOf = [&](Value tile, Value mask) {
      if (!mask)
        return;
      Attribute layout = layoutOf(tile);
      if (!layout)
        return;
      int64_t tileRank = tileType(tile).getRank();
      for (int64_t d = tileRank; d-- > tileType(mask).getRank();)
        layout = SliceAttr::get(ctx, d, layout);
      decide(mask, layout);
    };
    if (auto load = dyn_cast<tile::LoadOp>(op))
      maskOf(load.getResult(), load.getMask());
    if (auto store = dyn_cast<tile::StoreOp>(op))
      maskOf(store.getValue(), store.getMask());
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
      if (Attribute in = layoutOf(slice.getSource()))
        decide(slice.getResult(), in);
    }
  });
  return changed;
}

void LayoutAssigner::decideDefaults() {
  for (auto &[value, unused] : parent) {
    Value root = find(value);
    if (!layouts.count(root))
      layouts[root] = defaultBlocked(tileType(value), root);
  }
}

/// Gives `value` a layout; a constant's value attribute follows its type.
static void setLayout(Value value, Attribute layout) {
  RankedTensorType type = withLayout(tileType(value), layout);
  value.setType(type);
  if (auto constant = value.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
      constant.setValueAttr(dense.reshape(type));
}

/// Gives `value` the type `produced` and converts it, right after, to
/// `used` for its uses.
static void produceAs(OpBuilder &b, Value value, RankedTensorType produced,
                      RankedTensorType used) {
  value.setType(produced);
  b.setInsertionPointAfterValue(value);
  Value converted = ConvertLayoutOp::create(b, value.getLoc(), used, value);
  value.replaceAllUsesExcept(converted, converted.getDefiningOp());
}

Value LayoutAssigner::convertTo(OpBuilder &b, Location loc, Value v,
                                Attribute layout) {
  RankedTensorType type = tileType(v);
  if (type.getEncoding() == layout)
    return v;
  return ConvertLayoutOp::create(b, loc, withLayout(type, layout), v);
}

LogicalResult LayoutAssigner::rewrite() {
  // Every tile value takes its group's layout; an anchor whose own layout
  // lost to its group's produces its own and is converted right after.
  for (auto &[value, unused] : parent) {
    RankedTensorType type = tileType(value);
    Attribute group = layoutOf(value);
    auto it = natural.find(value);
    if (it == natural.end()) {
      setLayout(value, group);
      continue;
    }
    OpBuilder b(ctx);
    produceAs(b, value, withLayout(type, it->second), withLayout(type, group));
  }

  // Operands an op needs in another layout than their group's.
  WalkResult result = kernel.walk([&](Operation *op) -> WalkResult {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      auto group = dyn_cast<MmaAttr>(tileType(dot.getResult()).getEncoding());
      if (!group)
        return op->emitOpError("needs a matrix-core result layout");
      // The product's own instruction may take a K the group's does not
      // (or the group's is a scaled fp4 product's); its result layout is
      // the group's either way.
      MmaAttr own = group;
      if (isScaledFp4Mma(group))
        own = MmaAttr::get(ctx, group.getKind(),
                           {group.getInstrM(), group.getInstrN(),
                            chip.mmaK * chip.mmaM / group.getInstrM()},
                           group.getWarpsPerCTA());
      MmaAttr mma =
          withInstrKFor(own, chip, tileType(dot.getLhs()).getDimSize(1));
      produceProduct(b, dot, dot.getAccMutable(), group, mma);
      // Each operand and the result must be whole instruction blocks.
      for (auto [value, layout] :
           {std::pair<Value, Attribute>{dot.getLhs(),
                                        DotOperandAttr::get(ctx, 0, mma)},
            {dot.getRhs(), DotOperandAttr::get(ctx, 1, mma)},
            {dot.getResult(), mma}}) {
        RankedTensorType type = tileType(value);
        std::string why;
        if (succeeded(cast<DistributedLayoutAttr>(layout).getLaneMap(
                type.getShape(), &why)))
          continue;
        return op->emitOpError()
               << "cannot take " << dot.getLhs().getType().getShape()[0] << "x"
               << dot.getLhs().getType().getShape()[1] << " by "
               << dot.getRhs().getType().getShape()[0] << "x"
               << dot.getRhs().getType().getShape()[1] << " operands on "
               << chip.name << "'s " << mma.getInstrM() << "x"
               << mma.getInstrN() << "x" << mma.getInstrK()
               << " matrix instruction (" << why
               << "); M, N and K must be multiples of the instruction's";
      }
      dot.getLhsMutable().assign(
          convertTo(b, loc, dot.getLhs(), DotOperandAttr::get(ctx, 0, mma)));
      dot.getRhsMutable().assign(
          convertTo(b, loc, dot.getRhs(), DotOperandAttr::get(ctx, 1, mma)));
      return WalkResult::advance();
    }
    if (auto dot = dyn_cast<tile::DotScaledOp>(op)) {
      auto group = dyn_cast<MmaAttr>(tileType(dot.getResult()).getEncoding());
      if (!isScaledFp4Product(dot))
        return op->emitOpError()
               << "reaches the GPU lowering only as a product of two "
                  "block-scaled fp4 operands on a chip with scaled MFMA ("
               << chip.name << (chip.scaledFp4Mma ? " has it" : " has none")
               << "); run tile-decompose first";
      if (!group || group.getKind() != MmaKind::mfma)
        return op->emitOpError("needs an MFMA result layout");
      MmaAttr mma = scaledFp4Mma(group);
      produceProduct(b, dot, dot.getAccMutable(), group, mma);
      // Each lane's 32 values of K are 16 bytes of the packed operand and
      // one scale (the instruction's operand layouts, coarsened).
      RankedTensorType result = tileType(dot.getResult());
      int64_t m = result.getDimSize(0), n = result.getDimSize(1);
      int64_t k = 2 * tileType(dot.getLhs()).getDimSize(1);
      std::string why;
      FailureOr<LaneMap> a = DotOperandAttr::get(ctx, 0, mma)
                                 .getLaneMap(ArrayRef<int64_t>{m, k}, &why);
      FailureOr<LaneMap> bm = failure();
      if (succeeded(a))
        bm = DotOperandAttr::get(ctx, 1, mma)
                 .getLaneMap(ArrayRef<int64_t>{k, n}, &why);
      if (failed(a) || failed(bm))
        return op->emitOpError()
               << "cannot take " << m << "x" << k << " by " << k << "x" << n
               << " fp4 operands on " << chip.name << "'s scaled "
               << mma.getInstrM() << "x" << mma.getInstrN() << "x"
               << mma.getInstrK() << " matrix instruction (" << why
               << "); M, N and K must be multiples of the instruction's";
      FailureOr<LaneMap> aPacked = a->coarsened(1, 2);
      FailureOr<LaneMap> aScales = a->coarsened(1, 32);
      FailureOr<LaneMap> bPacked = bm->coarsened(0, 2);
      FailureOr<LaneMap> bScales = bm->coarsened(0, 32);
      if (failed(aPacked) || failed(aScales) || failed(bPacked) ||
          failed(bScales))
        return op->emitOpError("cannot place packed fp4 operands and their "
                               "scales in the lanes of the instruction");
      placeOperand(b, loc, dot.getLhsMutable(), *aPacked);
      placeOperand(b, loc, dot.getLhsScaleMutable()[0], *aScales);
      placeOperand(b, loc, dot.getRhsMutable(), *bPacked);
      placeOperand(b, loc, dot.getRhsScaleMutable()[0],
                   bScales->permuted({1, 0}));
      return WalkResult::advance();
    }
    if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      Attribute produced = SliceAttr::get(
          ctx, reduce.getDim(), tileType(reduce.getInput()).getEncoding());
      RankedTensorType type = tileType(reduce.getResult());
      if (type.getEncoding() != produced)
        produceAs(b, reduce.getResult(), withLayout(type, produced), type);
      return WalkResult::advance();
    }
    if (auto broadcast = dyn_cast<tile::BroadcastOp>(op)) {
      Attribute in = tileType(broadcast.getResult()).getEncoding();
      for (int64_t d : llvm::reverse(broadcast.getDims()))
        in = SliceAttr::get(ctx, d, in);
      broadcast.getInputMutable().assign(
          convertTo(b, loc, broadcast.getInput(), in));
      return WalkResult::advance();
    }
    if (auto dequant = dyn_cast<tile::DequantMxOp>(op)) {
      // The packed bytes and the scales of each element in its own lane.
      RankedTensorType type = dequant.getType();
      LaneMap map = getLaneMap(type);
      int64_t last = type.getRank() - 1;
      bool fp4 = dequant.getPacked().getType().getElementType().isInteger(8);
      FailureOr<LaneMap> packed = fp4 ? map.coarsened(last, 2) : map;
      FailureOr<LaneMap> scales = map.coarsened(last, 32);
      if (failed(packed) || failed(scales))
        return op->emitOpError("cannot place the packed values and scales "
                               "of layout ")
               << type.getEncoding() << " in the lanes of their elements";
      auto place = [&](OpOperand &operand, const LaneMap &required) {
        RankedTensorType current = tileType(operand.get());
        if (getLaneMap(current) == required)
          return;
        operand.set(convertTo(b, loc, operand.get(),
                              LinearAttr::get(ctx, required.getFactors())));
      };
      place(dequant.getPackedMutable(), *packed);
      place(dequant.getScalesMutable(), *scales);
      return WalkResult::advance();
    }
    if (auto trans = dyn_cast<tile::TransOp>(op)) {
      // The result is the input in the transposed layout; where the input's
      // layout has no transposed form, go through a blocked one.
      RankedTensorType in = tileType(trans.getInput());
      auto iface = cast<tile::TileEncodingAttrInterface>(in.getEncoding());
      if (failed(iface.getTransposedEncoding()))
        trans.getInputMutable().assign(
            convertTo(b, loc, trans.getInput(), defaultBlocked(in)));
      RankedTensorType produced =
          tile::getTransposedType(tileType(trans.getInput()));
      RankedTensorType type = tileType(trans.getResult());
      if (type != produced)
        produceAs(b, trans.getResult(), produced, type);
      return WalkResult::advance();
    }
    auto fixMask = [&](Value tile, OpOperand &mask) {
      Attribute layout = tileType(tile).getEncoding();
      for (int64_t d = tileType(tile).getRank();
           d-- > tileType(mask.get()).getRank();)
        layout = SliceAttr::get(ctx, d, layout);
      mask.set(convertTo(b, loc, mask.get(), layout));
    };
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      if (load.getMask())
        fixMask(load.getResult(), load.getMaskMutable()[0]);
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<tile::StoreOp>(op)) {
      if (store.getMask())
        fixMask(store.getValue(), store.getMaskMutable()[0]);
      return WalkResult::advance();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void LayoutAssigner::produceProduct(OpBuilder &b, Operation *product,
                                    OpOperand &acc, MmaAttr group,
                                    MmaAttr mma) {
  Location loc = product->getLoc();
  acc.set(convertTo(b, loc, acc.get(), mma));
  if (mma == group)
    return;
  Value result = product->getResult(0);
  result.setType(withLayout(tileType(result), mma));
  OpBuilder after(ctx);
  after.setInsertionPointAfter(product);
  Value back = ConvertLayoutOp::create(
      after, loc, withLayout(tileType(result), group), result);
  result.replaceAllUsesExcept(back, back.getDefiningOp());
}

void LayoutAssigner::placeOperand(OpBuilder &b, Location loc,
                                  OpOperand &operand, const LaneMap &required) {
  Value value = operand.get();
  RankedTensorType type = tileType(value);
  if (getLaneMap(type) == required)
    return;
  auto linear = [&](const LaneMap &map) {
    return LinearAttr::get(ctx, map.getFactors());
  };
  if (value.hasOneUse()) {
    if (auto load = value.getDefiningOp<tile::LoadOp>()) {
      setLoadLayout(load, withLayout(type, linear(required)));
      return;
    }
    auto trans = value.getDefiningOp<tile::TransOp>();
    Value input = trans ? trans.getInput() : Value();
    auto load = input ? input.getDefiningOp<tile::LoadOp>() : nullptr;
    if (load && input.hasOneUse()) {
      setLoadLayout(
          load, withLayout(tileType(input), linear(required.permuted({1, 0}))));
      trans.getResult().setType(tile::getTransposedType(tileType(input)));
      if (getLaneMap(tileType(value)) == required)
        return;
    }
  }
  operand.set(convertTo(b, loc, operand.get(), linear(required)));
}

/// Whether lanes reading `map` from a view whose last dimension is
/// contiguous move at least 4 bytes per access.
static bool readsWholeWords(const LaneMap &map, Type element) {
  int64_t bytes = std::max<unsigned>(1, element.getIntOrFloatBitWidth() / 8);
  for (const LaneFactor &f : map.getFactors())
    if (f.hw == HwDim::Register)
      return f.dim == map.getRank() - 1 && f.stride == 1 && f.size * bytes >= 4;
  return false;
}

/// A tile loaded only to become a matrix-core operand whose registers are
/// contiguous in memory (the query tile: 8 bf16 of one row per lane) is
/// loaded in the operand layout itself rather than exchanged through LDS.
/// Not a tile loaded anew in each step of the loop its products run in (the
/// A tiles of a GEMM's K loop) where that loop is pipelined and the tile
/// can be copied into LDS as widely as the chip loads into registers:
/// staged, it is copied asynchronously a step ahead
/// (tilegpu-pipeline-loads) and read from global memory once per program,
/// where a prefetch into registers costs each warp its own loads, their
/// bounds checks and copies of the carried registers.
void LayoutAssigner::loadOperandsDirectly() {
  // Loads converted only to one operand layout (a query tile that the
  // products of two key loops read is converted once per use, in each
  // iteration).
  SmallVector<std::pair<tile::LoadOp, SmallVector<ConvertLayoutOp>>> loads;
  kernel.walk([&](tile::LoadOp load) {
    SmallVector<ConvertLayoutOp> converts;
    for (Operation *user : load->getUsers()) {
      auto convert = dyn_cast<ConvertLayoutOp>(user);
      if (!convert || !isa<DotOperandAttr>(convert.getType().getEncoding()) ||
          (!converts.empty() &&
           convert.getType() != converts.front().getType()))
        return;
      converts.push_back(convert);
    }
    if (converts.empty())
      return;
    // A warpgroup product reads its operands from shared memory: a tile it
    // reads in several places is stored there once per use from registers.
    if (converts.size() > 1 &&
        cast<DotOperandAttr>(converts.front().getType().getEncoding())
                .getParent()
                .getKind() == MmaKind::wgmma)
      return;
    auto loop = load->getParentOfType<scf::ForOp>();
    if (stages > 1 && loop && copiesWhole(load) &&
        llvm::any_of(converts, [&](ConvertLayoutOp convert) {
          return llvm::any_of(convert->getUsers(), [&](Operation *user) {
            return isa<tile::DotOp>(user) &&
                   user->getParentOfType<scf::ForOp>() == loop;
          });
        }))
      return;
    loads.emplace_back(load, std::move(converts));
  });
  for (auto &[load, converts] : loads) {
    auto view = load.getView().getDefiningOp<tile::ViewOp>();
    RankedTensorType type = converts.front().getType();
    if (!view || view.getStaticStrides().back() != 1 ||
        !readsWholeWords(getLaneMap(type), type.getElementType()))
      continue;
    setLoadLayout(load, type);
    for (ConvertLayoutOp convert : converts) {
      convert.replaceAllUsesWith(load.getResult());
      convert.erase();
    }
  }
}

bool LayoutAssigner::copiesWhole(tile::LoadOp load) {
  RankedTensorType type = load.getType();
  if (!chip.copiesAsWideAsLoads() || type.getRank() != 2)
    return false;
  auto rowMajor = MemDescType::get(
      ctx, type.getShape(), type.getElementType(),
      SharedAttr::get(ctx, /*vec=*/1, /*perPhase=*/1, /*maxPhase=*/1, {1, 0}));
  return getLdsCopyBytes(chip, load.getView(), load.getIndices(), rowMajor) ==
         chip.maxLdsCopyBytes;
}

LogicalResult LayoutAssigner::run() {
  splitRematerializable();
  buildGroups();
  decideAnchored();
  while (deriveOnce()) {
  }
  decideDefaults();
  if (failed(rewrite()))
    return failure();
  loadOperandsDirectly();
  return checkLayoutsHold();
}

/// The lowering walks each tile through its lane map; a layout whose
/// pattern does not divide the tile (a dimension that is not a multiple of
/// the lanes and warps it is spread over, e.g. 24 or 100 elements) has
/// none. Such a tile is refused here, naming the op, the shape and the
/// rule, instead of reaching the lowering without a map.
LogicalResult LayoutAssigner::checkLayoutsHold() {
  WalkResult result = kernel.walk([&](Operation *op) -> WalkResult {
    for (Value v : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      auto layout =
          type ? dyn_cast_if_present<DistributedLayoutAttr>(type.getEncoding())
               : nullptr;
      std::string why;
      if (!layout || succeeded(layout.getLaneMap(type.getShape(), &why)))
        continue;
      RankedTensorType plain =
          RankedTensorType::get(type.getShape(), type.getElementType());
      return op->emitOpError()
             << "has a tile " << plain << " that " << chip.name
             << " cannot lay out on " << numWarps << " warps of "
             << chip.waveSize << " lanes (layout " << Attribute(layout) << ": "
             << why
             << "); the GPU targets take tile dimensions that are powers "
                "of two, or multiples of the lanes and warps they spread "
                "over";
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The warps per program of `kernel`: its launch key `waves`, else the
/// pass option.
static FailureOr<unsigned> warpsOf(tile::KernelOp kernel, unsigned fallback) {
  return getLaunchCount(
      kernel, "waves", fallback,
      [](int64_t n) { return n >= 1 && n <= 16 && llvm::isPowerOf2_64(n); },
      "a power of two from 1 to 16");
}

namespace {
struct AssignLayoutsPass
    : mla::tilegpu::impl::TileGPUAssignLayoutsBase<AssignLayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    const ChipInfo *info = lookupChip(chip);
    if (!info) {
      getOperation().emitError() << "unknown chip '" << chip << "'";
      return signalPassFailure();
    }
    for (auto kernel : getOperation().getOps<tile::KernelOp>()) {
      FailureOr<unsigned> warps = warpsOf(kernel, numWarps);
      FailureOr<unsigned> stages = getLaunchStages(kernel, /*fallback=*/1);
      if (failed(warps) || failed(stages) ||
          failed(LayoutAssigner(kernel, *info, *warps, *stages).run()))
        return signalPassFailure();
      kernel->setAttr(
          "tilegpu.num_warps",
          IntegerAttr::get(IntegerType::get(&getContext(), 32), *warps));
    }
  }
};
} // namespace
