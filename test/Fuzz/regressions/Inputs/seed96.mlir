// difftest program: seed 96, 0 op slots, shape 8x2, skip none
// output error bound: 0.0 (0: bitwise)
tile.kernel @fuzz96(%a0: !tile.ptr<i32>, %n0: i32, %a1: !tile.ptr<i32>, %n1: i32, %a2: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n2: i32) {
  %d1 = arith.index_cast %n0 : i32 to index
  %w2 = tile.view %a0 sizes [%d1, 1] strides [4, 1] : !tile.ptr<i32> -> !tile.view<?x1xi32>
  %r3 = tile.range : tensor<8xi32>
  %c5 = arith.constant 7 : i32
  %s4 = tile.splat %c5 : tensor<8xi32>
  %m6 = arith.cmpi slt, %r3, %s4 : tensor<8xi32>
  %c7 = arith.constant 0 : index
  %t8 = tile.load %w2[%c7, %c7] mask %m6 : tensor<8xi1> pad %c5 : !tile.view<?x1xi32> -> tensor<8x2xi32>
  %d9 = arith.index_cast %n1 : i32 to index
  %w10 = tile.view %a1 sizes [8, %d9] strides [3, 1] : !tile.ptr<i32> -> !tile.view<8x?xi32>
  %t11 = tile.load %w10[%c7, %c7] : !tile.view<8x?xi32> -> tensor<8x2xi32>
  %w12 = tile.view %a2 sizes [7, 4] strides [4, 1] : !tile.ptr<f32> -> !tile.view<7x4xf32>
  %c13 = arith.constant -2.0 : f32
  %c14 = arith.constant 2 : index
  %t15 = tile.load %w12[%c7, %c14] pad %c13 : !tile.view<7x4xf32> -> tensor<8x2xf32>
  %d16 = arith.index_cast %n2 : i32 to index
  %w17 = tile.view %out sizes [%d16, 1] strides [1, 1] : !tile.ptr<f32> -> !tile.view<?x1xf32>
  tile.store %t15, %w17[%c7, %c7] : tensor<8x2xf32>, !tile.view<?x1xf32>
  tile.return
}
