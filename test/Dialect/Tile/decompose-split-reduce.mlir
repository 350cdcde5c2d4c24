// RUN: mla-opt %s -tile-decompose -split-input-file | FileCheck %s

// CHECK-LABEL: func @lse_form
// CHECK-SAME: (%[[O:.*]]: tensor<4x16x8xf32>, %[[LSE:.*]]: tensor<4x16xf32>)
// CHECK-DAG: %[[ZERO_OUT:.*]] = arith.constant dense<0.000000e+00> : tensor<16x8xf32>
// CHECK-DAG: %[[ZERO_PART:.*]] = arith.constant dense<0.000000e+00> : tensor<4x16x8xf32>
// CHECK-DAG: %[[ZERO_W:.*]] = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
// CHECK-DAG: %[[NINF_W:.*]] = arith.constant dense<0xFF800000> : tensor<4x16xf32>
// CHECK-DAG: %[[ZERO_ROW:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK-DAG: %[[NINF_ROW:.*]] = arith.constant dense<0xFF800000> : tensor<16xf32>
// w_i = exp(lse_i - max lse), 0 for empty splits
// CHECK: %[[MAX:.*]] = tile.reduce max %[[LSE]] dim 0 : tensor<4x16xf32> -> tensor<16xf32>
// CHECK: %[[ALLEMPTY:.*]] = arith.cmpf oeq, %[[MAX]], %[[NINF_ROW]]
// CHECK: %[[REF:.*]] = arith.select %[[ALLEMPTY]], %[[ZERO_ROW]], %[[MAX]]
// CHECK: %[[EMPTY:.*]] = arith.cmpf oeq, %[[LSE]], %[[NINF_W]]
// CHECK: %[[REFB:.*]] = tile.broadcast %[[REF]] dims [0] : tensor<16xf32> -> tensor<4x16xf32>
// CHECK: %[[D:.*]] = arith.subf %[[LSE]], %[[REFB]]
// CHECK: %[[E:.*]] = math.exp %[[D]]
// CHECK: %[[W:.*]] = arith.select %[[EMPTY]], %[[ZERO_W]], %[[E]]
// empty splits are selected away, whatever their partial holds
// CHECK: %[[WB:.*]] = tile.broadcast %[[W]] dims [2]
// CHECK: %[[WO:.*]] = arith.mulf %[[O]], %[[WB]]
// CHECK: %[[EMPTYB:.*]] = tile.broadcast %[[EMPTY]] dims [2] : tensor<4x16xi1> -> tensor<4x16x8xi1>
// CHECK: %[[TERMS:.*]] = arith.select %[[EMPTYB]], %[[ZERO_PART]], %[[WO]]
// CHECK: %[[NUM:.*]] = tile.reduce sum %[[TERMS]] dim 0 : tensor<4x16x8xf32> -> tensor<16x8xf32>
// CHECK: %[[DEN:.*]] = tile.reduce sum %[[W]] dim 0 : tensor<4x16xf32> -> tensor<16xf32>
// CHECK: %[[DENB:.*]] = tile.broadcast %[[DEN]] dims [1]
// CHECK: %[[Q:.*]] = arith.divf %[[NUM]], %[[DENB]]
// an all-empty row is zero
// CHECK: %[[NOMASS:.*]] = arith.cmpf oeq, %[[DEN]], %[[ZERO_ROW]]
// CHECK: %[[NOMASSB:.*]] = tile.broadcast %[[NOMASS]] dims [1]
// CHECK: %[[OUT:.*]] = arith.select %[[NOMASSB]], %[[ZERO_OUT]], %[[Q]]
// CHECK: return %[[OUT]]
func.func @lse_form(%o: tensor<4x16x8xf32>, %lse: tensor<4x16xf32>) -> tensor<16x8xf32> {
  %r = tile.split_reduce %o lse %lse : tensor<4x16x8xf32> -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// The max/sum form weighs the partial sums l_i too.
// CHECK-LABEL: func @state_form
// CHECK-SAME: (%[[ACC:.*]]: tensor<4x16x8xf32>, %[[M:.*]]: tensor<4x16xf32>, %[[L:.*]]: tensor<4x16xf32>)
// CHECK: tile.reduce max %[[M]] dim 0
// CHECK: %[[EMPTY:.*]] = arith.cmpf oeq, %[[M]]
// CHECK: %[[W:.*]] = arith.select %[[EMPTY]]
// CHECK: arith.mulf %[[ACC]]
// CHECK: %[[NUM:.*]] = tile.reduce sum %{{.*}} dim 0 : tensor<4x16x8xf32>
// CHECK: %[[WL:.*]] = arith.mulf %[[W]], %[[L]]
// CHECK: %[[WLSAFE:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[WL]]
// CHECK: %[[DEN:.*]] = tile.reduce sum %[[WLSAFE]] dim 0
// CHECK: arith.divf %[[NUM]]
func.func @state_form(%acc: tensor<4x16x8xf32>, %m: tensor<4x16xf32>, %l: tensor<4x16xf32>)
    -> tensor<16x8xf32> {
  %r = tile.split_reduce %acc max %m sum %l : tensor<4x16x8xf32> -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
