// RUN: mla-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @splat_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<4x8xf32>
// CHECK-NOT: tile.splat
// CHECK-NEXT: return %[[C]]
func.func @splat_constant() -> tensor<4x8xf32> {
  %f = arith.constant 2.5 : f32
  %s = tile.splat %f : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @splat_dynamic
// CHECK: tile.splat %arg0 : tensor<4xf32>
func.func @splat_dynamic(%x: f32) -> tensor<4xf32> {
  %s = tile.splat %x : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_splat
// CHECK-NEXT: %[[S:.*]] = tile.splat %arg0 : tensor<16x512xf32>
// CHECK-NEXT: return %[[S]]
func.func @broadcast_of_splat(%x: f32) -> tensor<16x512xf32> {
  %s = tile.splat %x : tensor<16xf32>
  %b = tile.broadcast %s dims [1] : tensor<16xf32> -> tensor<16x512xf32>
  return %b : tensor<16x512xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_broadcast
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %arg0 dims [0, 2] : tensor<16xf32> -> tensor<4x16x8xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast(%x: tensor<16xf32>) -> tensor<4x16x8xf32> {
  %a = tile.broadcast %x dims [1] : tensor<16xf32> -> tensor<16x8xf32>
  %b = tile.broadcast %a dims [0] : tensor<16x8xf32> -> tensor<4x16x8xf32>
  return %b : tensor<4x16x8xf32>
}

// -----

// The inner broadcast's new dim lands between the outer op's new dims.
// CHECK-LABEL: func @broadcast_of_broadcast_interleaved
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %arg0 dims [0, 1, 3] : tensor<8xf32> -> tensor<2x3x8x5xf32>
func.func @broadcast_of_broadcast_interleaved(%x: tensor<8xf32>) -> tensor<2x3x8x5xf32> {
  %a = tile.broadcast %x dims [0] : tensor<8xf32> -> tensor<3x8xf32>
  %b = tile.broadcast %a dims [0, 3] : tensor<3x8xf32> -> tensor<2x3x8x5xf32>
  return %b : tensor<2x3x8x5xf32>
}

// -----

// CHECK-LABEL: func @broadcast_identity
// CHECK-NEXT: return %arg0
func.func @broadcast_identity(%x: tensor<16xf32>) -> tensor<16xf32> {
  %b = tile.broadcast %x dims [] : tensor<16xf32> -> tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// CHECK-LABEL: func @trans_trans
// CHECK-NEXT: return %arg0
func.func @trans_trans(%x: tensor<16x64xbf16>) -> tensor<16x64xbf16> {
  %a = tile.trans %x : tensor<16x64xbf16> -> tensor<64x16xbf16>
  %b = tile.trans %a : tensor<64x16xbf16> -> tensor<16x64xbf16>
  return %b : tensor<16x64xbf16>
}

// -----

// CHECK-LABEL: func @reduce_splat
// CHECK-DAG: %[[MAX:.*]] = arith.constant dense<3.000000e+00> : tensor<16xf32>
// CHECK-DAG: %[[SUM:.*]] = arith.constant dense<1.920000e+02> : tensor<16xf32>
// CHECK-DAG: %[[ISUM:.*]] = arith.constant dense<128> : tensor<16xi32>
// CHECK: return %[[MAX]], %[[SUM]], %[[ISUM]]
func.func @reduce_splat() -> (tensor<16xf32>, tensor<16xf32>, tensor<16xi32>) {
  %x = arith.constant dense<3.0> : tensor<16x64xf32>
  %i = arith.constant dense<2> : tensor<16x64xi32>
  %m = tile.reduce max %x dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  %s = tile.reduce sum %x dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  %n = tile.reduce sum %i dim 1 : tensor<16x64xi32> -> tensor<16xi32>
  return %m, %s, %n : tensor<16xf32>, tensor<16xf32>, tensor<16xi32>
}

// -----

// 0.1 * 3 is not exact in f32: the sum must stay as the program wrote it.
// CHECK-LABEL: func @reduce_splat_inexact
// CHECK: tile.reduce sum
func.func @reduce_splat_inexact() -> tensor<f32> {
  %x = arith.constant dense<0.1> : tensor<3xf32>
  %s = tile.reduce sum %x dim 0 : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
