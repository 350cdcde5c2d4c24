// RUN: not mla-opt %s 2>&1 | FileCheck %s

// CHECK: undefined-value.mlir:[[@LINE+2]]:28: error: use of undeclared SSA value name
tile.kernel @k(%x: !tile.ptr<f32>) {
  %v = tile.view %x sizes [%n] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  tile.return
}
