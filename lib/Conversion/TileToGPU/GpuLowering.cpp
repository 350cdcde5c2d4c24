//===- GpuLowering.cpp - Shared helpers of convert-tile-to-gpu ------------===//

#include "GpuLowering.h"
#include "mla/Dialect/Tile/IR/TileOps.h"
#include "mla/Dialect/TileGPU/IR/TileGPUOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mla;
using namespace mla::gpu;
using namespace mla::tilegpu;

const KernelIds &LoweringState::idsFor(Operation *op) const {
  Operation *func = op->getParentOfType<mlir::gpu::GPUFuncOp>();
  auto it = kernels.find(func);
  assert(it != kernels.end() && "op outside a kernel being lowered");
  return it->second;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

VectorType mla::gpu::registerType(RankedTensorType type) {
  LaneMap map = getLaneMap(type);
  return VectorType::get({map.numRegisters()}, type.getElementType());
}

GpuTypeConverter::GpuTypeConverter(MLIRContext *ctx) {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> std::optional<Type> {
    if (!getLayout(type))
      return std::nullopt;
    return registerType(type);
  });
  // A staged tile is the byte offset of its buffer in LDS.
  addConversion(
      [ctx](MemDescType) -> Type { return IntegerType::get(ctx, 32); });
  addConversion([ctx](tile::PtrType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  });
  addConversion([ctx](tile::ViewType type, SmallVectorImpl<Type> &results) {
    results.push_back(LLVM::LLVMPointerType::get(ctx, 1));
    results.append(2 * type.getRank(), IndexType::get(ctx));
    return success();
  });
  auto cast = [](OpBuilder &b, TypeRange types, ValueRange inputs,
                 Location loc) -> SmallVector<Value> {
    return UnrealizedConversionCastOp::create(b, loc, types, inputs)
        .getResults();
  };
  addSourceMaterialization(
      [](OpBuilder &b, Type type, ValueRange inputs, Location loc) -> Value {
        return UnrealizedConversionCastOp::create(b, loc, type, inputs)
            .getResult(0);
      });
  addTargetMaterialization(cast);
}

bool mla::gpu::inRegisters(const LaneMap &from, const LaneMap &to) {
  if (!from.sameLanesAndWarps(to))
    return false;
  return !llvm::is_contained(to.registerPermutationTo(from), -1);
}

int64_t mla::gpu::scratchBytes(Operation *op, unsigned waveSize) {
  if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    RankedTensorType type = convert.getType();
    if (inRegisters(getLaneMap(convert.getSrc().getType()), getLaneMap(type)))
      return 0;
    return type.getNumElements() * memoryBytes(type.getElementType());
  }
  if (auto dot = dyn_cast<tile::DotOp>(op)) {
    // The K groups' partial results (Dot.cpp): every warp's registers.
    auto mma = dyn_cast_if_present<MmaAttr>(dot.getType().getEncoding());
    if (mma && mma.getWarpsK() > 1)
      return getLaneMap(dot.getType()).numRegisters() * mma.getNumWarps() *
             waveSize * 4;
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    LaneMap map = getLaneMap(reduce.getInput().getType());
    for (const LaneFactor &f : map.getFactors())
      if (f.hw == HwDim::Warp && f.dim == static_cast<int64_t>(reduce.getDim()))
        return map.numWarps() *
               std::max<int64_t>(1, reduce.getType().getNumElements()) *
               memoryBytes(reduce.getType().getElementType());
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// Bytes from the view's base to one past its last element; 0 when empty.
Value mla::gpu::viewExtentBytes(OpBuilder &b, Location loc,
                                const LoweredView &view, int64_t bytes) {
  Value last = indexConst(b, loc, 0);
  Value empty;
  for (auto [size, stride] : llvm::zip(view.sizes, view.strides)) {
    Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                       indexConst(b, loc, 0));
    empty = empty ? arith::OrIOp::create(b, loc, empty, zero) : zero;
    Value lastIndex =
        arith::SubIOp::create(b, loc, size, indexConst(b, loc, 1));
    last = arith::AddIOp::create(
        b, loc, last, arith::MulIOp::create(b, loc, lastIndex, stride));
  }
  Value extent = arith::MulIOp::create(
      b, loc, arith::AddIOp::create(b, loc, last, indexConst(b, loc, 1)),
      indexConst(b, loc, bytes));
  extent =
      arith::SelectOp::create(b, loc, empty, indexConst(b, loc, 0), extent);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), extent);
}

bool mla::gpu::rowsEndAtExtent(const LoweredView &view) {
  if (view.sizes.size() != 2)
    return false;
  std::optional<int64_t> rowStride = getConstantIntValue(view.strides[0]);
  std::optional<int64_t> columns = getConstantIntValue(view.sizes[1]);
  std::optional<int64_t> columnStride = getConstantIntValue(view.strides[1]);
  return rowStride && columns && columnStride && *columnStride >= 0 &&
         *rowStride >= (*columns - 1) * *columnStride + 1;
}

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

Value mla::gpu::indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value mla::gpu::i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

Value mla::gpu::toI32(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
}

/// Adds to `coords` what the digits of `hw` index `id` move.
static void addDigits(OpBuilder &b, Location loc, const LaneMap &map, HwDim hw,
                      Value id, SmallVectorImpl<Value> &coords) {
  int64_t prefix = 1;
  for (const LaneFactor &f : map.factorsOf(hw)) {
    if (!f.isReplicated() && f.size > 1) {
      Value digit =
          arith::DivUIOp::create(b, loc, id, indexConst(b, loc, prefix));
      digit = arith::RemUIOp::create(b, loc, digit, indexConst(b, loc, f.size));
      Value moved =
          arith::MulIOp::create(b, loc, digit, indexConst(b, loc, f.stride));
      coords[f.dim] = arith::AddIOp::create(b, loc, coords[f.dim], moved);
    }
    prefix *= f.size;
  }
}

SmallVector<Value> mla::gpu::laneWarpCoords(OpBuilder &b, Location loc,
                                            const LaneMap &map,
                                            const KernelIds &ids) {
  SmallVector<Value> coords(map.getRank(), indexConst(b, loc, 0));
  addDigits(b, loc, map, HwDim::Lane, ids.lane, coords);
  addDigits(b, loc, map, HwDim::Warp, ids.warp, coords);
  return coords;
}

Value mla::gpu::isFirstCopy(OpBuilder &b, Location loc, const LaneMap &map,
                            const KernelIds &ids) {
  Value result;
  for (HwDim hw : {HwDim::Lane, HwDim::Warp}) {
    Value id = hw == HwDim::Lane ? ids.lane : ids.warp;
    int64_t prefix = 1;
    for (const LaneFactor &f : map.factorsOf(hw)) {
      if (f.isReplicated() && f.size > 1) {
        Value digit =
            arith::DivUIOp::create(b, loc, id, indexConst(b, loc, prefix));
        digit =
            arith::RemUIOp::create(b, loc, digit, indexConst(b, loc, f.size));
        Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           digit, indexConst(b, loc, 0));
        result = result ? arith::AndIOp::create(b, loc, result, zero) : zero;
      }
      prefix *= f.size;
    }
  }
  return result;
}

void mla::gpu::enterFirstCopies(OpBuilder &b, Location loc, const LaneMap &map,
                                const KernelIds &ids) {
  if (Value first = isFirstCopy(b, loc, map, ids)) {
    auto branch = scf::IfOp::create(b, loc, first, /*withElse=*/false);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
  }
}

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

Value mla::gpu::getRegister(OpBuilder &b, Location loc, Value vec, int64_t i) {
  return vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{i});
}

Value mla::gpu::makeRegisters(OpBuilder &b, Location loc, VectorType type,
                              ArrayRef<Value> elements) {
  return vector::FromElementsOp::create(b, loc, type, elements);
}

Value mla::gpu::memoryRun(OpBuilder &b, Location loc, Value vec, int64_t reg,
                          int64_t count) {
  SmallVector<Value> elements;
  for (int64_t i = 0; i < count; ++i)
    elements.push_back(toMemory(b, loc, getRegister(b, loc, vec, reg + i)));
  if (count == 1)
    return elements.front();
  return makeRegisters(
      b, loc, VectorType::get({count}, elements.front().getType()), elements);
}

Value mla::gpu::getRegisters(OpBuilder &b, Location loc, Value vec,
                             int64_t offset, int64_t count) {
  auto type = cast<VectorType>(vec.getType());
  if (offset == 0 && count == type.getNumElements())
    return vec;
  return vector::ExtractStridedSliceOp::create(
      b, loc, vec, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{count},
      ArrayRef<int64_t>{1});
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

Value mla::gpu::ldsAddress(OpBuilder &b, Location loc, const KernelIds &ids,
                           Value byteOffset) {
  return LLVM::GEPOp::create(b, loc, ids.lds.getType(), b.getI8Type(), ids.lds,
                             ValueRange{byteOffset});
}

/// Row-major linear index of `coords` in `shape`.
static Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                         ArrayRef<int64_t> shape) {
  Value linear = indexConst(b, loc, 0);
  for (auto [c, extent] : llvm::zip(coords, shape)) {
    linear = arith::MulIOp::create(b, loc, linear, indexConst(b, loc, extent));
    linear = arith::AddIOp::create(b, loc, linear, c);
  }
  return linear;
}

int64_t mla::gpu::registerRun(const LaneMap &map, int64_t dim) {
  for (const LaneFactor &f : map.getFactors()) {
    if (f.hw != HwDim::Register)
      continue;
    return f.dim == dim && f.stride == 1 ? f.size & -f.size : 1;
  }
  return 1;
}

/// How many consecutive registers of `map`, starting at a multiple of the
/// result, hold consecutive elements of the last dimension.
static int64_t contiguousRun(const LaneMap &map, int64_t maxElements) {
  int64_t run = registerRun(map, map.getRank() - 1);
  while (run > maxElements || run <= 0)
    run /= 2;
  return std::max<int64_t>(run, 1);
}

/// Calls `body(reg, count, linearIndex)` for runs of `count` registers of
/// `map` that are consecutive in row-major order.
static void forEachRun(OpBuilder &b, Location loc, const LaneMap &map,
                       ArrayRef<Value> base, int64_t maxElements,
                       bool firstCopiesOnly,
                       function_ref<void(int64_t, int64_t, Value)> body) {
  int64_t run = contiguousRun(map, maxElements);
  for (int64_t r = 0; r < map.numRegisters(); r += run) {
    if (firstCopiesOnly && !map.isOwner(HwDim::Register, r))
      continue;
    SmallVector<int64_t> c = map.partialCoords(HwDim::Register, r);
    SmallVector<Value> coords;
    for (auto [d, value] : llvm::enumerate(base))
      coords.push_back(
          arith::AddIOp::create(b, loc, value, indexConst(b, loc, c[d])));
    body(r, run, linearIndex(b, loc, coords, map.getShape()));
  }
}

Value mla::gpu::exchangeThroughLds(OpBuilder &b, Location loc,
                                   const LoweringState &state,
                                   const KernelIds &ids, Value regs,
                                   const LaneMap &from, const LaneMap &to,
                                   Type elementType, VectorType resultType) {
  Type stored = memoryType(elementType);
  int64_t bytes = memoryBytes(elementType);
  int64_t maxRun = std::max<int64_t>(1, 16 / bytes);
  auto address = [&](Value linear) {
    Value offset =
        arith::MulIOp::create(b, loc, linear, indexConst(b, loc, bytes));
    return ldsAddress(b, loc, ids, toI32(b, loc, offset));
  };

  state.target.barrier(b, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    enterFirstCopies(b, loc, from, ids);
    SmallVector<Value> base = laneWarpCoords(b, loc, from, ids);
    forEachRun(b, loc, from, base, maxRun, /*firstCopiesOnly=*/true,
               [&](int64_t reg, int64_t count, Value linear) {
                 Value value = memoryRun(b, loc, regs, reg, count);
                 LLVM::StoreOp::create(b, loc, value, address(linear),
                                       /*alignment=*/bytes * count);
               });
  }
  state.target.barrier(b, loc);

  SmallVector<Value> elements(to.numRegisters());
  SmallVector<Value> base = laneWarpCoords(b, loc, to, ids);
  forEachRun(b, loc, to, base, maxRun, /*firstCopiesOnly=*/false,
             [&](int64_t reg, int64_t count, Value linear) {
               Type type =
                   count == 1 ? stored : VectorType::get({count}, stored);
               Value value = LLVM::LoadOp::create(b, loc, type, address(linear),
                                                  /*alignment=*/bytes * count);
               for (int64_t i = 0; i < count; ++i)
                 elements[reg + i] = fromMemory(
                     b, loc, count == 1 ? value : getRegister(b, loc, value, i),
                     elementType);
             });
  return makeRegisters(b, loc, resultType, elements);
}
