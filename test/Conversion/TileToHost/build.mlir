// RUN: mla-opt %s --convert-tile-to-host -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @range
// CHECK: %[[START:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: tensor.generate
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: %[[II:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT: %[[V:.*]] = arith.addi %[[START]], %[[II]] : i32
// CHECK-NEXT: tensor.yield %[[V]] : i32
// CHECK-NEXT: } : tensor<16xi32>
tile.kernel @range(%start: i32) {
  %r = tile.range from %start : tensor<16xi32>
  tile.return
}

// -----

// CHECK-LABEL: func.func @splat_broadcast_trans
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<16xf32>
// CHECK: %[[S:.*]] = linalg.fill ins(%[[X]] : f32) outs(%[[E0]] : tensor<16xf32>) -> tensor<16xf32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<16x8xf32>
// CHECK: %[[B:.*]] = linalg.broadcast ins(%[[S]] : tensor<16xf32>) outs(%[[E1]] : tensor<16x8xf32>) dimensions = [1]
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.transpose ins(%[[B]] : tensor<16x8xf32>) outs(%[[E2]] : tensor<8x16xf32>) permutation = [1, 0]
tile.kernel @splat_broadcast_trans(%x: f32) {
  %s = tile.splat %x : tensor<16xf32>
  %b = tile.broadcast %s dims [1] : tensor<16xf32> -> tensor<16x8xf32>
  %t = tile.trans %b : tensor<16x8xf32> -> tensor<8x16xf32>
  tile.return
}
