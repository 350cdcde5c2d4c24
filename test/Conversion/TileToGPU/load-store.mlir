// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 | FileCheck %s
// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx942 | FileCheck %s
// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -canonicalize -cse | FileCheck %s --check-prefix=ROWS

// Each lane moves its 4 consecutive f32 (16 bytes) with one buffer load
// whose descriptor bounds the view when all four are inside it, and element
// by element otherwise (no access straddles the view's end: rows of 202
// elements end inside a run); positions outside the view or the mask take
// the padding value, and an invalid element is moved out of the
// descriptor's range. Stores likewise. Pointer arguments are noalias: a
// kernel's pointer arguments address disjoint memory (docs/DSL.md).
#blocked = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tilegpu.slice<dim = 1, parent = #blocked>
// CHECK: gpu.module @copy {
// CHECK-LABEL: gpu.func @copy
// CHECK-SAME: (%{{[^:]*}}: !llvm.ptr<1> {llvm.noalias}, %{{[^:]*}}: !llvm.ptr<1> {llvm.noalias}, %{{.*}}: i32) kernel
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: gpu.thread_id x
// CHECK: rocdl.readfirstlane
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %{{.*}} : <1> to <8>
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK: %[[WHOLE:.*]] = rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}} : vector<4xf32>
// CHECK: scf.yield %[[WHOLE]]
// CHECK: } else {
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}} : f32
// CHECK: vector.from_elements
// CHECK: vector.extract %[[V]][0]
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: scf.if
// CHECK: rocdl.raw.ptr.buffer.store %{{.*}} : vector<4xf32>
// CHECK: } else {
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.store %{{.*}} : f32
// CHECK: gpu.return
tile.kernel @copy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %rows: i32)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %n = arith.index_cast %rows : i32 to index
  %neg = arith.constant -1.0 : f32
  %in = tile.view %x sizes [%n, 202] strides [202, 1] : !tile.ptr<f32> -> !tile.view<?x202xf32>
  %keys = tile.range : tensor<8xindex, #slice>
  %limit = tile.splat %n : tensor<8xindex, #slice>
  %valid = arith.cmpi slt, %keys, %limit : tensor<8xindex, #slice>
  %t = tile.load %in[%c0, %c0] mask %valid : tensor<8xi1, #slice> pad %neg
      : !tile.view<?x202xf32> -> tensor<8x256xf32, #blocked>
  %out = tile.view %y sizes [%n, 202] strides [202, 1] : !tile.ptr<f32> -> !tile.view<?x202xf32>
  tile.store %t, %out[%c0, %c0] : tensor<8x256xf32, #blocked>, !tile.view<?x202xf32>
  tile.return
}

// Rows of whole runs under a per-row mask: every run is valid or invalid
// as a whole, so each moves with one access and no branch. Each kernel
// is in a gpu.module of its own.
// CHECK: gpu.module @copy_whole_runs {
// CHECK-LABEL: gpu.func @copy_whole_runs
// CHECK-NOT: scf.if
// CHECK: rocdl.raw.ptr.buffer.load %{{.*}} : vector<4xf32>
// CHECK-NOT: scf.if
// CHECK: rocdl.raw.ptr.buffer.store %{{.*}} : vector<4xf32>
// CHECK-NOT: scf.if
// CHECK: gpu.return
tile.kernel @copy_whole_runs(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %rows: i32)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %n = arith.index_cast %rows : i32 to index
  %neg = arith.constant -1.0 : f32
  %in = tile.view %x sizes [%n, 200] strides [200, 1] : !tile.ptr<f32> -> !tile.view<?x200xf32>
  %keys = tile.range : tensor<8xindex, #slice>
  %limit = tile.splat %n : tensor<8xindex, #slice>
  %valid = arith.cmpi slt, %keys, %limit : tensor<8xindex, #slice>
  %t = tile.load %in[%c0, %c0] mask %valid : tensor<8xi1, #slice> pad %neg
      : !tile.view<?x200xf32> -> tensor<8x256xf32, #blocked>
  %out = tile.view %y sizes [%n, 200] strides [200, 1] : !tile.ptr<f32> -> !tile.view<?x200xf32>
  tile.store %t, %out[%c0, %c0] : tensor<8x256xf32, #blocked>, !tile.view<?x200xf32>
  tile.return
}

// A mask over every element may differ inside a run: the branch stays.
// CHECK-LABEL: gpu.func @copy_masked_elements
// CHECK: scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: gpu.return
tile.kernel @copy_masked_elements(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %m: !tile.ptr<i8>)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %in = tile.view %x sizes [8, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<8x256xf32>
  %mv = tile.view %m sizes [8, 256] strides [256, 1] : !tile.ptr<i8> -> !tile.view<8x256xi8>
  %bytes = tile.load %mv[%c0, %c0] : !tile.view<8x256xi8> -> tensor<8x256xi8, #blocked>
  %zero = arith.constant dense<0> : tensor<8x256xi8, #blocked>
  %mask = arith.cmpi ne, %bytes, %zero : tensor<8x256xi8, #blocked>
  %pad = arith.constant 0.0 : f32
  %t = tile.load %in[%c0, %c0] mask %mask : tensor<8x256xi1, #blocked> pad %pad
      : !tile.view<8x256xf32> -> tensor<8x256xf32, #blocked>
  %out = tile.view %y sizes [8, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<8x256xf32>
  tile.store %t, %out[%c0, %c0] : tensor<8x256xf32, #blocked>, !tile.view<8x256xf32>
  tile.return
}

// Rows past a view whose rows do not overlap lie past its extent, which
// the descriptor bounds: no row is compared with the view's rows. With
// overlapping rows (a stride below the row's 256 elements) each is.
// ROWS-LABEL: gpu.func @dense_rows
// ROWS: %[[N:.*]] = arith.index_cast %arg2 : i32 to index
// ROWS-NOT: arith.cmpi ult, %{{.*}}, %[[N]]
// ROWS: rocdl.raw.ptr.buffer.load
// ROWS-NOT: arith.cmpi ult, %{{.*}}, %[[N]]
// ROWS: gpu.return
// ROWS-LABEL: gpu.func @overlapping_rows
// ROWS: %[[M:.*]] = arith.index_cast %arg2 : i32 to index
// ROWS: arith.cmpi ult, %{{.*}}, %[[M]]
// ROWS: rocdl.raw.ptr.buffer.load
tile.kernel @dense_rows(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %rows: i32)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %n = arith.index_cast %rows : i32 to index
  %in = tile.view %x sizes [%n, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<?x256xf32>
  %t = tile.load %in[%c0, %c0] : !tile.view<?x256xf32> -> tensor<8x256xf32, #blocked>
  %out = tile.view %y sizes [8, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<8x256xf32>
  tile.store %t, %out[%c0, %c0] : tensor<8x256xf32, #blocked>, !tile.view<8x256xf32>
  tile.return
}

tile.kernel @overlapping_rows(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %rows: i32)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %n = arith.index_cast %rows : i32 to index
  %in = tile.view %x sizes [%n, 256] strides [128, 1] : !tile.ptr<f32> -> !tile.view<?x256xf32>
  %t = tile.load %in[%c0, %c0] : !tile.view<?x256xf32> -> tensor<8x256xf32, #blocked>
  %out = tile.view %y sizes [8, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<8x256xf32>
  tile.store %t, %out[%c0, %c0] : tensor<8x256xf32, #blocked>, !tile.view<8x256xf32>
  tile.return
}
