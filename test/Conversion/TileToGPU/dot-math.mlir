// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 --convert-tile-to-gpu=chip=gfx950 | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx942 --convert-tile-to-gpu=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: not mla-opt %s --tilegpu-assign-layouts=chip=gfx950 --convert-tile-to-gpu=chip=gfx942 2>&1 | FileCheck %s --check-prefix=MISMATCH

// A 64x64 product over K = 64 with four warps splitting the rows: each warp
// runs its row block's 4 column blocks, each over the K steps of the chip's
// bf16 MFMA (K = 32 on gfx950, 16 on gfx942), accumulating in registers.
// CHECK-LABEL: gpu.func @product
// GFX950-COUNT-8: amdgpu.mfma 16x16x32 {{.*}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
// GFX950-NOT: amdgpu.mfma
// GFX942-COUNT-16: amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// GFX942-NOT: amdgpu.mfma
// exp is the chip's exp2 of x * log2(e), one v_exp_f32 per element (no
// range reduction for results below 2^-126); no device-library call.
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-COUNT-16: rocdl.exp2 %{{.*}} f32 -> f32
// CHECK-NOT: math.exp
// CHECK-NOT: llvm.intr.exp2
// MISMATCH: error: 'tile.dot' op gfx942 has no mfma instruction of 16x16x32
tile.kernel @product(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [64, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<64x64xbf16>
  %bv = tile.view %b sizes [64, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<64x64xbf16>
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %at, %bt, %zero : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  %e = math.exp %d : tensor<64x64xf32>
  tile.store %e, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}
