// High-level ops must be decomposed before the host lowering; the error
// names the op and the target.
// RUN: not mla-opt %s --convert-tile-to-host 2>&1 | FileCheck %s

// CHECK: unsupported.mlir:[[@LINE+4]]:8: error: 'tile.split_reduce' is not supported by the host target; run tile-decompose first
tile.kernel @k() {
  %p = arith.constant dense<1.0> : tensor<2x4x8xf32>
  %l = arith.constant dense<0.0> : tensor<2x4xf32>
  %o = tile.split_reduce %p lse %l : tensor<2x4x8xf32> -> tensor<4x8xf32>
  tile.return
}
