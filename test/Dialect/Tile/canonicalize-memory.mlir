// RUN: mla-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: tile.kernel @load_all_true
// CHECK: tile.load %{{.*}}[%{{.*}}] : !tile.view<8xf32> -> tensor<8xf32>
tile.kernel @load_all_true(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant dense<true> : tensor<8xi1>
  %v = tile.view %p sizes [8] strides [1] : !tile.ptr<f32> -> !tile.view<8xf32>
  %t = tile.load %v[%c0] mask %m : tensor<8xi1> : !tile.view<8xf32> -> tensor<8xf32>
  tile.store %t, %v[%c0] : tensor<8xf32>, !tile.view<8xf32>
  tile.return
}

// -----

// An all-false mask loads only the padding.
// CHECK-LABEL: tile.kernel @load_all_false
// CHECK-NOT: tile.load
// CHECK: %[[S:.*]] = tile.splat %pad : tensor<8xf32>
// CHECK: tile.store %[[S]]
tile.kernel @load_all_false(%p: !tile.ptr<f32>, %pad: f32) {
  %c0 = arith.constant 0 : index
  %m = arith.constant dense<false> : tensor<8xi1>
  %v = tile.view %p sizes [8] strides [1] : !tile.ptr<f32> -> !tile.view<8xf32>
  %t = tile.load %v[%c0] mask %m : tensor<8xi1> pad %pad : !tile.view<8xf32> -> tensor<8xf32>
  tile.store %t, %v[%c0] : tensor<8xf32>, !tile.view<8xf32>
  tile.return
}

// -----

// The constant is materialized first; the load was after it.
// CHECK-LABEL: tile.kernel @load_all_false_no_pad
// CHECK-NOT: tile.load
// CHECK: %[[Z:.*]] = arith.constant dense<0> : tensor<8xi32>
// CHECK-NOT: tile.load
// CHECK: tile.store %[[Z]]
tile.kernel @load_all_false_no_pad(%p: !tile.ptr<i32>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant dense<false> : tensor<8xi1>
  %v = tile.view %p sizes [8] strides [1] : !tile.ptr<i32> -> !tile.view<8xi32>
  %t = tile.load %v[%c0] mask %m : tensor<8xi1> : !tile.view<8xi32> -> tensor<8xi32>
  tile.store %t, %v[%c0] : tensor<8xi32>, !tile.view<8xi32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @store_masks
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}] : tensor<8xf32>, !tile.view<8xf32>
// CHECK-NOT: tile.store
tile.kernel @store_masks(%p: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<1.0> : tensor<8xf32>
  %t = arith.constant dense<true> : tensor<8xi1>
  %f = arith.constant dense<false> : tensor<8xi1>
  %v = tile.view %p sizes [8] strides [1] : !tile.ptr<f32> -> !tile.view<8xf32>
  tile.store %x, %v[%c0] mask %t : tensor<8xi1> : tensor<8xf32>, !tile.view<8xf32>
  tile.store %x, %v[%c0] mask %f : tensor<8xi1> : tensor<8xf32>, !tile.view<8xf32>
  tile.return
}

// -----

// Constant sizes become static in the view type; constant strides static
// in the op.
// CHECK-LABEL: tile.kernel @view_constants
// CHECK: %[[V:.*]] = tile.view %p[%{{.*}}] sizes [%{{.*}}, 576] strides [576, 1] : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
// CHECK: tile.load %[[V]]{{.*}} : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
tile.kernel @view_constants(%p: !tile.ptr<bf16>, %q: !tile.ptr<bf16>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c576 = arith.constant 576 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %p[%c0] sizes [%rows, %c576] strides [%c576, %c1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x576xbf16>
  %w = tile.view %q sizes [64, 576] strides [576, 1] : !tile.ptr<bf16> -> !tile.view<64x576xbf16>
  tile.store %t, %w[%c0, %c0] : tensor<64x576xbf16>, !tile.view<64x576xbf16>
  tile.return
}

// -----

// Negative constants stay operands (a static negative size or stride is
// invalid); the others fold.
// CHECK-LABEL: tile.kernel @view_negative_constants
// CHECK: %[[N:.*]] = arith.constant -576 : index
// CHECK: tile.view %p sizes [%[[N]], 4] strides [%[[N]], 1] : !tile.ptr<bf16> -> !tile.view<?x4xbf16>
tile.kernel @view_negative_constants(%p: !tile.ptr<bf16>, %q: !tile.ptr<bf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %neg = arith.constant -576 : index
  %v = tile.view %p sizes [%neg, %c4] strides [%neg, %c1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x4xbf16>
  %w = tile.view %q sizes [16, 4] strides [4, 1] : !tile.ptr<bf16> -> !tile.view<16x4xbf16>
  tile.store %t, %w[%c0, %c0] : tensor<16x4xbf16>, !tile.view<16x4xbf16>
  tile.return
}

// -----

// A view that flows into control flow keeps its type; only strides fold.
// CHECK-LABEL: tile.kernel @view_through_if
// CHECK: tile.view %p sizes [%{{.*}}] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
tile.kernel @view_through_if(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %count = arith.index_cast %n : i32 to index
  %v = tile.view %p sizes [%c8] strides [%c1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %w = tile.view %q sizes [%count] strides [%c1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %cond = arith.cmpi eq, %count, %c0 : index
  %pick = scf.if %cond -> !tile.view<?xf32> {
    scf.yield %v : !tile.view<?xf32>
  } else {
    scf.yield %w : !tile.view<?xf32>
  }
  %x = tile.load %pick[%c0] : !tile.view<?xf32> -> tensor<8xf32>
  tile.store %x, %pick[%c0] : tensor<8xf32>, !tile.view<?xf32>
  tile.return
}
