// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 | FileCheck %s --check-prefix=GFX950
// RUN: mla-opt %s --convert-tile-to-gpu=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: mla-opt %s --convert-tile-to-gpu=chip=sm_90 --convert-gpu-kernels-to-llvm=chip=sm_90 | FileCheck %s --check-prefix=NVVM

// f32 log goes through the target, so that no device-library call is left:
// LLVM's log on AMD (the backend selects v_log_f32), log2(x) * ln 2 with
// lg2.approx.f32 on NVIDIA (llvm.log has no NVPTX lowering, and MLIR's
// GPU-to-NVVM patterns would call libdevice's __nv_logf).
#blocked = #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// GFX950-LABEL: gpu.func @lse
// GFX950: llvm.intr.log(%{{.*}}) : (vector<2xf32>) -> vector<2xf32>
// GFX950-NOT: math.log
// SM90-LABEL: gpu.func @lse
// SM90: %[[LN2:.*]] = arith.constant 0.693147182 : f32
// SM90: %[[L0:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%{{.*}}) : (f32) -> f32
// SM90: arith.mulf %[[L0]], %[[LN2]] : f32
// SM90: %[[L1:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%{{.*}}) : (f32) -> f32
// SM90: arith.mulf %[[L1]], %[[LN2]] : f32
// SM90-NOT: math.log
// NVVM-LABEL: llvm.func @lse
// NVVM-NOT: llvm.call @__nv
// NVVM: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
tile.kernel @lse(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [64] strides [1] : !tile.ptr<f32> -> !tile.view<64xf32>
  %t = tile.load %v[%c0] : !tile.view<64xf32> -> tensor<64xf32, #blocked>
  %l = math.log %t : tensor<64xf32, #blocked>
  tile.store %l, %v[%c0] : tensor<64xf32, #blocked>, !tile.view<64xf32>
  tile.return
}

// f16 and bf16 log and exp2 compute in f32: the registers are extended,
// go through the same target sequence, and are rounded back.
// GFX950-LABEL: gpu.func @narrow
// GFX950: %[[X:.*]] = arith.extf %{{.*}} : vector<2xf16> to vector<2xf32>
// GFX950: %[[L:.*]] = llvm.intr.log(%[[X]]) : (vector<2xf32>) -> vector<2xf32>
// GFX950: arith.truncf %[[L]] : vector<2xf32> to vector<2xf16>
// GFX950: arith.extf %{{.*}} : vector<2xbf16> to vector<2xf32>
// GFX950: rocdl.exp2 %{{.*}} f32 -> f32
// GFX950: rocdl.exp2 %{{.*}} f32 -> f32
// GFX950: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// GFX950-NOT: math.
// SM90-LABEL: gpu.func @narrow
// SM90: arith.extf %{{.*}} : vector<2xf16> to vector<2xf32>
// SM90: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// SM90: arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// SM90: arith.extf %{{.*}} : vector<2xbf16> to vector<2xf32>
// SM90: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// SM90: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// SM90-NOT: math.
tile.kernel @narrow(%x: !tile.ptr<f16>, %y: !tile.ptr<bf16>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %xv = tile.view %x sizes [64] strides [1] : !tile.ptr<f16> -> !tile.view<64xf16>
  %yv = tile.view %y sizes [64] strides [1] : !tile.ptr<bf16> -> !tile.view<64xbf16>
  %a = tile.load %xv[%c0] : !tile.view<64xf16> -> tensor<64xf16, #blocked>
  %b = tile.load %yv[%c0] : !tile.view<64xbf16> -> tensor<64xbf16, #blocked>
  %la = math.log %a : tensor<64xf16, #blocked>
  %eb = math.exp2 %b : tensor<64xbf16, #blocked>
  tile.store %la, %xv[%c0] : tensor<64xf16, #blocked>, !tile.view<64xf16>
  tile.store %eb, %yv[%c0] : tensor<64xbf16, #blocked>, !tile.view<64xbf16>
  tile.return
}
