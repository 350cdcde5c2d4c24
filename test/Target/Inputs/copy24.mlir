tile.kernel @copy24(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [24] strides [1] : !tile.ptr<f32> -> !tile.view<24xf32>
  %bv = tile.view %b sizes [24] strides [1] : !tile.ptr<f32> -> !tile.view<24xf32>
  %t = tile.load %av[%c0] : !tile.view<24xf32> -> tensor<24xf32>
  tile.store %t, %bv[%c0] : tensor<24xf32>, !tile.view<24xf32>
  tile.return
}
