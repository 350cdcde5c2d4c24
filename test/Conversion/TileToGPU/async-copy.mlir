// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -canonicalize -cse \
// RUN:   | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx942 -canonicalize -cse \
// RUN:   | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -canonicalize -cse \
// RUN:   | FileCheck %s --check-prefix=ROWS
// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -canonicalize -cse \
// RUN:   | FileCheck %s --check-prefix=COLUMNS
// RUN: mla-opt %s --convert-tile-to-gpu=chip=sm_90 -canonicalize -cse \
// RUN:   | FileCheck %s --check-prefix=COLUMNS-SM90
// RUN: mla-opt %s --convert-tile-to-gpu=chip=sm_90 -canonicalize -cse \
// RUN:   | FileCheck %s --check-prefix=ROWS-SM90

// A 32x64 bf16 tile (4 KiB) copied into buffer 1 of two: each wave copies
// runs of 64 lanes x 16 bytes on gfx950 (4 runs, one per wave) and 64 x 4
// bytes on gfx942 (16 runs, four per wave), with the LDS address of the run
// (the same in every lane) and each lane's global offset, then waits for
// its copies (pending = 0: every copy instruction) and the other waves.
// LDS reads are marked apart from the copies (alias scopes), so the backend
// does not wait for copies in flight before them.
// CHECK-LABEL: gpu.func @copy
// GFX950-DAG: %[[BYTES:.*]] = llvm.mlir.constant(16 : i32)
// GFX942-DAG: %[[BYTES:.*]] = llvm.mlir.constant(4 : i32)
// CHECK: rocdl.s.barrier
// GFX950-COUNT-1: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %[[BYTES]], {{.*}} {alias_scopes = [#[[$COPIES:.*]]], noalias_scopes = [#[[$ACCESSES:.*]]]}
// GFX950-NOT: rocdl.raw.ptr.buffer.load.lds
// GFX942-COUNT-4: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %[[BYTES]], {{.*}} {alias_scopes = [#[[$COPIES:.*]]], noalias_scopes = [#[[$ACCESSES:.*]]]}
// GFX942-NOT: rocdl.raw.ptr.buffer.load.lds
// CHECK: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: llvm.fence syncscope("wavefront") release
// CHECK-NEXT: amdgpu.memory_counter_wait ds(0)
// CHECK-NEXT: rocdl.s.barrier
// CHECK: llvm.load {{.*}} {alias_scopes = [#[[$ACCESSES]]], alignment = {{[0-9]+}} : i64, noalias_scopes = [#[[$COPIES]]]} : !llvm.ptr<3>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
tile.kernel @copy(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %x sizes [%rows, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c1] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %b : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %t = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  tile.store %t, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}

// Rows past a view whose rows do not overlap lie past its last byte, where
// the buffer descriptor's bound (the view's extent) reads zero: the copy
// checks no row. Rows that overlap (a row stride below the row's span)
// keep the check, and a lane past the view moves to the bound.
// ROWS-LABEL: gpu.func @copy
// ROWS-NOT: arith.cmpi ult
// ROWS: rocdl.raw.ptr.buffer.load.lds
// ROWS-LABEL: gpu.func @overlapping_rows
// ROWS: arith.cmpi ult
// ROWS: arith.select
// ROWS: rocdl.raw.ptr.buffer.load.lds
tile.kernel @overlapping_rows(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %x sizes [%rows, 64] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %b : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %t = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  tile.store %t, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}

// Rows whose length is only known at run time, as a multiple of 8
// elements, and a first column that is a multiple of 8 too: a 16-byte
// chunk is inside a row or outside it as a whole, so the tile is copied
// 16 bytes a lane, and a chunk whose first column is outside the row
// copies zero, as rows past the view do (the column, unsigned so that a
// negative one is out too, is compared with the row length, then the
// offset moved to the bound). sm_90 zero-fills the same chunks through
// cp.async's source size.
// COLUMNS-LABEL: gpu.func @dynamic_columns
// COLUMNS-DAG: %[[BYTES:.*]] = llvm.mlir.constant(16 : i32)
// COLUMNS: %[[ROW_OK:.*]] = arith.cmpi ult
// COLUMNS: %[[COLUMN_OK:.*]] = arith.cmpi ult
// COLUMNS-NEXT: %[[OK:.*]] = arith.andi %[[ROW_OK]], %[[COLUMN_OK]]
// COLUMNS: arith.select %[[OK]]
// COLUMNS: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %[[BYTES]]
// COLUMNS-SM90-LABEL: gpu.func @dynamic_columns
// COLUMNS-SM90: arith.cmpi ult
// COLUMNS-SM90: arith.cmpi ult
// COLUMNS-SM90: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
tile.kernel @dynamic_columns(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>, %n: i32, %k8: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %rows = arith.index_cast %n : i32 to index
  %k = arith.index_cast %k8 : i32 to index
  %cols = arith.muli %k, %c8 : index
  %col0 = tile.program_id x
  %first = arith.muli %col0, %c8 : index
  %v = tile.view %x sizes [%rows, %cols] strides [%cols, 1] : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %first], %b : !tile.view<?x?xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %t = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  tile.store %t, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}

// Rows outside the view copy zero on sm_90, whose copies have no bound of
// their own. A first row known not to be negative (a program id times 32)
// is checked at its far end only: the tile row against the rows left,
// max(rows - first, 0). One that may be negative (8 rows before it) is
// checked at both ends by one unsigned compare of the view row with the
// row count.
// ROWS-SM90-LABEL: gpu.func @signed_rows
// ROWS-SM90: %[[COUNT:.*]] = arith.index_cast %{{.*}} : i32 to index
// ROWS-SM90: %[[FROM:.*]] = arith.muli %{{.*}}, %c32
// ROWS-SM90: %[[BEFORE:.*]] = arith.subi %[[FROM]], %c8
// ROWS-SM90: %[[LEFT:.*]] = arith.subi %[[COUNT]], %[[FROM]]
// ROWS-SM90: %[[LEFT0:.*]] = arith.maxsi %[[LEFT]], %c0
// ROWS-SM90: arith.cmpi ult, %{{.*}}, %[[LEFT0]]
// ROWS-SM90: nvvm.cp.async.shared.global
// ROWS-SM90: nvvm.cp.async.commit.group
// ROWS-SM90: %[[VIEW_ROW:.*]] = arith.addi %[[BEFORE]], %{{.*}}
// ROWS-SM90: arith.cmpi ult, %[[VIEW_ROW]], %[[COUNT]]
// ROWS-SM90: nvvm.cp.async.shared.global
tile.kernel @signed_rows(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %rows = arith.index_cast %n : i32 to index
  %pid = tile.program_id x
  %from = arith.muli %pid, %c32 : index
  %before = arith.subi %from, %c8 : index
  %v = tile.view %x sizes [%rows, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  tilegpu.async_copy %v[%from, %c0], %b : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %t = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  tile.store %t, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tilegpu.async_copy %v[%before, %c0], %b : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %u = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  tile.store %u, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}
