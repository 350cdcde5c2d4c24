tile.kernel @roots(%x: !tile.ptr<f32>, %s: !tile.ptr<f32>, %r: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %xv = tile.view %x sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  %sv = tile.view %s sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  %rv = tile.view %r sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  %a = tile.load %xv[%c0] : !tile.view<256xf32> -> tensor<256xf32>
  %root = math.sqrt %a : tensor<256xf32>
  %inverse = math.rsqrt %a : tensor<256xf32>
  tile.store %root, %sv[%c0] : tensor<256xf32>, !tile.view<256xf32>
  tile.store %inverse, %rv[%c0] : tensor<256xf32>, !tile.view<256xf32>
  tile.return
}
