// A verifier error is reported once, with its location, and mla-opt exits
// non-zero without printing IR.
// RUN: not mla-opt %s > %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: count 0 < %t.out

// CHECK: verifier-exit.mlir:[[@LINE+3]]:8: error: 'tile.trans' op transposes 2-D tiles
tile.kernel @k(%x: f32) {
  %s = tile.splat %x : tensor<4xf32>
  %t = tile.trans %s : tensor<4xf32> -> tensor<4xf32>
  tile.return
}
