// difftest program: seed 12248, 2 op slots, shape 1x1, skip none
// output error bound: 0.0 (0: bitwise)
tile.kernel @fuzz12248(%a0: !tile.ptr<bf16>, %out: !tile.ptr<bf16>) {
  %w1 = tile.view %a0 sizes [1, 2] strides [3, 1] : !tile.ptr<bf16> -> !tile.view<1x2xbf16>
  %r2 = tile.range : tensor<1xi32>
  %c4 = arith.constant 0 : i32
  %s3 = tile.splat %c4 : tensor<1xi32>
  %m5 = arith.cmpi slt, %r2, %s3 : tensor<1xi32>
  %c6 = arith.constant 0 : index
  %c7 = arith.constant 1 : index
  %t8 = tile.load %w1[%c6, %c7] mask %m5 : tensor<1xi1> : !tile.view<1x2xbf16> -> tensor<1x1xbf16>
  %v9 = arith.negf %t8 : tensor<1x1xbf16>
  %c11 = arith.constant 0.0 : bf16
  %s10 = tile.splat %c11 : tensor<1x1xbf16>
  %v12 = arith.minimumf %v9, %s10 : tensor<1x1xbf16>
  %w13 = tile.view %out sizes [1, 2] strides [3, 1] : !tile.ptr<bf16> -> !tile.view<1x2xbf16>
  tile.store %v12, %w13[%c6, %c7] : tensor<1x1xbf16>, !tile.view<1x2xbf16>
  tile.return
}
