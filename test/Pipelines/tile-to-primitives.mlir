// RUN: mla-opt %s --tile-to-primitives | FileCheck %s

// The pipeline canonicalizes (the all-true mask goes), decomposes the
// attention step, and CSEs the constants it creates.
// The constants come first: one -inf row, however often the decomposition
// asked for it.
// CHECK-LABEL: tile.kernel @step
// CHECK: arith.constant dense<0xFF800000> : tensor<16xf32>
// CHECK-NOT: arith.constant dense<0xFF800000> : tensor<16xf32>
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
// CHECK-NOT: tile.qk_softmax_acc
// CHECK-COUNT-2: tile.dot
// CHECK-COUNT-2: tile.store
// CHECK-NOT: arith.constant dense<0xFF800000> : tensor<16xf32>
tile.kernel @step(%q: !tile.ptr<bf16>, %kv: !tile.ptr<bf16>, %o: !tile.ptr<f32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %all = arith.constant dense<true> : tensor<64xi1>
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %qv = tile.view %q sizes [16, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<16x64xbf16>
  %kvv = tile.view %kv sizes [64, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<64x64xbf16>
  %ov = tile.view %o sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  %mv = tile.view %o sizes [16] strides [1] : !tile.ptr<f32> -> !tile.view<16xf32>
  %qt = tile.load %qv[%c0, %c0] : !tile.view<16x64xbf16> -> tensor<16x64xbf16>
  %k = tile.load %kvv[%c0, %c0] mask %all : tensor<64xi1> : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
  %m0 = tile.splat %neg_inf : tensor<16xf32>
  %l0 = tile.splat %zero : tensor<16xf32>
  %acc0 = tile.splat %zero : tensor<16x64xf32>
  %m, %l, %acc = tile.qk_softmax_acc %qt, %k, %k, %m0, %l0, %acc0 scale %s mask %all : tensor<64xi1>
      : tensor<16x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<16x64xf32>
  tile.store %acc, %ov[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.store %m, %mv[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.return
}

// The pipeline specializes first: each instance is decomposed with static
// tiles, and a condition on a parameter folds away.
// CHECK-LABEL: tile.kernel @rows_block16(
// CHECK-SAME: tile.params = {BLOCK = 16 : i64}
// CHECK-NOT: scf.if
// CHECK-NOT: math.exp
// CHECK: tile.reduce sum %{{.*}} dim 1 : tensor<16x64xf32> -> tensor<16xf32>
// CHECK-LABEL: tile.kernel @rows_block32(
// CHECK-NOT: scf.if
// CHECK: math.exp %{{.*}} : tensor<32x64xf32>
// CHECK: tile.reduce sum %{{.*}} dim 1 : tensor<32x64xf32> -> tensor<32xf32>
// CHECK-NOT: tile.kernel @rows
tile.kernel @rows<BLOCK: i64>(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.instances = {BLOCK = [16, 32]}} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %block = tile.param "BLOCK" : index
  %xv = tile.view %x sizes [%block, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<?x64xf32>
  %t = tile.load %xv[%c0, %c0] : !tile.view<?x64xf32> -> tensor<?x64xf32, #tile.dims<[BLOCK, 64]>>
  // Large blocks are exponentiated first.
  %large = arith.cmpi sgt, %block, %c16 : index
  %u = scf.if %large -> tensor<?x64xf32, #tile.dims<[BLOCK, 64]>> {
    %e = math.exp %t : tensor<?x64xf32, #tile.dims<[BLOCK, 64]>>
    scf.yield %e : tensor<?x64xf32, #tile.dims<[BLOCK, 64]>>
  } else {
    scf.yield %t : tensor<?x64xf32, #tile.dims<[BLOCK, 64]>>
  }
  %s = tile.reduce sum %u dim 1 : tensor<?x64xf32, #tile.dims<[BLOCK, 64]>> -> tensor<?xf32, #tile.dims<[BLOCK]>>
  %yv = tile.view %y sizes [%block] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  tile.store %s, %yv[%c0] : tensor<?xf32, #tile.dims<[BLOCK]>>, !tile.view<?xf32>
  tile.return
}
