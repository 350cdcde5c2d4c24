// RUN: mla-opt %s --tile-defer-loop-sums --canonicalize -split-input-file | FileCheck %s --enable-var-scope

// Online softmax's row sum: l' = l * alpha + rowsum(p) from zero. The loop
// carries p's shape, updated with one multiply-add per element, and the
// row sum comes once, after the loop.
// CHECK-LABEL: tile.kernel @scaled
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<16x64xf32>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[PART:.*]] = %[[ZEROS]]) -> (tensor<16x64xf32>)
// CHECK-NOT: tile.reduce
// CHECK: %[[WIDE:.*]] = tile.broadcast %[[ALPHA:.*]] dims [1] : tensor<16xf32> -> tensor<16x64xf32>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[PART]], %[[WIDE]] fastmath<contract> : tensor<16x64xf32>
// CHECK: %[[NEXT:.*]] = arith.addf %[[SCALED]], %{{.*}} fastmath<contract> : tensor<16x64xf32>
// CHECK: scf.yield %[[NEXT]] : tensor<16x64xf32>
// CHECK: %[[SUM:.*]] = tile.reduce sum %[[LOOP]] dim 1 : tensor<16x64xf32> -> tensor<16xf32>
// CHECK: tile.store %[[SUM]]
tile.kernel @scaled(%x: !tile.ptr<f32>, %len: i32) {
  %n = arith.index_cast %len : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %v = tile.view %x sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  %o = tile.view %x sizes [16] strides [1] : !tile.ptr<f32> -> !tile.view<16xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16xf32>) {
    %p = tile.load %v[%i, %c0] : !tile.view<16x64xf32> -> tensor<16x64xf32>
    %alpha = tile.load %o[%i] : !tile.view<16xf32> -> tensor<16xf32>
    %s = tile.reduce sum %p dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    %scaled = arith.mulf %acc, %alpha : tensor<16xf32>
    %next = arith.addf %scaled, %s : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  tile.store %l, %o[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.return
}

// -----

// Without a scale, a plain add, the sum on either side.
// CHECK-LABEL: tile.kernel @plain
// CHECK: scf.for {{.*}} -> (tensor<16x64xf32>)
// CHECK-NOT: tile.reduce
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<16x64xf32>
// CHECK: scf.yield
// CHECK: tile.reduce sum %{{.*}} dim 1 : tensor<16x64xf32> -> tensor<16xf32>
tile.kernel @plain(%x: !tile.ptr<f32>, %len: i32) {
  %n = arith.index_cast %len : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %v = tile.view %x sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  %o = tile.view %x sizes [16] strides [1] : !tile.ptr<f32> -> !tile.view<16xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16xf32>) {
    %p = tile.load %v[%i, %c0] : !tile.view<16x64xf32> -> tensor<16x64xf32>
    %s = tile.reduce sum %p dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    %next = arith.addf %s, %acc : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  tile.store %l, %o[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.return
}

// -----

// A sum along a leading dimension is left alone: lanes hold that
// dimension's elements as register repeats, and the carried tile would be
// 16 times the sum's registers.
// CHECK-LABEL: tile.kernel @leading_dim
// CHECK: scf.for {{.*}} -> (tensor<64xf32>)
// CHECK: tile.reduce sum %{{.*}} dim 0 : tensor<16x64xf32> -> tensor<64xf32>
// CHECK: scf.yield
tile.kernel @leading_dim(%x: !tile.ptr<f32>, %len: i32) {
  %n = arith.index_cast %len : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %v = tile.view %x sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  %o = tile.view %x sizes [64] strides [1] : !tile.ptr<f32> -> !tile.view<64xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64xf32>) {
    %p = tile.load %v[%i, %c0] : !tile.view<16x64xf32> -> tensor<16x64xf32>
    %s = tile.reduce sum %p dim 0 : tensor<16x64xf32> -> tensor<64xf32>
    %next = arith.addf %s, %acc : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  tile.store %l, %o[%c0] : tensor<64xf32>, !tile.view<64xf32>
  tile.return
}

// -----

// Left alone: a start other than zero, a sum read inside the loop, and a
// max.
// CHECK-LABEL: tile.kernel @kept
// CHECK: scf.for {{.*}} -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK-COUNT-2: tile.reduce sum
// CHECK: tile.reduce max
// CHECK: scf.yield
// CHECK-NOT: tile.reduce
// CHECK: tile.return
tile.kernel @kept(%x: !tile.ptr<f32>, %len: i32) {
  %n = arith.index_cast %len : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %one = arith.constant dense<1.0> : tensor<16xf32>
  %v = tile.view %x sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  %o = tile.view %x sizes [16] strides [1] : !tile.ptr<f32> -> !tile.view<16xf32>
  %r:3 = scf.for %i = %c0 to %n step %c1
      iter_args(%a = %one, %b = %zero, %m = %zero) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
    %p = tile.load %v[%i, %c0] : !tile.view<16x64xf32> -> tensor<16x64xf32>
    %s1 = tile.reduce sum %p dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    %a2 = arith.addf %a, %s1 : tensor<16xf32>
    %s2 = tile.reduce sum %p dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    %b2 = arith.addf %b, %s2 : tensor<16xf32>
    tile.store %b2, %o[%c0] : tensor<16xf32>, !tile.view<16xf32>
    %mx = tile.reduce max %p dim 1 : tensor<16x64xf32> -> tensor<16xf32>
    %m2 = arith.addf %m, %mx : tensor<16xf32>
    scf.yield %a2, %b2, %m2 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  }
  tile.store %r#0, %o[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.store %r#1, %o[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.store %r#2, %o[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.return
}
