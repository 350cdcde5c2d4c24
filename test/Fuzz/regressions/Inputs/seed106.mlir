// difftest program: seed 106, 4 op slots, shape 16x16, skip 0,1,2
// output error bound: 0.00013375282287597656 (0: bitwise)
tile.kernel @fuzz106(%a0: !tile.ptr<i32>, %a1: !tile.ptr<i32>, %a2: !tile.ptr<f32>, %n0: i32, %a3: !tile.ptr<bf16>, %a4: !tile.ptr<bf16>, %out: !tile.ptr<f32>, %n1: i32, %n2: i32) {
  %w1 = tile.view %a0 sizes [15, 16] strides [16, 1] : !tile.ptr<i32> -> !tile.view<15x16xi32>
  %c2 = arith.constant 7 : i32
  %c3 = arith.constant 0 : index
  %t4 = tile.load %w1[%c3, %c3] pad %c2 : !tile.view<15x16xi32> -> tensor<16x16xi32>
  %w5 = tile.view %a1 sizes [17, 16] strides [16, 1] : !tile.ptr<i32> -> !tile.view<17x16xi32>
  %r6 = tile.range : tensor<16xi32>
  %c8 = arith.constant 12 : i32
  %s7 = tile.splat %c8 : tensor<16xi32>
  %m9 = arith.cmpi slt, %r6, %s7 : tensor<16xi32>
  %c10 = arith.constant 1 : index
  %t11 = tile.load %w5[%c10, %c10] mask %m9 : tensor<16xi1> : !tile.view<17x16xi32> -> tensor<16x16xi32>
  %d12 = arith.index_cast %n0 : i32 to index
  %w13 = tile.view %a2 sizes [18, %d12] strides [18, 1] : !tile.ptr<f32> -> !tile.view<18x?xf32>
  %r14 = tile.range : tensor<16xi32>
  %c16 = arith.constant 0 : i32
  %s15 = tile.splat %c16 : tensor<16xi32>
  %m17 = arith.cmpi slt, %r14, %s15 : tensor<16xi32>
  %c18 = arith.constant -2.0 : f32
  %c19 = arith.constant 3 : index
  %t20 = tile.load %w13[%c19, %c10] mask %m17 : tensor<16xi1> pad %c18 : !tile.view<18x?xf32> -> tensor<16x16xf32>
  %w21 = tile.view %a3 sizes [11, 16] strides [19, 1] : !tile.ptr<bf16> -> !tile.view<11x16xbf16>
  %t22 = tile.load %w21[%c19, %c3] : !tile.view<11x16xbf16> -> tensor<16x16xbf16>
  %w23 = tile.view %a4 sizes [17, 16] strides [16, 1] : !tile.ptr<bf16> -> !tile.view<17x16xbf16>
  %t24 = tile.load %w23[%c10, %c3] : !tile.view<17x16xbf16> -> tensor<16x16xbf16>
  %v25 = tile.dot %t22, %t24, %t20 : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  %d26 = arith.index_cast %n1 : i32 to index
  %d27 = arith.index_cast %n2 : i32 to index
  %w28 = tile.view %out sizes [%d26, %d27] strides [11, 1] : !tile.ptr<f32> -> !tile.view<?x?xf32>
  %r29 = tile.range : tensor<16xi32>
  %c31 = arith.constant 16 : i32
  %s30 = tile.splat %c31 : tensor<16xi32>
  %m32 = arith.cmpi slt, %r29, %s30 : tensor<16xi32>
  tile.store %v25, %w28[%c3, %c19] mask %m32 : tensor<16xi1> : tensor<16x16xf32>, !tile.view<?x?xf32>
  tile.return
}
