// A product whose B operand (256x512 bf16) would stage 256 KiB in shared
// memory, more than an sm_90 block may have.
tile.kernel @huge(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [16, 256] strides [256, 1] : !tile.ptr<bf16> -> !tile.view<16x256xbf16>
  %bv = tile.view %b sizes [256, 512] strides [512, 1] : !tile.ptr<bf16> -> !tile.view<256x512xbf16>
  %cv = tile.view %c sizes [16, 512] strides [512, 1] : !tile.ptr<f32> -> !tile.view<16x512xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x256xbf16> -> tensor<16x256xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<256x512xbf16> -> tensor<256x512xbf16>
  %zero = arith.constant dense<0.0> : tensor<16x512xf32>
  %d = tile.dot %at, %bt, %zero : tensor<16x256xbf16>, tensor<256x512xbf16> -> tensor<16x512xf32>
  tile.store %d, %cv[%c0, %c0] : tensor<16x512xf32>, !tile.view<16x512xf32>
  tile.return
}
