// RUN: mla-opt %s --convert-tile-to-host -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dot
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%{{.*}} : tensor<16x32xf32>) -> tensor<16x32xf32>
tile.kernel @dot(%x: f32) {
  %a = arith.constant dense<1.0> : tensor<16x64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x32xbf16>
  %c = tile.splat %x : tensor<16x32xf32>
  %d = tile.dot %a, %b, %c : tensor<16x64xbf16>, tensor<64x32xbf16> -> tensor<16x32xf32>
  tile.return
}

// -----

// fp8 operands are decoded to f32 first: the host has no fp8 arithmetic.
// CHECK-LABEL: func.func @dot_fp8
// CHECK: %[[A:.*]] = tensor.generate
// CHECK: arith.bitcast %{{.*}} : f8E5M2 to i8
// CHECK: } : tensor<16x32xf32>
// CHECK: %[[B:.*]] = tensor.generate
// CHECK: } : tensor<32x8xf32>
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<16x32xf32>, tensor<32x8xf32>)
tile.kernel @dot_fp8(%x: f32) {
  %a = arith.constant dense<1.0> : tensor<16x32xf8E5M2>
  %b = arith.constant dense<1.0> : tensor<32x8xf8E5M2>
  %c = tile.splat %x : tensor<16x8xf32>
  %d = tile.dot %a, %b, %c : tensor<16x32xf8E5M2>, tensor<32x8xf8E5M2> -> tensor<16x8xf32>
  tile.return
}

// -----

// CHECK-LABEL: func.func @reduce
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NINF]] : f32)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<16x64xf32>) outs(%[[INIT]] : tensor<16xf32>) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT2:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<16x64xf32>) outs(%[[INIT2]] : tensor<64xf32>) dimensions = [0]
// CHECK: arith.addf
// CHECK: %[[IMAX:.*]] = arith.constant 2147483647 : i32
// CHECK: %[[INIT3:.*]] = linalg.fill ins(%[[IMAX]] : i32)
// CHECK: linalg.reduce
// CHECK: arith.minsi
tile.kernel @reduce(%x: f32, %i: i32) {
  %s = tile.splat %x : tensor<16x64xf32>
  %si = tile.splat %i : tensor<8xi32>
  %m = tile.reduce max %s dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  %t = tile.reduce sum %s dim 0 : tensor<16x64xf32> -> tensor<64xf32>
  %n = tile.reduce min %si dim 0 : tensor<8xi32> -> tensor<i32>
  tile.return
}

// -----

// The NaN-ignoring kinds start from NaN, which every number replaces; on
// integers they are the signed max and min.
// CHECK-LABEL: func.func @reduce_num
// CHECK: %[[NAN:.*]] = arith.constant 0xFFC00000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NAN]] : f32)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<16x64xf32>) outs(%[[INIT]] : tensor<16xf32>) dimensions = [1]
// CHECK: arith.maxnumf
// CHECK: linalg.reduce
// CHECK: arith.minnumf
// CHECK: linalg.reduce
// CHECK: arith.maxsi
tile.kernel @reduce_num(%x: f32, %i: i32) {
  %s = tile.splat %x : tensor<16x64xf32>
  %si = tile.splat %i : tensor<8xi32>
  %m = tile.reduce maxnum %s dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  %n = tile.reduce minnum %s dim 0 : tensor<16x64xf32> -> tensor<64xf32>
  %k = tile.reduce maxnum %si dim 0 : tensor<8xi32> -> tensor<i32>
  tile.return
}
