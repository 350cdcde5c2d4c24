// RUN: mla-opt %s -tile-decompose -split-input-file | FileCheck %s
// RUN: mla-opt %s -tile-decompose=keep-scaled-fp4 -split-input-file \
// RUN:   | FileCheck %s --check-prefix=KEEP
//
// keep-scaled-fp4 (gfx950, whose scaled MFMA takes them) keeps only the
// products of two block-scaled fp4 operands over K in steps of 128: K = 64
// decomposes.
// KEEP-LABEL: func @bf16_times_fp4
// KEEP: tile.dequant_mx
// KEEP-NOT: tile.dot_scaled
// KEEP-LABEL: func @mxfp8_times_fp8
// KEEP-NOT: tile.dot_scaled
// KEEP-LABEL: func @fp4_times_fp4
// KEEP: tile.dequant_mx
// KEEP-NOT: tile.dot_scaled
// KEEP-LABEL: func @fp8_times_bf16
// KEEP-NOT: tile.dot_scaled
// KEEP-LABEL: func @fp4_times_fp4_k128
// KEEP-NOT: tile.dequant_mx
// KEEP: tile.dot_scaled

// The rhs is blocked along K (dim 0): dequantize it K-last and turn it back.
// bf16 holds every fp4 value under any E8M0 scale exactly: the product is
// a bf16 one.
// CHECK-LABEL: func @bf16_times_fp4
// CHECK-SAME: (%[[A:.*]]: tensor<16x64xbf16>, %[[B:.*]]: tensor<32x16xi8>, %[[BS:.*]]: tensor<16x2xf8E8M0FNU>, %[[ACC:.*]]: tensor<16x16xf32>)
// CHECK: %[[BT:.*]] = tile.trans %[[B]] : tensor<32x16xi8> -> tensor<16x32xi8>
// CHECK: %[[BD:.*]] = tile.dequant_mx %[[BT]], %[[BS]] : tensor<16x32xi8>, tensor<16x2xf8E8M0FNU> -> tensor<16x64xbf16>
// CHECK: %[[BF:.*]] = tile.trans %[[BD]] : tensor<16x64xbf16> -> tensor<64x16xbf16>
// CHECK: %[[R:.*]] = tile.dot %[[A]], %[[BF]], %[[ACC]] : tensor<16x64xbf16>, tensor<64x16xbf16> -> tensor<16x16xf32>
// CHECK: return %[[R]]
func.func @bf16_times_fp4(%a: tensor<16x64xbf16>, %b: tensor<32x16xi8>,
                          %bs: tensor<16x2xf8E8M0FNU>, %acc: tensor<16x16xf32>)
    -> tensor<16x16xf32> {
  %r = tile.dot_scaled %a, %b scale %bs : tensor<16x2xf8E8M0FNU>, %acc
      : tensor<16x64xbf16>, tensor<32x16xi8> -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// MXFP8 values can fall below bf16's subnormals (2^-9 times 2^-127): the
// product is an f32 one.
// CHECK-LABEL: func @mxfp8_times_fp8
// CHECK-SAME: (%[[A:.*]]: tensor<16x64xf8E4M3FN>, %[[AS:.*]]: tensor<16x2xf8E8M0FNU>, %[[B:.*]]: tensor<64x16xf8E5M2>, %[[ACC:.*]]: tensor<16x16xf32>)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[AD:.*]] = tile.dequant_mx %[[A]], %[[AS]] : tensor<16x64xf8E4M3FN>, tensor<16x2xf8E8M0FNU> -> tensor<16x64xf32>
// CHECK: %[[BD:.*]] = tile.dequant_fp8 %{{.*}}, %[[ONE]] : tensor<16x64xf8E5M2> -> tensor<16x64xf32>
// CHECK: tile.dot %[[AD]], %{{.*}}, %[[ACC]] : tensor<16x64xf32>, tensor<64x16xf32>
func.func @mxfp8_times_fp8(%a: tensor<16x64xf8E4M3FN>, %as: tensor<16x2xf8E8M0FNU>,
                           %b: tensor<64x16xf8E5M2>, %acc: tensor<16x16xf32>)
    -> tensor<16x16xf32> {
  %r = tile.dot_scaled %a scale %as : tensor<16x2xf8E8M0FNU>, %b, %acc
      : tensor<16x64xf8E4M3FN>, tensor<64x16xf8E5M2> -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// Both operands fp4, and fp8 without a block scale: bf16 products.
// CHECK-LABEL: func @fp4_times_fp4
// CHECK: tile.dequant_mx {{.*}} -> tensor<16x64xbf16>
// CHECK: tile.dequant_mx {{.*}} -> tensor<16x64xbf16>
// CHECK: tile.dot {{.*}} : tensor<16x64xbf16>, tensor<64x16xbf16> -> tensor<16x16xf32>
func.func @fp4_times_fp4(%a: tensor<16x32xi8>, %as: tensor<16x2xf8E8M0FNU>,
                         %b: tensor<32x16xi8>, %bs: tensor<16x2xf8E8M0FNU>,
                         %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = tile.dot_scaled %a scale %as : tensor<16x2xf8E8M0FNU>,
      %b scale %bs : tensor<16x2xf8E8M0FNU>, %acc
      : tensor<16x32xi8>, tensor<32x16xi8> -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func @fp8_times_bf16
// CHECK: tile.dequant_fp8 {{.*}} -> tensor<16x64xbf16>
// CHECK: tile.dot {{.*}} : tensor<16x64xbf16>, tensor<64x16xbf16> -> tensor<16x16xf32>
func.func @fp8_times_bf16(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x16xbf16>,
                          %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = tile.dot_scaled %a, %b, %acc
      : tensor<16x64xf8E4M3FN>, tensor<64x16xbf16> -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// CHECK-LABEL: func @fp4_times_fp4_k128
// CHECK: tile.dot {{.*}} : tensor<16x128xbf16>, tensor<128x16xbf16> -> tensor<16x16xf32>
func.func @fp4_times_fp4_k128(%a: tensor<16x64xi8>, %as: tensor<16x4xf8E8M0FNU>,
                              %b: tensor<64x16xi8>, %bs: tensor<16x4xf8E8M0FNU>,
                              %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = tile.dot_scaled %a scale %as : tensor<16x4xf8E8M0FNU>,
      %b scale %bs : tensor<16x4xf8E8M0FNU>, %acc
      : tensor<16x64xi8>, tensor<64x16xi8> -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
