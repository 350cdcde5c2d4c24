tile.kernel @copy16x100(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [16, 100] strides [100, 1] : !tile.ptr<f32> -> !tile.view<16x100xf32>
  %bv = tile.view %b sizes [16, 100] strides [100, 1] : !tile.ptr<f32> -> !tile.view<16x100xf32>
  %t = tile.load %av[%c0, %c0] : !tile.view<16x100xf32> -> tensor<16x100xf32>
  tile.store %t, %bv[%c0, %c0] : tensor<16x100xf32>, !tile.view<16x100xf32>
  tile.return
}
