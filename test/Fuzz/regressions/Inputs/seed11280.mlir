// difftest program: seed 11280, 2 op slots, shape 2x4, skip none
// output error bound: 0.0 (0: bitwise)
tile.kernel @fuzz11280(%a0: !tile.ptr<bf16>, %a1: !tile.ptr<bf16>, %out: !tile.ptr<bf16>, %n0: i32) {
  %w1 = tile.view %a0 sizes [1, 4] strides [4, 1] : !tile.ptr<bf16> -> !tile.view<1x4xbf16>
  %c2 = arith.constant 0 : index
  %t3 = tile.load %w1[%c2, %c2] : !tile.view<1x4xbf16> -> tensor<2x4xbf16>
  %w4 = tile.view %a1 sizes [2, 7] strides [7, 1] : !tile.ptr<bf16> -> !tile.view<2x7xbf16>
  %r5 = tile.range : tensor<2xi32>
  %c7 = arith.constant 1 : i32
  %s6 = tile.splat %c7 : tensor<2xi32>
  %m8 = arith.cmpi slt, %r5, %s6 : tensor<2xi32>
  %c9 = arith.constant 3 : index
  %t10 = tile.load %w4[%c2, %c9] mask %m8 : tensor<2xi1> : !tile.view<2x7xbf16> -> tensor<2x4xbf16>
  %v11 = arith.negf %t10 : tensor<2x4xbf16>
  %c12 = arith.constant 1 : index
  %l13 = scf.for %i14 = %c2 to %c12 step %c12 iter_args(%acc15 = %t3) -> (tensor<2x4xbf16>) {
    %n16 = arith.maximumf %acc15, %v11 : tensor<2x4xbf16>
    scf.yield %n16 : tensor<2x4xbf16>
  }
  %d17 = arith.index_cast %n0 : i32 to index
  %w18 = tile.view %out sizes [2, %d17] strides [5, 1] : !tile.ptr<bf16> -> !tile.view<2x?xbf16>
  tile.store %l13, %w18[%c2, %c12] : tensor<2x4xbf16>, !tile.view<2x?xbf16>
  tile.return
}
