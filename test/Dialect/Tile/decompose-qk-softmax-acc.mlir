// RUN: mla-opt %s -tile-decompose -split-input-file | FileCheck %s

// CHECK-LABEL: func @per_key_mask
// CHECK-SAME: (%[[Q:.*]]: tensor<16x64xbf16>, %[[K:.*]]: tensor<32x64xbf16>, %[[V:.*]]: tensor<32x16xbf16>, %[[M:.*]]: tensor<16xf32>, %[[L:.*]]: tensor<16xf32>, %[[ACC:.*]]: tensor<16x16xf32>, %[[S:.*]]: f32, %[[MASK:.*]]: tensor<32xi1>)
// CHECK-DAG: %[[ZERO_ROW:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK-DAG: %[[NINF_ROW:.*]] = arith.constant dense<0xFF800000> : tensor<16xf32>
// CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFF800000> : tensor<16x32xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant dense<1.44269502> : tensor<16x32xf32>
// CHECK-DAG: %[[LOG2E_ROW:.*]] = arith.constant dense<1.44269502> : tensor<16xf32>
// CHECK-DAG: %[[NLOG2E_ROW:.*]] = arith.constant dense<-1.44269502> : tensor<16xf32>
// s = scale * q k^T, masked keys -inf
// CHECK: %[[KT:.*]] = tile.trans %[[K]] : tensor<32x64xbf16> -> tensor<64x32xbf16>
// CHECK: %[[QK:.*]] = tile.dot %[[Q]], %[[KT]], %[[ZERO]]
// CHECK: %[[SS:.*]] = tile.splat %[[S]] : tensor<16x32xf32>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[QK]], %[[SS]]
// CHECK: %[[MASK2:.*]] = tile.broadcast %[[MASK]] dims [0] : tensor<32xi1> -> tensor<16x32xi1>
// CHECK: %[[SCORES:.*]] = arith.select %[[MASK2]], %[[SCALED]], %[[NINF]]
// m' = max(m, rowmax s); a row still at -inf is measured from 0
// CHECK: %[[ROWMAX:.*]] = tile.reduce maxnum %[[SCORES]] dim 1
// CHECK: %[[NEWM:.*]] = arith.maximumf %[[M]], %[[ROWMAX]]
// CHECK: %[[EMPTY:.*]] = arith.cmpf oeq, %[[NEWM]], %[[NINF_ROW]]
// CHECK: %[[REF:.*]] = arith.select %[[EMPTY]], %[[ZERO_ROW]], %[[NEWM]]
// exp(x - ref) is exp2(x * log2(e) + ref * -log2(e)), a multiply-add per
// element where the target fuses them.
// CHECK: %[[SHIFT:.*]] = arith.mulf %[[REF]], %[[NLOG2E_ROW]]
// CHECK: %[[ML:.*]] = arith.mulf %[[M]], %[[LOG2E_ROW]] fastmath<contract>
// CHECK: %[[DM:.*]] = arith.addf %[[ML]], %[[SHIFT]] fastmath<contract>
// CHECK: %[[ALPHA:.*]] = math.exp2 %[[DM]]
// CHECK: %[[SHIFTB:.*]] = tile.broadcast %[[SHIFT]] dims [1]
// CHECK: %[[SL:.*]] = arith.mulf %[[SCORES]], %[[LOG2E]] fastmath<contract>
// CHECK: %[[DS:.*]] = arith.addf %[[SL]], %[[SHIFTB]] fastmath<contract>
// CHECK: %[[P:.*]] = math.exp2 %[[DS]] : tensor<16x32xf32>
// l' = l * alpha + rowsum p
// CHECK: %[[LA:.*]] = arith.mulf %[[L]], %[[ALPHA]]
// CHECK: %[[PSUM:.*]] = tile.reduce sum %[[P]] dim 1
// CHECK: %[[NEWL:.*]] = arith.addf %[[LA]], %[[PSUM]]
// acc' = acc * alpha + bf16(p) v
// CHECK: %[[PB:.*]] = arith.truncf %[[P]] : tensor<16x32xf32> to tensor<16x32xbf16>
// CHECK: %[[AB:.*]] = tile.broadcast %[[ALPHA]] dims [1] : tensor<16xf32> -> tensor<16x16xf32>
// CHECK: %[[ACCA:.*]] = arith.mulf %[[ACC]], %[[AB]]
// CHECK: %[[NEWACC:.*]] = tile.dot %[[PB]], %[[V]], %[[ACCA]]
// CHECK: return %[[NEWM]], %[[NEWL]], %[[NEWACC]]
func.func @per_key_mask(%q: tensor<16x64xbf16>, %k: tensor<32x64xbf16>, %v: tensor<32x16xbf16>,
                        %m: tensor<16xf32>, %l: tensor<16xf32>, %acc: tensor<16x16xf32>,
                        %s: f32, %mask: tensor<32xi1>)
    -> (tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>) {
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc scale %s mask %mask : tensor<32xi1>
      : tensor<16x64xbf16>, tensor<32x64xbf16>, tensor<32x16xbf16> -> tensor<16x16xf32>
  return %r#0, %r#1, %r#2 : tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>
}

// -----

// A per-score mask is used as is; without a mask nothing is selected; an
// f32 v takes p without rounding.
// CHECK-LABEL: func @score_mask_f32
// CHECK-SAME: %[[MASK:[^:]*]]: tensor<4x8xi1>)
// CHECK-NOT: tile.broadcast %[[MASK]]
// CHECK: arith.select %[[MASK]]
// CHECK-NOT: arith.truncf
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x2xf32>
func.func @score_mask_f32(%q: tensor<4x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x2xf32>,
                          %m: tensor<4xf32>, %l: tensor<4xf32>, %acc: tensor<4x2xf32>,
                          %s: f32, %mask: tensor<4x8xi1>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) {
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc scale %s mask %mask : tensor<4x8xi1>
      : tensor<4x16xf32>, tensor<8x16xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>
}

// -----

// q and k of different types meet in f32.
// CHECK-LABEL: func @mixed_types
// CHECK-DAG: %[[QF:.*]] = arith.extf %{{.*}} : tensor<4x16xbf16> to tensor<4x16xf32>
// CHECK-DAG: %[[KF:.*]] = arith.extf %{{.*}} : tensor<8x16xf16> to tensor<8x16xf32>
// CHECK: %[[KT:.*]] = tile.trans %[[KF]]
// CHECK: tile.dot %[[QF]], %[[KT]]
// CHECK-NOT: arith.select %{{.*}} : tensor<4x8xi1>
// CHECK: arith.truncf %{{.*}} : tensor<4x8xf32> to tensor<4x8xf16>
func.func @mixed_types(%q: tensor<4x16xbf16>, %k: tensor<8x16xf16>, %v: tensor<8x2xf16>,
                       %m: tensor<4xf32>, %l: tensor<4xf32>, %acc: tensor<4x2xf32>, %s: f32)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) {
  %r:3 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc scale %s
      : tensor<4x16xbf16>, tensor<8x16xf16>, tensor<8x2xf16> -> tensor<4x2xf32>
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>
}

// -----

// Without v, V is the first Dv = 16 columns of k: one slice of the key
// tile, rounded p times it.
// CHECK-LABEL: func @values_from_keys
// CHECK-SAME: (%[[Q:.*]]: tensor<16x64xbf16>, %[[KV:.*]]: tensor<32x64xbf16>,
// CHECK: %[[KT:.*]] = tile.trans %[[KV]] : tensor<32x64xbf16> -> tensor<64x32xbf16>
// CHECK: tile.dot %[[Q]], %[[KT]]
// CHECK: %[[V:.*]] = tensor.extract_slice %[[KV]][0, 0] [32, 16] [1, 1] : tensor<32x64xbf16> to tensor<32x16xbf16>
// CHECK: %[[PB:.*]] = arith.truncf %{{.*}} : tensor<16x32xf32> to tensor<16x32xbf16>
// CHECK: %[[NEWACC:.*]] = tile.dot %[[PB]], %[[V]], %{{.*}} : tensor<16x32xbf16>, tensor<32x16xbf16> -> tensor<16x16xf32>
// CHECK: return %{{.*}}, %{{.*}}, %[[NEWACC]]
func.func @values_from_keys(%q: tensor<16x64xbf16>, %kv: tensor<32x64xbf16>,
                            %m: tensor<16xf32>, %l: tensor<16xf32>, %acc: tensor<16x16xf32>,
                            %s: f32)
    -> (tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>) {
  %r:3 = tile.qk_softmax_acc %q, %kv, %m, %l, %acc scale %s
      : tensor<16x64xbf16>, tensor<32x64xbf16> -> tensor<16x16xf32>
  return %r#0, %r#1, %r#2 : tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>
}

// -----

// When acc has all of k's columns, V is k itself.
// CHECK-LABEL: func @values_are_keys
// CHECK-SAME: (%[[Q:.*]]: tensor<4x8xf32>, %[[K:.*]]: tensor<8x8xf32>,
// CHECK-NOT: tensor.extract_slice
// CHECK: tile.dot %{{.*}}, %[[K]], %{{.*}} : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return
func.func @values_are_keys(%q: tensor<4x8xf32>, %k: tensor<8x8xf32>,
                           %m: tensor<4xf32>, %l: tensor<4xf32>, %acc: tensor<4x8xf32>, %s: f32)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>) {
  %r:3 = tile.qk_softmax_acc %q, %k, %m, %l, %acc scale %s
      : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>
}
