tile.kernel @absf(%x: !tile.ptr<f32>, %h: !tile.ptr<f16>, %y: !tile.ptr<f32>, %g: !tile.ptr<f16>) {
  %c0 = arith.constant 0 : index
  %xv = tile.view %x sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  %hv = tile.view %h sizes [256] strides [1] : !tile.ptr<f16> -> !tile.view<256xf16>
  %yv = tile.view %y sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  %gv = tile.view %g sizes [256] strides [1] : !tile.ptr<f16> -> !tile.view<256xf16>
  %a = tile.load %xv[%c0] : !tile.view<256xf32> -> tensor<256xf32>
  %b = tile.load %hv[%c0] : !tile.view<256xf16> -> tensor<256xf16>
  %ra = math.absf %a : tensor<256xf32>
  %rb = math.absf %b : tensor<256xf16>
  tile.store %ra, %yv[%c0] : tensor<256xf32>, !tile.view<256xf32>
  tile.store %rb, %gv[%c0] : tensor<256xf16>, !tile.view<256xf16>
  tile.return
}
