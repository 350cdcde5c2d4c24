//===- KernelToEntry.cpp - tile.kernel to the host entry function --------===//
//
// The host ABI (docs/ABI.md) calls
//   void SYMBOL(void **args, const int64_t program_id[3],
//               const int64_t num_programs[3])
// once per program instance. The entry reads each argument through its slot
// in `args` and the grid position from the two arrays, then runs the body.
//
//===----------------------------------------------------------------------===//

#include "mla/Conversion/TileToHost/TileToHost.h"
#include "mla/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mla;

/// Loads element `index` of an array of `elementType` at `base`.
static Value loadElement(OpBuilder &b, Location loc, Value base,
                         Type elementType, int64_t index) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value addr = LLVM::GEPOp::create(b, loc, ptrType, elementType, base,
                                   ArrayRef<LLVM::GEPArg>{index});
  return LLVM::LoadOp::create(b, loc, elementType, addr);
}

static void convertKernel(tile::KernelOp kernel) {
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  MLIRContext *ctx = kernel.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto entry =
      func::FuncOp::create(b, loc, kernel.getSymName(),
                           b.getFunctionType({ptrType, ptrType, ptrType}, {}));
  Block *block = entry.addEntryBlock();
  b.setInsertionPointToStart(block);
  Value args = block->getArgument(0);
  Value programId = block->getArgument(1);
  Value numPrograms = block->getArgument(2);

  // Each argument: args[i] points at its value.
  Block &body = kernel.getBody().front();
  SmallVector<Value> argValues;
  for (BlockArgument arg : body.getArguments()) {
    Value slot = loadElement(b, loc, args, ptrType, arg.getArgNumber());
    Type type = arg.getType();
    if (isa<tile::PtrType>(type)) {
      Value ptr = LLVM::LoadOp::create(b, loc, ptrType, slot);
      argValues.push_back(
          UnrealizedConversionCastOp::create(b, loc, type, ptr).getResult(0));
    } else {
      argValues.push_back(LLVM::LoadOp::create(b, loc, type, slot));
    }
  }

  // Grid position and size along each axis, as index values.
  Value pid[3], grid[3];
  for (int axis = 0; axis < 3; ++axis) {
    pid[axis] = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        loadElement(b, loc, programId, b.getI64Type(), axis));
    grid[axis] = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        loadElement(b, loc, numPrograms, b.getI64Type(), axis));
  }

  // Move the body after the prologue.
  Block *prologue = block;
  prologue->getOperations().splice(prologue->end(), body.getOperations());
  for (auto [arg, value] : llvm::zip(body.getArguments(), argValues))
    arg.replaceAllUsesWith(value);

  entry.walk([&](Operation *op) {
    OpBuilder rewriter(op);
    if (auto id = dyn_cast<tile::ProgramIdOp>(op)) {
      id.replaceAllUsesWith(pid[static_cast<int>(id.getAxis())]);
      id.erase();
    } else if (auto count = dyn_cast<tile::NumProgramsOp>(op)) {
      count.replaceAllUsesWith(grid[static_cast<int>(count.getAxis())]);
      count.erase();
    } else if (isa<tile::ReturnOp>(op)) {
      func::ReturnOp::create(rewriter, op->getLoc());
      op->erase();
    }
  });
  kernel.erase();
}

void mla::convertKernelsToHostEntries(ModuleOp module) {
  SmallVector<tile::KernelOp> kernels(module.getOps<tile::KernelOp>());
  for (tile::KernelOp kernel : kernels)
    convertKernel(kernel);
}
