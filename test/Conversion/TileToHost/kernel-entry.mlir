// RUN: mla-opt %s --convert-tile-to-host | FileCheck %s --implicit-check-not='= tile.'

// A kernel becomes void SYMBOL(void **args, const int64_t program_id[3],
// const int64_t num_programs[3]); args[i] points at argument i's value.

// CHECK-LABEL: func.func @entry(
// CHECK-SAME: %[[ARGS:.*]]: !llvm.ptr, %[[PID:.*]]: !llvm.ptr, %[[GRID:.*]]: !llvm.ptr)
// Pointer argument: load the slot, then the pointer it points at.
// CHECK: %[[SLOT0:.*]] = llvm.getelementptr %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[P0:.*]] = llvm.load %[[SLOT0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[X:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// Scalar arguments are read with their own type.
// CHECK: %[[SLOT1:.*]] = llvm.getelementptr %[[ARGS]][1]
// CHECK: %[[P1:.*]] = llvm.load %[[SLOT1]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[N:.*]] = llvm.load %[[P1]] : !llvm.ptr -> i32
// CHECK: %[[SLOT2:.*]] = llvm.getelementptr %[[ARGS]][2]
// CHECK: %[[P2:.*]] = llvm.load %[[SLOT2]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.load %[[P2]] : !llvm.ptr -> f32
// Program ids and grid sizes come from the two i64 arrays.
// CHECK: %[[PIDX_ADDR:.*]] = llvm.getelementptr %[[PID]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[PIDX:.*]] = llvm.load %[[PIDX_ADDR]] : !llvm.ptr -> i64
// CHECK: %[[PIDX_I:.*]] = arith.index_cast %[[PIDX]] : i64 to index
// CHECK: %[[NZ_ADDR:.*]] = llvm.getelementptr %[[GRID]][2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[NZ:.*]] = llvm.load %[[NZ_ADDR]] : !llvm.ptr -> i64
// CHECK: %[[NZ_I:.*]] = arith.index_cast %[[NZ]] : i64 to index
// CHECK-NOT: tile.
// CHECK: %[[SUM:.*]] = arith.addi %[[PIDX_I]], %[[NZ_I]] : index
// CHECK: llvm.getelementptr %[[X]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: return
tile.kernel @entry(%x: !tile.ptr<i32>, %n: i32, %s: f32) {
  %pid = tile.program_id x
  %nz = tile.num_programs z
  %sum = arith.addi %pid, %nz : index
  %v = tile.load_scalar %x[%sum] : !tile.ptr<i32>
  tile.return
}
