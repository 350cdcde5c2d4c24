// RUN: mla-opt %s -split-input-file --tilegpu-assign-layouts=chip=sm_90 --tilegpu-stage-operands --canonicalize --cse --tilegpu-warpgroup-dots | FileCheck %s

// An attention step on 8 warps (two warpgroups). Staged operands are read
// by the products where they lie: Q and V in 128-byte atoms, V N-major (its
// 256-column instructions are whole atoms). K^T, staged [K, N] with N = 32
// contiguous, is narrower than an atom per 16-column instruction: it is
// read back and written again transposed, K contiguous. The probabilities,
// computed in registers, get a buffer of 64-byte atoms.
// CHECK-DAG: #[[$S:.*]] = #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>
// CHECK-DAG: #[[$O:.*]] = #tilegpu.mma<kind = wgmma, instrShape = [64, 256, 16], warpsPerCTA = [4, 2]>
// CHECK-DAG: #[[$A128:.*]] = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>
// CHECK-DAG: #[[$A64:.*]] = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], atom = 32>
// CHECK-LABEL: tile.kernel @attention
// CHECK: %[[Q:.*]] = tilegpu.local_alloc %{{.*}} -> !tilegpu.memdesc<64x64xbf16, #[[$A128]]>
// CHECK: %[[KT:.*]] = tile.trans
// CHECK: %[[KB:.*]] = tilegpu.local_alloc %[[KT]] : {{.*}} -> !tilegpu.memdesc<32x64xbf16, #[[$A128]]>
// CHECK: %[[S:.*]] = tilegpu.warpgroup_dot %[[Q]], %[[KB]], %{{.*}} {rhs_transposed} : {{.*}} -> tensor<64x32xf32, #[[$S]]>
// CHECK: %[[P:.*]] = arith.truncf %[[S]]
// CHECK: %[[V:.*]] = tilegpu.local_alloc %{{.*}} -> !tilegpu.memdesc<32x512xbf16, #[[$A128]]>
// CHECK: %[[PB:.*]] = tilegpu.local_alloc %[[P]] : tensor<64x32xbf16, #[[$S]]> -> !tilegpu.memdesc<64x32xbf16, #[[$A64]]>
// CHECK: tilegpu.warpgroup_dot %[[PB]], %[[V]], %{{.*}} : {{.*}} -> tensor<64x512xf32, #[[$O]]>
// CHECK-NOT: tile.dot
// CHECK-NOT: tilegpu.local_load
tile.kernel @attention(%q: !tile.ptr<bf16>, %k: !tile.ptr<bf16>, %v: !tile.ptr<bf16>, %o: !tile.ptr<f32>) attributes {tile.launch = {grid = [1, 1, 1], waves = 8 : i64}} {
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

// A left operand loaded straight into its operand layout is loaded again,
// 16 bytes per lane, into its buffer.
// CHECK-DAG: #[[$COALESCED:.*]] = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: tile.kernel @gemm
// CHECK: scf.for
// CHECK: %[[A:.*]] = tile.load {{.*}} -> tensor<64x32xbf16, #[[$COALESCED]]>
// CHECK: %[[AB:.*]] = tilegpu.local_alloc %[[A]]
// CHECK: tilegpu.warpgroup_dot %[[AB]], %{{.*}}, %{{.*}} : !tilegpu.memdesc<64x32xbf16, {{.*}}>, !tilegpu.memdesc<32x64xbf16, {{.*}}> -> tensor<64x64xf32
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
