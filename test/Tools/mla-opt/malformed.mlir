// A malformed program gets a located diagnostic and a non-zero exit.
// RUN: not mla-opt %s 2>&1 | FileCheck %s

// CHECK: malformed.mlir:[[@LINE+3]]:21: error: expected ':'
tile.kernel @broken(%x: f32) {
  %c0 = arith.constant 0 : index
  %s = tile.splat %x tensor<4xf32>
  tile.return
}
