// Every fp8 code, and every fp4 pair under a range of E8M0 scales, decoded
// on a chip: fp8 with its conversion instruction, fp4 with the scaled
// conversion where the chip has it.
tile.kernel @fp8_codes(%x: !tile.ptr<f8E4M3FN>, %y: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %xv = tile.view %x sizes [16, 16] strides [16, 1] : !tile.ptr<f8E4M3FN> -> !tile.view<16x16xf8E4M3FN>
  %yv = tile.view %y sizes [16, 16] strides [16, 1] : !tile.ptr<f32> -> !tile.view<16x16xf32>
  %codes = tile.load %xv[%c0, %c0] : !tile.view<16x16xf8E4M3FN> -> tensor<16x16xf8E4M3FN>
  %one = arith.constant 1.0 : f32
  %values = tile.dequant_fp8 %codes, %one : tensor<16x16xf8E4M3FN> -> tensor<16x16xf32>
  tile.store %values, %yv[%c0, %c0] : tensor<16x16xf32>, !tile.view<16x16xf32>
  tile.return
}

tile.kernel @fp4_codes(%p: !tile.ptr<i8>, %s: !tile.ptr<f8E8M0FNU>, %y: !tile.ptr<bf16>) {
  %c0 = arith.constant 0 : index
  %pv = tile.view %p sizes [16, 32] strides [32, 1] : !tile.ptr<i8> -> !tile.view<16x32xi8>
  %sv = tile.view %s sizes [16, 2] strides [2, 1] : !tile.ptr<f8E8M0FNU> -> !tile.view<16x2xf8E8M0FNU>
  %yv = tile.view %y sizes [16, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<16x64xbf16>
  %packed = tile.load %pv[%c0, %c0] : !tile.view<16x32xi8> -> tensor<16x32xi8>
  %scales = tile.load %sv[%c0, %c0] : !tile.view<16x2xf8E8M0FNU> -> tensor<16x2xf8E8M0FNU>
  %values = tile.dequant_mx %packed, %scales : tensor<16x32xi8>, tensor<16x2xf8E8M0FNU> -> tensor<16x64xbf16>
  tile.store %values, %yv[%c0, %c0] : tensor<16x64xbf16>, !tile.view<16x64xbf16>
  tile.return
}
