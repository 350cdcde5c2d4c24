// A product whose operands are exchanged through 64 KiB of shared memory.
tile.kernel @big(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [256, 128] strides [128, 1] : !tile.ptr<bf16> -> !tile.view<256x128xbf16>
  %bv = tile.view %b sizes [128, 16] strides [16, 1] : !tile.ptr<bf16> -> !tile.view<128x16xbf16>
  %cv = tile.view %c sizes [256, 16] strides [16, 1] : !tile.ptr<f32> -> !tile.view<256x16xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<256x128xbf16> -> tensor<256x128xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<128x16xbf16> -> tensor<128x16xbf16>
  %zero = arith.constant dense<0.0> : tensor<256x16xf32>
  %d = tile.dot %at, %bt, %zero : tensor<256x128xbf16>, tensor<128x16xbf16> -> tensor<256x16xf32>
  tile.store %d, %cv[%c0, %c0] : tensor<256x16xf32>, !tile.view<256x16xf32>
  tile.return
}
