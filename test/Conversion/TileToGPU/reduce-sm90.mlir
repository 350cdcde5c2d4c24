// RUN: mla-opt %s --convert-tile-to-gpu=chip=sm_90 -split-input-file | FileCheck %s --check-prefix=SM90
// RUN: mla-opt %s --convert-tile-to-gpu=chip=sm_90 --convert-gpu-kernels-to-llvm=chip=sm_90 -split-input-file | FileCheck %s --check-prefix=NVVM

// A row reduction whose columns are spread over the 32 lanes of a warp: a
// butterfly of five xor shuffles over the whole warp, no shared memory.
#blocked = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// SM90-LABEL: gpu.func @lanes
// SM90-NOT: llvm.mlir.addressof
// SM90: arith.maximumf
// SM90: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32{{.*}} : f32
// SM90: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32{{.*}} : f32
// SM90: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32{{.*}} : f32
// SM90: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32{{.*}} : f32
// SM90: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32{{.*}} : f32
// SM90-NOT: gpu.shuffle
// SM90-NOT: gpu.barrier
// SM90: gpu.return
// The shuffles become shfl.sync bfly.
// NVVM-LABEL: llvm.func @lanes
// NVVM-COUNT-5: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
// NVVM-NOT: nvvm.shfl.sync
// NVVM-NOT: nvvm.barrier
tile.kernel @lanes(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [4, 128] strides [128, 1] : !tile.ptr<f32> -> !tile.view<4x128xf32>
  %t = tile.load %v[%c0, %c0] : !tile.view<4x128xf32> -> tensor<4x128xf32, #blocked>
  %m = tile.reduce max %t dim 1 : tensor<4x128xf32, #blocked> -> tensor<4xf32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %b = tile.broadcast %m dims [1] : tensor<4xf32, #tilegpu.slice<dim = 1, parent = #blocked>> -> tensor<4x128xf32, #blocked>
  tile.store %b, %v[%c0, %c0] : tensor<4x128xf32, #blocked>, !tile.view<4x128xf32>
  tile.return
}

// -----

// Columns spread over the warps: each warp's partial goes through shared
// memory (address space 3), between barriers.
#blocked = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>
// SM90: llvm.mlir.global internal @warps_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<512 x i8>
// SM90-LABEL: gpu.func @warps
// SM90: arith.addf
// SM90: gpu.barrier
// SM90: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// SM90: gpu.barrier
// SM90-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// NVVM-LABEL: llvm.func @warps
// NVVM: nvvm.barrier0
// NVVM: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// NVVM: nvvm.barrier0
tile.kernel @warps(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [32, 8] strides [8, 1] : !tile.ptr<f32> -> !tile.view<32x8xf32>
  %t = tile.load %v[%c0, %c0] : !tile.view<32x8xf32> -> tensor<32x8xf32, #blocked>
  %s = tile.reduce sum %t dim 1 : tensor<32x8xf32, #blocked> -> tensor<32xf32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %b = tile.broadcast %s dims [1] : tensor<32xf32, #tilegpu.slice<dim = 1, parent = #blocked>> -> tensor<32x8xf32, #blocked>
  tile.store %b, %v[%c0, %c0] : tensor<32x8xf32, #blocked>, !tile.view<32x8xf32>
  tile.return
}

// -----

// A NaN-ignoring max is LLVM's maxnum in every step (max.f32 in PTX), not
// a libdevice call.
#blocked = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// NVVM-LABEL: llvm.func @maxnum
// NVVM-NOT: __nv_fmaxf
// NVVM-COUNT-3: llvm.intr.maxnum
// NVVM: nvvm.shfl.sync  bfly
// NVVM: llvm.intr.maxnum
// NVVM-NOT: __nv_fmaxf
tile.kernel @maxnum(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [4, 128] strides [128, 1] : !tile.ptr<f32> -> !tile.view<4x128xf32>
  %t = tile.load %v[%c0, %c0] : !tile.view<4x128xf32> -> tensor<4x128xf32, #blocked>
  %m = tile.reduce maxnum %t dim 1 : tensor<4x128xf32, #blocked> -> tensor<4xf32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %b = tile.broadcast %m dims [1] : tensor<4xf32, #tilegpu.slice<dim = 1, parent = #blocked>> -> tensor<4x128xf32, #blocked>
  tile.store %b, %v[%c0, %c0] : tensor<4x128xf32, #blocked>, !tile.view<4x128xf32>
  tile.return
}
