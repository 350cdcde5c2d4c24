// difftest program: seed 10153, 1 op slots, shape 64x64, skip none
// output error bound: 0.0019991397857666016 (0: bitwise)
tile.kernel @fuzz10153(%a0: !tile.ptr<bf16>, %n0: i32, %a1: !tile.ptr<bf16>, %n1: i32, %a2: !tile.ptr<f32>, %n2: i32, %a3: !tile.ptr<f16>, %n3: i32, %a4: !tile.ptr<f16>, %out: !tile.ptr<f32>, %n4: i32) {
  %d1 = arith.index_cast %n0 : i32 to index
  %w2 = tile.view %a0 sizes [%d1, 65] strides [66, 1] : !tile.ptr<bf16> -> !tile.view<?x65xbf16>
  %c3 = arith.constant 0 : index
  %c4 = arith.constant 1 : index
  %t5 = tile.load %w2[%c3, %c4] : !tile.view<?x65xbf16> -> tensor<64x64xbf16>
  %d6 = arith.index_cast %n1 : i32 to index
  %w7 = tile.view %a1 sizes [%d6, 32] strides [35, 1] : !tile.ptr<bf16> -> !tile.view<?x32xbf16>
  %t8 = tile.load %w7[%c3, %c3] : !tile.view<?x32xbf16> -> tensor<64x64xbf16>
  %d9 = arith.index_cast %n2 : i32 to index
  %w10 = tile.view %a2 sizes [%d9, 63] strides [63, 1] : !tile.ptr<f32> -> !tile.view<?x63xf32>
  %r11 = tile.range : tensor<64xi32>
  %c13 = arith.constant 20 : i32
  %s12 = tile.splat %c13 : tensor<64xi32>
  %m14 = arith.cmpi slt, %r11, %s12 : tensor<64xi32>
  %c15 = arith.constant 1.5 : f32
  %t16 = tile.load %w10[%c4, %c3] mask %m14 : tensor<64xi1> pad %c15 : !tile.view<?x63xf32> -> tensor<64x64xf32>
  %d17 = arith.index_cast %n3 : i32 to index
  %w18 = tile.view %a3 sizes [65, %d17] strides [64, 1] : !tile.ptr<f16> -> !tile.view<65x?xf16>
  %r19 = tile.range : tensor<64xi32>
  %c21 = arith.constant 23 : i32
  %s20 = tile.splat %c21 : tensor<64xi32>
  %m22 = arith.cmpi slt, %r19, %s20 : tensor<64xi32>
  %t23 = tile.load %w18[%c4, %c3] mask %m22 : tensor<64xi1> : !tile.view<65x?xf16> -> tensor<64x64xf16>
  %w24 = tile.view %a4 sizes [64, 64] strides [64, 1] : !tile.ptr<f16> -> !tile.view<64x64xf16>
  %r25 = tile.range : tensor<64xi32>
  %c27 = arith.constant 40 : i32
  %s26 = tile.splat %c27 : tensor<64xi32>
  %m28 = arith.cmpi slt, %r25, %s26 : tensor<64xi32>
  %t29 = tile.load %w24[%c3, %c3] mask %m28 : tensor<64xi1> : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %v30 = tile.dot %t23, %t29, %t16 : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  %d31 = arith.index_cast %n4 : i32 to index
  %w32 = tile.view %out sizes [64, %d31] strides [68, 1] : !tile.ptr<f32> -> !tile.view<64x?xf32>
  %r33 = tile.range : tensor<64xi32>
  %c35 = arith.constant 59 : i32
  %s34 = tile.splat %c35 : tensor<64xi32>
  %m36 = arith.cmpi slt, %r33, %s34 : tensor<64xi32>
  %c37 = arith.constant 3 : index
  tile.store %v30, %w32[%c3, %c37] mask %m36 : tensor<64xi1> : tensor<64x64xf32>, !tile.view<64x?xf32>
  tile.return
}
