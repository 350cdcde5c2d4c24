// RUN: mla-opt %s --tile-to-gpu=chip=gfx950 | FileCheck %s
// RUN: mla-opt %s --tile-to-gpu=chip=sm_90 | FileCheck %s

// A [16, 32] product on 8 waves: the matrix layout has more waves along N
// than the tile has instruction columns, so some waves hold replicas. The
// row and column ids broadcast into it come from slices of that layout,
// whose replicated wave digits must match the ones the slice of the
// [16, 32] map has (regression: "input layout is not a slice of the
// result's").
// CHECK-LABEL: gpu.func @masked_scores
// CHECK-NOT: tile.broadcast
// CHECK: gpu.return
tile.kernel @masked_scores(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1], waves = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [16, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<16x64xbf16>
  %bv = tile.view %b sizes [64, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<64x32xbf16>
  %cv = tile.view %c sizes [16, 32] strides [32, 1] : !tile.ptr<f32> -> !tile.view<16x32xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x64xbf16> -> tensor<16x64xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<64x32xbf16> -> tensor<64x32xbf16>
  %zero = arith.constant dense<0.0> : tensor<16x32xf32>
  %s = tile.dot %at, %bt, %zero : tensor<16x64xbf16>, tensor<64x32xbf16> -> tensor<16x32xf32>
  %rows = tile.range : tensor<16xindex>
  %cols = tile.range : tensor<32xindex>
  %rows_t = tile.broadcast %rows dims [1] : tensor<16xindex> -> tensor<16x32xindex>
  %cols_t = tile.broadcast %cols dims [0] : tensor<32xindex> -> tensor<16x32xindex>
  %visible = arith.cmpi sle, %cols_t, %rows_t : tensor<16x32xindex>
  %ninf = arith.constant dense<0xFF800000> : tensor<16x32xf32>
  %masked = arith.select %visible, %s, %ninf : tensor<16x32xi1>, tensor<16x32xf32>
  tile.store %masked, %cv[%c0, %c0] : tensor<16x32xf32>, !tile.view<16x32xf32>
  tile.return
}
