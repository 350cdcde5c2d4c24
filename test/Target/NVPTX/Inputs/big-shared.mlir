// A product whose B operand (128x256 bf16) is staged in 64 KiB of shared
// memory.
tile.kernel @big(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [16, 128] strides [128, 1] : !tile.ptr<bf16> -> !tile.view<16x128xbf16>
  %bv = tile.view %b sizes [128, 256] strides [256, 1] : !tile.ptr<bf16> -> !tile.view<128x256xbf16>
  %cv = tile.view %c sizes [16, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<16x256xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x128xbf16> -> tensor<16x128xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<128x256xbf16> -> tensor<128x256xbf16>
  %zero = arith.constant dense<0.0> : tensor<16x256xf32>
  %d = tile.dot %at, %bt, %zero : tensor<16x128xbf16>, tensor<128x256xbf16> -> tensor<16x256xf32>
  tile.store %d, %cv[%c0, %c0] : tensor<16x256xf32>, !tile.view<16x256xf32>
  tile.return
}
