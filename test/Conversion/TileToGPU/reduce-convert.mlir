// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -split-input-file | FileCheck %s

// A row reduction whose columns are spread over 64 lanes: a butterfly of six
// xor exchanges, no LDS. Within each row of 16 lanes they are DPP moves:
// quad_perm:[1,0,3,2] and [2,3,0,1] for xor 1 and 2, then, the lanes of
// each quad (of each 8) already equal, row_half_mirror and row_mirror for
// xor 4 and 8; across rows, shuffles (ds_bpermute).
#blocked = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: gpu.func @lanes
// CHECK-NOT: llvm.mlir.addressof
// CHECK: arith.maximumf
// CHECK: rocdl.update.dpp %{{.*}}, %{{.*}} with 177, 15, 15, true : f32
// CHECK: rocdl.update.dpp %{{.*}}, %{{.*}} with 78, 15, 15, true : f32
// CHECK: rocdl.update.dpp %{{.*}}, %{{.*}} with 321, 15, 15, true : f32
// CHECK: rocdl.update.dpp %{{.*}}, %{{.*}} with 320, 15, 15, true : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c32_i32
// CHECK-NOT: rocdl.s.barrier
// CHECK: gpu.return
tile.kernel @lanes(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [4, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<4x256xf32>
  %t = tile.load %v[%c0, %c0] : !tile.view<4x256xf32> -> tensor<4x256xf32, #blocked>
  %m = tile.reduce max %t dim 1 : tensor<4x256xf32, #blocked> -> tensor<4xf32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %b = tile.broadcast %m dims [1] : tensor<4xf32, #tilegpu.slice<dim = 1, parent = #blocked>> -> tensor<4x256xf32, #blocked>
  tile.store %b, %v[%c0, %c0] : tensor<4x256xf32, #blocked>, !tile.view<4x256xf32>
  tile.return
}

// -----

// The reduced dimension above the lowest two lane bits: lanes 4 and 8
// apart hold different columns' values, so the mirrors would pair the
// wrong lanes; those steps are exact xor shuffles.
#blocked = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: gpu.func @upper_lanes
// CHECK-NOT: rocdl.update.dpp
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c32_i32
// CHECK-NOT: rocdl.update.dpp
// CHECK: gpu.return
tile.kernel @upper_lanes(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [16, 16] strides [16, 1] : !tile.ptr<f32> -> !tile.view<16x16xf32>
  %t = tile.load %v[%c0, %c0] : !tile.view<16x16xf32> -> tensor<16x16xf32, #blocked>
  %m = tile.reduce sum %t dim 0 : tensor<16x16xf32, #blocked> -> tensor<16xf32, #tilegpu.slice<dim = 0, parent = #blocked>>
  %b = tile.broadcast %m dims [0] : tensor<16xf32, #tilegpu.slice<dim = 0, parent = #blocked>> -> tensor<16x16xf32, #blocked>
  tile.store %b, %v[%c0, %c0] : tensor<16x16xf32, #blocked>, !tile.view<16x16xf32>
  tile.return
}

// -----

// Columns spread over the warps: each warp's partial goes through LDS,
// between barriers.
#blocked = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: llvm.mlir.global internal @warps_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x i8>
// CHECK-LABEL: gpu.func @warps
// CHECK: arith.addf
// CHECK: rocdl.s.barrier
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: rocdl.s.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
tile.kernel @warps(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [64, 8] strides [8, 1] : !tile.ptr<f32> -> !tile.view<64x8xf32>
  %t = tile.load %v[%c0, %c0] : !tile.view<64x8xf32> -> tensor<64x8xf32, #blocked>
  %s = tile.reduce sum %t dim 1 : tensor<64x8xf32, #blocked> -> tensor<64xf32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %b = tile.broadcast %s dims [1] : tensor<64xf32, #tilegpu.slice<dim = 1, parent = #blocked>> -> tensor<64x8xf32, #blocked>
  tile.store %b, %v[%c0, %c0] : tensor<64x8xf32, #blocked>, !tile.view<64x8xf32>
  tile.return
}

// -----

// A conversion that moves elements between lanes goes through LDS: each
// element written once (16-byte stores), read back in the new layout.
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [4, 1]>
// CHECK: llvm.mlir.global internal @exchange_lds() {{.*}} : !llvm.array<4096 x i8>
// CHECK-LABEL: gpu.func @exchange
// CHECK: rocdl.s.barrier
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: rocdl.s.barrier
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
// A conversion between layouts with the same lanes only renumbers registers.
// CHECK-NOT: rocdl.s.barrier
// CHECK: vector.shuffle
tile.kernel @exchange(%x: !tile.ptr<bf16>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [64, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<64x32xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<64x32xbf16> -> tensor<64x32xbf16, #blocked>
  %a = tilegpu.convert_layout %t : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #mma>>
  %l = tilegpu.convert_layout %a : tensor<64x32xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #mma>> -> tensor<64x32xbf16, #tilegpu.linear<[reg 2 -> d1 x4, reg 4 -> d1 x1, lane 16 -> d0 x1, lane 4 -> d1 x8, warp 4 -> d0 x16]>>
  %e = arith.negf %l : tensor<64x32xbf16, #tilegpu.linear<[reg 2 -> d1 x4, reg 4 -> d1 x1, lane 16 -> d0 x1, lane 4 -> d1 x8, warp 4 -> d0 x16]>>
  tile.store %e, %v[%c0, %c0] : tensor<64x32xbf16, #tilegpu.linear<[reg 2 -> d1 x4, reg 4 -> d1 x1, lane 16 -> d0 x1, lane 4 -> d1 x8, warp 4 -> d0 x16]>>, !tile.view<64x32xbf16>
  tile.return
}
