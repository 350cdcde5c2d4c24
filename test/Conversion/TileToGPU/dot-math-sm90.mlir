// RUN: mla-opt %s --tilegpu-assign-layouts=chip=sm_90 --convert-tile-to-gpu=chip=sm_90 -split-input-file | FileCheck %s --check-prefix=SM90
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=sm_90 --convert-tile-to-gpu=chip=sm_90 --convert-gpu-kernels-to-llvm=chip=sm_90 -split-input-file | FileCheck %s --check-prefix=NVVM

// A 16x64 product over K = 64 with four warps splitting the columns: each
// warp runs its 2 column blocks of mma.sync m16n8k16, 4 K steps each (64-row
// products are warpgroup products: warpgroup-dot-sm90.mlir).
// The registers of a lane go in pairs of bf16 per 32-bit register, in the
// order of the PTX fragments (a0..a7, b0..b3, c0..c3).
// SM90-LABEL: gpu.func @product
// SM90-SAME: known_block_size = array<i32: 128, 1, 1>
// SM90: %[[A:.*]] = vector.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// SM90: vector.extract %[[A]][0] : i32 from vector<4xi32>
// SM90: vector.extract %[[A]][3] : i32 from vector<4xi32>
// SM90: %[[B:.*]] = vector.bitcast %{{.*}} : vector<4xbf16> to vector<2xi32>
// SM90: vector.extract %[[B]][1] : i32 from vector<2xi32>
// SM90: %[[D:.*]] = nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}]
// SM90-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
// SM90-SAME: (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// SM90: llvm.extractvalue %[[D]][3] : !llvm.struct<(f32, f32, f32, f32)>
// SM90-COUNT-7: nvvm.mma.sync
// SM90-NOT: nvvm.mma.sync
// exp is ex2.approx.f32 of x * log2(e), register by register.
// SM90: arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// SM90-COUNT-8: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%{{.*}}) : (f32) -> f32
// SM90-NOT: math.exp
// SM90-NOT: llvm.intr.exp2

// NVVM-LABEL: llvm.func @product
// NVVM-SAME: nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>
// NVVM: nvvm.read.ptx.sreg.tid.x
// NVVM: nvvm.barrier0
// NVVM-COUNT-8: nvvm.mma.sync
// NVVM-NOT: nvvm.mma.sync
// NVVM-NOT: llvm.call @
tile.kernel @product(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [16, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<16x64xbf16>
  %bv = tile.view %b sizes [64, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<64x64xbf16>
  %cv = tile.view %c sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x64xbf16> -> tensor<16x64xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<16x64xf32>
  %d = tile.dot %at, %bt, %zero : tensor<16x64xbf16>, tensor<64x64xbf16> -> tensor<16x64xf32>
  %e = math.exp %d : tensor<16x64xf32>
  tile.store %e, %cv[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}

// -----

// f16 operands go to mma.sync as f16x2 registers.
// SM90-LABEL: gpu.func @product_f16
// SM90: vector.extract_strided_slice %{{.*}} {offsets = [6], sizes = [2], strides = [1]} : vector<8xf16> to vector<2xf16>
// SM90: nvvm.mma.sync
// SM90-SAME: (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// NVVM-LABEL: llvm.func @product_f16
// NVVM: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32)
tile.kernel @product_f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [16, 16] strides [16, 1] : !tile.ptr<f16> -> !tile.view<16x16xf16>
  %bv = tile.view %b sizes [16, 8] strides [8, 1] : !tile.ptr<f16> -> !tile.view<16x8xf16>
  %cv = tile.view %c sizes [16, 8] strides [8, 1] : !tile.ptr<f32> -> !tile.view<16x8xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x16xf16> -> tensor<16x16xf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<16x8xf16> -> tensor<16x8xf16>
  %zero = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.dot %at, %bt, %zero : tensor<16x16xf16>, tensor<16x8xf16> -> tensor<16x8xf32>
  tile.store %d, %cv[%c0, %c0] : tensor<16x8xf32>, !tile.view<16x8xf32>
  tile.return
}
