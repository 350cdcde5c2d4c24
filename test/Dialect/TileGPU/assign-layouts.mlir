// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 -split-input-file | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx942 -split-input-file | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=sm_90 -split-input-file | FileCheck %s --check-prefixes=CHECK,SM90

// A load moves 16 bytes per lane along its contiguous dimension; the row
// reduction's result is the slice of the tile's layout and broadcasting it
// back needs no conversion.
// GFX950-DAG: #[[$B:.*]] = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]>
// GFX942-DAG: #[[$B:.*]] = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]>
// SM90-DAG: #[[$B:.*]] = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[$S:.*]] = #tilegpu.slice<dim = 1, parent = #[[$B]]>
// CHECK-LABEL: tile.kernel @softmax
// CHECK-SAME: tilegpu.num_warps = 4
// CHECK: %[[T:.*]] = tile.load {{.*}} -> tensor<16x256xf32, #[[$B]]>
// CHECK: %[[M:.*]] = tile.reduce max %[[T]] dim 1 : tensor<16x256xf32, #[[$B]]> -> tensor<16xf32, #[[$S]]>
// CHECK: tile.broadcast %[[M]] dims [1] : tensor<16xf32, #[[$S]]> -> tensor<16x256xf32, #[[$B]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store
tile.kernel @softmax(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %in = tile.view %x sizes [16, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<16x256xf32>
  %t = tile.load %in[%c0, %c0] : !tile.view<16x256xf32> -> tensor<16x256xf32>
  %max = tile.reduce max %t dim 1 : tensor<16x256xf32> -> tensor<16xf32>
  %max_b = tile.broadcast %max dims [1] : tensor<16xf32> -> tensor<16x256xf32>
  %d = arith.subf %t, %max_b : tensor<16x256xf32>
  %out = tile.view %y sizes [16, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<16x256xf32>
  tile.store %d, %out[%c0, %c0] : tensor<16x256xf32>, !tile.view<16x256xf32>
  tile.return
}

// -----

// A vector loaded only to be broadcast over rows (a layer norm's weights)
// is loaded in the slice of the tile's layout, each warp reading it whole:
// no conversion through LDS. Loaded for another use too, it keeps a
// blocked layout of its own and is converted for the broadcast.
// CHECK-DAG: #[[$B:.*]] = #tilegpu.blocked<sizePerThread = [1, 4], {{.*}}, warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[$W:.*]] = #tilegpu.slice<dim = 0, parent = #[[$B]]>
// CHECK-LABEL: tile.kernel @scale_rows
// CHECK: %[[W:.*]] = tile.load {{.*}} -> tensor<256xf32, #[[$W]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.broadcast %[[W]] dims [0] : tensor<256xf32, #[[$W]]> -> tensor<16x256xf32, #[[$B]]>
// CHECK-LABEL: tile.kernel @scale_rows_and_store
// CHECK: %[[W:.*]] = tile.load {{.*}} -> tensor<256xf32, #[[$V:.*]]>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[W]] : tensor<256xf32, #[[$V]]> -> tensor<256xf32, #[[$W]]>
// CHECK: tile.broadcast %[[C]] dims [0]
tile.kernel @scale_rows(%x: !tile.ptr<f32>, %w: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %in = tile.view %x sizes [16, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<16x256xf32>
  %wv = tile.view %w sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  %t = tile.load %in[%c0, %c0] : !tile.view<16x256xf32> -> tensor<16x256xf32>
  %wt = tile.load %wv[%c0] : !tile.view<256xf32> -> tensor<256xf32>
  %wb = tile.broadcast %wt dims [0] : tensor<256xf32> -> tensor<16x256xf32>
  %p = arith.mulf %t, %wb : tensor<16x256xf32>
  %out = tile.view %y sizes [16, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<16x256xf32>
  tile.store %p, %out[%c0, %c0] : tensor<16x256xf32>, !tile.view<16x256xf32>
  tile.return
}
tile.kernel @scale_rows_and_store(%x: !tile.ptr<f32>, %w: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %in = tile.view %x sizes [16, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<16x256xf32>
  %wv = tile.view %w sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  %t = tile.load %in[%c0, %c0] : !tile.view<16x256xf32> -> tensor<16x256xf32>
  %wt = tile.load %wv[%c0] : !tile.view<256xf32> -> tensor<256xf32>
  %wb = tile.broadcast %wt dims [0] : tensor<256xf32> -> tensor<16x256xf32>
  %p = arith.mulf %t, %wb : tensor<16x256xf32>
  %out = tile.view %y sizes [16, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<16x256xf32>
  tile.store %p, %out[%c0, %c0] : tensor<16x256xf32>, !tile.view<16x256xf32>
  %wo = tile.view %y sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  tile.store %wt, %wo[%c0] : tensor<256xf32>, !tile.view<256xf32>
  tile.return
}

// -----

// A tile reduced along its rows (a combine summing 16 splits of a 512-wide
// row) keeps its warps on the columns, so the sum adds within each lane
// (and, with 64 lanes, across two of them) instead of exchanging through
// LDS. A row reduction keeps them on the rows (@softmax above).
// SM90-DAG: #[[$B:.*]] = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
// GFX950-DAG: #[[$B:.*]] = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [1, 4], order = [1, 0]>
// GFX942-DAG: #[[$B:.*]] = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-DAG: #[[$S:.*]] = #tilegpu.slice<dim = 0, parent = #[[$B]]>
// CHECK-LABEL: tile.kernel @column_sums
// CHECK: tile.load {{.*}} -> tensor<16x512xf32, #[[$B]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.reduce sum %{{.*}} dim 0 : tensor<16x512xf32, #[[$B]]> -> tensor<512xf32, #[[$S]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.return
tile.kernel @column_sums(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %in = tile.view %x sizes [16, 512] strides [512, 1] : !tile.ptr<f32> -> !tile.view<16x512xf32>
  %t = tile.load %in[%c0, %c0] : !tile.view<16x512xf32> -> tensor<16x512xf32>
  %s = tile.reduce sum %t dim 0 : tensor<16x512xf32> -> tensor<512xf32>
  %out = tile.view %y sizes [512] strides [1] : !tile.ptr<f32> -> !tile.view<512xf32>
  tile.store %s, %out[%c0] : tensor<512xf32>, !tile.view<512xf32>
  tile.return
}

// -----

// A product: the chip's matrix-core layout, its operand layouts, the
// accumulator carried by the loop in the result layout; the zero
// accumulator is made directly in it. A's registers are runs of its rows
// (its contiguous dimension), so A is loaded in its operand layout; B's
// are not and B is converted once.
// GFX950-DAG: #[[$MMA:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [2, 2]>
// GFX942-DAG: #[[$MMA:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 16], warpsPerCTA = [2, 2]>
// SM90-DAG: #[[$MMA:.*]] = #tilegpu.mma<kind = wgmma, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>
// CHECK-DAG: #[[$A:.*]] = #tilegpu.dot_operand<opIdx = 0, parent = #[[$MMA]]>
// CHECK-DAG: #[[$BOP:.*]] = #tilegpu.dot_operand<opIdx = 1, parent = #[[$MMA]]>
// CHECK-LABEL: tile.kernel @gemm
// CHECK: %[[ZERO:.*]] = tile.splat %{{.*}} : tensor<64x64xf32, #[[$MMA]]>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #[[$MMA]]>)
// CHECK: %[[LA:.*]] = tile.load {{.*}} -> tensor<64x32xbf16, #[[$A]]>
// CHECK: %[[LB:.*]] = tile.load
// CHECK-NOT: tilegpu.convert_layout %[[LA]]
// CHECK: %[[CB:.*]] = tilegpu.convert_layout %[[LB]] : tensor<32x64xbf16, #{{.*}}> -> tensor<32x64xbf16, #[[$BOP]]>
// CHECK: tile.dot %[[LA]], %[[CB]], %[[ACC]] : tensor<64x32xbf16, #[[$A]]>, tensor<32x64xbf16, #[[$BOP]]> -> tensor<64x64xf32, #[[$MMA]]>
// CHECK: tile.store {{.*}} : tensor<64x64xf32, #[[$MMA]]>
tile.kernel @gemm(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %depth = arith.index_cast %k : i32 to index
  %av = tile.view %a sizes [64, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<64x?xbf16>
  %bv = tile.view %b sizes [%depth, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64x64xf32>
  %acc = scf.for %kk = %c0 to %depth step %c32 iter_args(%acc_i = %acc0) -> tensor<64x64xf32> {
    %at = tile.load %av[%c0, %kk] : !tile.view<64x?xbf16> -> tensor<64x32xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// -----

// One instruction row of few columns over a long K: a product made fresh
// (@fresh_scores, an attention step's scores) splits K over the warps and
// sums their parts once; one that adds to a loop's carried accumulator (a
// 16-row GEMM's K step) would sum them every iteration, so its warps take
// columns instead, each reading all of its K step (on the AMD chips 32
// columns are two instructions, and two of the four waves hold copies).
// GFX950-DAG: #[[$SPLIT:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [1, 1, 4]>
// GFX950-DAG: #[[$COLS:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [1, 4]>
// GFX942-DAG: #[[$SPLIT:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 16], warpsPerCTA = [1, 1, 4]>
// GFX942-DAG: #[[$COLS:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 16], warpsPerCTA = [1, 4]>
// SM90-DAG: #[[$SPLIT:.*]] = #tilegpu.mma<kind = mma_sync, instrShape = [16, 8, 16], warpsPerCTA = [1, 1, 4]>
// SM90-DAG: #[[$COLS:.*]] = #tilegpu.mma<kind = mma_sync, instrShape = [16, 8, 16], warpsPerCTA = [1, 4]>
// CHECK-LABEL: tile.kernel @fresh_scores
// CHECK: tile.dot {{.*}} -> tensor<16x32xf32, #[[$SPLIT]]>
// CHECK-LABEL: tile.kernel @carried_accumulator
// CHECK: scf.for {{.*}} -> (tensor<16x32xf32, #[[$COLS]]>)
// CHECK: tile.dot {{.*}} -> tensor<16x32xf32, #[[$COLS]]>
tile.kernel @fresh_scores(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [16, 512] strides [512, 1] : !tile.ptr<bf16> -> !tile.view<16x512xbf16>
  %bv = tile.view %b sizes [512, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<512x32xbf16>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x512xbf16> -> tensor<16x512xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<512x32xbf16> -> tensor<512x32xbf16>
  %zero = arith.constant 0.0 : f32
  %z = tile.splat %zero : tensor<16x32xf32>
  %s = tile.dot %at, %bt, %z : tensor<16x512xbf16>, tensor<512x32xbf16> -> tensor<16x32xf32>
  %cv = tile.view %c sizes [16, 32] strides [32, 1] : !tile.ptr<f32> -> !tile.view<16x32xf32>
  tile.store %s, %cv[%c0, %c0] : tensor<16x32xf32>, !tile.view<16x32xf32>
  tile.return
}

tile.kernel @carried_accumulator(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %depth = arith.index_cast %k : i32 to index
  %av = tile.view %a sizes [16, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<16x?xbf16>
  %bv = tile.view %b sizes [%depth, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<?x32xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<16x32xf32>
  %acc = scf.for %kk = %c0 to %depth step %c512 iter_args(%acc_i = %acc0) -> tensor<16x32xf32> {
    %at = tile.load %av[%c0, %kk] : !tile.view<16x?xbf16> -> tensor<16x512xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x32xbf16> -> tensor<512x32xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<16x512xbf16>, tensor<512x32xbf16> -> tensor<16x32xf32>
    scf.yield %next : tensor<16x32xf32>
  }
  %cv = tile.view %c sizes [16, 32] strides [32, 1] : !tile.ptr<f32> -> !tile.view<16x32xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<16x32xf32>, !tile.view<16x32xf32>
  tile.return
}

// -----

// Attention's two products on 8 warps: the scores (64x32) split 4x2, 16x16
// per warp; on the AMD chips the output (64x512) 2x4, 32 rows by 128
// columns per warp, which reads V twice where 4x2 would read it four
// times. sm_90 runs both as warpgroup products, each of its two
// warpgroups taking all 64 rows and half the columns (one 64x16 and one
// 64x256 instruction per K step).
// GFX950-DAG: #[[$S:.*]] = #tilegpu.mma<{{.*}}, warpsPerCTA = [4, 2]>
// GFX950-DAG: #[[$O:.*]] = #tilegpu.mma<{{.*}}, warpsPerCTA = [2, 4]>
// GFX942-DAG: #[[$S:.*]] = #tilegpu.mma<{{.*}}, warpsPerCTA = [4, 2]>
// GFX942-DAG: #[[$O:.*]] = #tilegpu.mma<{{.*}}, warpsPerCTA = [2, 4]>
// SM90-DAG: #[[$S:.*]] = #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>
// SM90-DAG: #[[$O:.*]] = #tilegpu.mma<kind = wgmma, instrShape = [64, 256, 16], warpsPerCTA = [4, 2]>
// CHECK-LABEL: tile.kernel @attention_grids
// CHECK: tile.dot {{.*}} -> tensor<64x32xf32, #[[$S]]>
// CHECK: tile.dot {{.*}} -> tensor<64x512xf32, #[[$O]]>
tile.kernel @attention_grids(%q: !tile.ptr<bf16>, %k: !tile.ptr<bf16>, %v: !tile.ptr<bf16>, %o: !tile.ptr<f32>) attributes {tile.launch = {grid = [1, 1, 1], waves = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %qv = tile.view %q sizes [64, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<64x64xbf16>
  %kv = tile.view %k sizes [64, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<64x32xbf16>
  %vv = tile.view %v sizes [32, 512] strides [512, 1] : !tile.ptr<bf16> -> !tile.view<32x512xbf16>
  %ov = tile.view %o sizes [64, 512] strides [512, 1] : !tile.ptr<f32> -> !tile.view<64x512xf32>
  %zero = arith.constant 0.0 : f32
  %qt = tile.load %qv[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
  %kt = tile.load %kv[%c0, %c0] : !tile.view<64x32xbf16> -> tensor<64x32xbf16>
  %s0 = tile.splat %zero : tensor<64x32xf32>
  %s = tile.dot %qt, %kt, %s0 : tensor<64x64xbf16>, tensor<64x32xbf16> -> tensor<64x32xf32>
  %p = arith.truncf %s : tensor<64x32xf32> to tensor<64x32xbf16>
  %vt = tile.load %vv[%c0, %c0] : !tile.view<32x512xbf16> -> tensor<32x512xbf16>
  %o0 = tile.splat %zero : tensor<64x512xf32>
  %out = tile.dot %p, %vt, %o0 : tensor<64x32xbf16>, tensor<32x512xbf16> -> tensor<64x512xf32>
  tile.store %out, %ov[%c0, %c0] : tensor<64x512xf32>, !tile.view<64x512xf32>
  tile.return
}

// -----

// Waves per program come from the kernel's launch key.
// GFX950-DAG: #{{.*}} = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [8, 1], order = [1, 0]>
// CHECK-LABEL: tile.kernel @waves
// CHECK-SAME: tilegpu.num_warps = 8
tile.kernel @waves(%x: !tile.ptr<f32>) attributes {tile.launch = {grid = [1, 1, 1], waves = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  %t = tile.load %v[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32>
  tile.store %t, %v[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// -----

// A row mask takes the slice of the tile's layout; an MX tile is expanded
// in the lanes that loaded its bytes, with each lane's scales moved to it.
// GFX950-DAG: #[[$P:.*]] = #tilegpu.blocked<sizePerThread = [1, 16], threadsPerWarp = [32, 2], warpsPerCTA = [4, 1], order = [1, 0]>
// GFX950-DAG: #[[$R:.*]] = #tilegpu.blocked<sizePerThread = [1, 32], threadsPerWarp = [32, 2], warpsPerCTA = [4, 1], order = [1, 0]>
// GFX950-DAG: #[[$L:.*]] = #tilegpu.linear<[lane 2 -> d1 x1, lane 32 -> d0 x1, warp 2 -> d0 x32, warp 2 -> *, reg 9 -> d1 x2]>
// GFX950-DAG: #[[$SL:.*]] = #tilegpu.slice<dim = 1, parent = #[[$P]]>
// CHECK-LABEL: tile.kernel @mx
// GFX950: %[[PK:.*]] = tile.load {{.*}} mask %{{.*}} : tensor<64xi1, #[[$SL]]> : !tile.view<?x288xi8> -> tensor<64x288xi8, #[[$P]]>
// GFX950: %[[SC:.*]] = tile.load
// GFX950: %[[SCL:.*]] = tilegpu.convert_layout %[[SC]] : tensor<64x18xf8E8M0FNU, #{{.*}}> -> tensor<64x18xf8E8M0FNU, #[[$L]]>
// GFX950: tile.dequant_mx %[[PK]], %[[SCL]] : tensor<64x288xi8, #[[$P]]>, tensor<64x18xf8E8M0FNU, #[[$L]]> -> tensor<64x576xbf16, #[[$R]]>
tile.kernel @mx(%kv: !tile.ptr<i8>, %s: !tile.ptr<f8E8M0FNU>, %out: !tile.ptr<bf16>, %n: i32) {
  %c0 = arith.constant 0 : index
  %rows = arith.index_cast %n : i32 to index
  %kvv = tile.view %kv sizes [%rows, 288] strides [288, 1] : !tile.ptr<i8> -> !tile.view<?x288xi8>
  %sv = tile.view %s sizes [%rows, 18] strides [18, 1] : !tile.ptr<f8E8M0FNU> -> !tile.view<?x18xf8E8M0FNU>
  %keys = tile.range : tensor<64xindex>
  %limit = tile.splat %rows : tensor<64xindex>
  %valid = arith.cmpi slt, %keys, %limit : tensor<64xindex>
  %p = tile.load %kvv[%c0, %c0] mask %valid : tensor<64xi1> : !tile.view<?x288xi8> -> tensor<64x288xi8>
  %sc = tile.load %sv[%c0, %c0] : !tile.view<?x18xf8E8M0FNU> -> tensor<64x18xf8E8M0FNU>
  %k = tile.dequant_mx %p, %sc : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
  %ov = tile.view %out sizes [64, 576] strides [576, 1] : !tile.ptr<bf16> -> !tile.view<64x576xbf16>
  tile.store %k, %ov[%c0, %c0] : tensor<64x576xbf16>, !tile.view<64x576xbf16>
  tile.return
}


// -----

// A splat (as a range or a constant tile) is made next to each of its
// users: one made before a loop (as LICM leaves them) would hold its
// registers across the whole loop.
// CHECK-LABEL: tile.kernel @splat_at_use
// CHECK: scf.for
// CHECK: %[[S:.*]] = tile.splat %{{.*}} : tensor<64x64xf32, #{{.*}}>
// CHECK-NEXT: arith.mulf %{{.*}}, %[[S]]
// CHECK: tile.store
// CHECK: }
// CHECK-NEXT: tile.return
tile.kernel @splat_at_use(%x: !tile.ptr<f32>, %scale: f32, %count: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.index_cast %count : i32 to index
  %v = tile.view %x sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  %s = tile.splat %scale : tensor<64x64xf32>
  scf.for %i = %c0 to %n step %c1 {
    %t = tile.load %v[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32>
    %u = arith.mulf %t, %s : tensor<64x64xf32>
    tile.store %u, %v[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  }
  tile.return
}

// -----

// A tile the products of two loops read (a query tile) is loaded in their
// operand layout once, before the loops, on the MFMA chips, rather than
// converted in each iteration of each loop. A warpgroup product (sm_90)
// reads its operands from shared memory: the loops convert it there.
// GFX950-LABEL: tile.kernel @query_in_two_loops
// GFX950: tile.load %{{.*}}[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16, #[[$DOT:dot_op[0-9]*]]>
// GFX950-NOT: tilegpu.convert_layout %{{.*}} -> tensor<64x64xbf16, #[[$DOT]]>
// GFX942-LABEL: tile.kernel @query_in_two_loops
// GFX942: tile.load %{{.*}}[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16, #[[$DOT:dot_op[0-9]*]]>
// GFX942-NOT: tilegpu.convert_layout %{{.*}} -> tensor<64x64xbf16, #[[$DOT]]>
// SM90-LABEL: tile.kernel @query_in_two_loops
// SM90: %[[Q:.*]] = tile.load %{{.*}}[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16, #blocked{{[0-9]*}}>
// SM90: scf.for
// SM90: tilegpu.convert_layout %[[Q]]
// SM90: scf.for
// SM90: tilegpu.convert_layout %[[Q]]
tile.kernel @query_in_two_loops(%q: !tile.ptr<bf16>, %k: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %ni = arith.index_cast %n : i32 to index
  %qv = tile.view %q sizes [64, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<64x64xbf16>
  %kv = tile.view %k sizes [64, %ni] strides [%ni, 1] : !tile.ptr<bf16> -> !tile.view<64x?xbf16>
  %qt = tile.load %qv[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64x64xf32>
  %acc1 = scf.for %j = %c0 to %ni step %c64 iter_args(%a = %acc0) -> tensor<64x64xf32> {
    %kt = tile.load %kv[%c0, %j] : !tile.view<64x?xbf16> -> tensor<64x64xbf16>
    %r = tile.dot %qt, %kt, %a : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  %acc2 = scf.for %j = %c0 to %ni step %c64 iter_args(%a = %acc1) -> tensor<64x64xf32> {
    %kt = tile.load %kv[%c0, %j] : !tile.view<64x?xbf16> -> tensor<64x64xbf16>
    %r = tile.dot %qt, %kt, %a : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  tile.store %acc2, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}
