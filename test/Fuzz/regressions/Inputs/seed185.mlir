// difftest program: seed 185, 1 op slots, shape 1x1, skip none
// output error bound: 0.18045791257154906 (0: bitwise)
tile.kernel @fuzz185(%a0: !tile.ptr<i32>, %a1: !tile.ptr<f32>, %a2: !tile.ptr<f16>, %out: !tile.ptr<f16>, %n0: i32) {
  %w1 = tile.view %a0 sizes [2, 2] strides [2, 1] : !tile.ptr<i32> -> !tile.view<2x2xi32>
  %r2 = tile.range : tensor<1xi32>
  %c4 = arith.constant 0 : i32
  %s3 = tile.splat %c4 : tensor<1xi32>
  %m5 = arith.cmpi slt, %r2, %s3 : tensor<1xi32>
  %c6 = arith.constant 1 : index
  %t7 = tile.load %w1[%c6, %c6] mask %m5 : tensor<1xi1> : !tile.view<2x2xi32> -> tensor<1x1xi32>
  %w8 = tile.view %a1 sizes [2, 1] strides [1, 1] : !tile.ptr<f32> -> !tile.view<2x1xf32>
  %c9 = arith.constant 1.5 : f32
  %c10 = arith.constant 0 : index
  %t11 = tile.load %w8[%c6, %c10] pad %c9 : !tile.view<2x1xf32> -> tensor<1x1xf32>
  %w12 = tile.view %a2 sizes [1, 2] strides [5, 1] : !tile.ptr<f16> -> !tile.view<1x2xf16>
  %r13 = tile.range : tensor<1xi32>
  %c15 = arith.constant 1 : i32
  %s14 = tile.splat %c15 : tensor<1xi32>
  %m16 = arith.cmpi slt, %r13, %s14 : tensor<1xi32>
  %t17 = tile.load %w12[%c10, %c6] mask %m16 : tensor<1xi1> : !tile.view<1x2xf16> -> tensor<1x1xf16>
  %v18 = math.exp %t17 : tensor<1x1xf16>
  %d19 = arith.index_cast %n0 : i32 to index
  %w20 = tile.view %out sizes [%d19, 1] strides [1, 1] : !tile.ptr<f16> -> !tile.view<?x1xf16>
  %r21 = tile.range : tensor<1xi32>
  %s22 = tile.splat %c15 : tensor<1xi32>
  %m23 = arith.cmpi slt, %r21, %s22 : tensor<1xi32>
  tile.store %v18, %w20[%c10, %c10] mask %m23 : tensor<1xi1> : tensor<1x1xf16>, !tile.view<?x1xf16>
  tile.return
}
