// r = C D + A B, A and C the columns [0, 256) and [256, 272) of a, B and D
// the rows [0, 256) and [256, 272) of b (split-k-dot.test). The K
// groups share the sum of their partial results out (Dot.cpp); on gfx942
// @chained's 16 columns are 4 registers a wave for 4 groups, @chained_wide's
// 64 columns (two products of 32 after tilegpu-stage-operands) 8 registers
// for 4 groups, and @chained_8waves' 16 columns 4 registers for 8 groups,
// half of which sum none.
tile.kernel @chained(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %out: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %av = tile.view %a sizes [16, 272] strides [272, 1] : !tile.ptr<bf16> -> !tile.view<16x272xbf16>
  %bv = tile.view %b sizes [272, 16] strides [16, 1] : !tile.ptr<bf16> -> !tile.view<272x16xbf16>
  %ov = tile.view %out sizes [16, 16] strides [16, 1] : !tile.ptr<f32> -> !tile.view<16x16xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x272xbf16> -> tensor<16x256xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<272x16xbf16> -> tensor<256x16xbf16>
  %ct = tile.load %av[%c0, %c256] : !tile.view<16x272xbf16> -> tensor<16x16xbf16>
  %dt = tile.load %bv[%c256, %c0] : !tile.view<272x16xbf16> -> tensor<16x16xbf16>
  %zero = arith.constant 0.0 : f32
  %z = tile.splat %zero : tensor<16x16xf32>
  %s = tile.dot %at, %bt, %z : tensor<16x256xbf16>, tensor<256x16xbf16> -> tensor<16x16xf32>
  %r = tile.dot %ct, %dt, %s : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  tile.store %r, %ov[%c0, %c0] : tensor<16x16xf32>, !tile.view<16x16xf32>
  tile.return
}

tile.kernel @chained_wide(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %out: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %av = tile.view %a sizes [16, 272] strides [272, 1] : !tile.ptr<bf16> -> !tile.view<16x272xbf16>
  %bv = tile.view %b sizes [272, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<272x64xbf16>
  %ov = tile.view %out sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x272xbf16> -> tensor<16x256xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<272x64xbf16> -> tensor<256x64xbf16>
  %ct = tile.load %av[%c0, %c256] : !tile.view<16x272xbf16> -> tensor<16x16xbf16>
  %dt = tile.load %bv[%c256, %c0] : !tile.view<272x64xbf16> -> tensor<16x64xbf16>
  %zero = arith.constant 0.0 : f32
  %z = tile.splat %zero : tensor<16x64xf32>
  %s = tile.dot %at, %bt, %z : tensor<16x256xbf16>, tensor<256x64xbf16> -> tensor<16x64xf32>
  %r = tile.dot %ct, %dt, %s : tensor<16x16xbf16>, tensor<16x64xbf16> -> tensor<16x64xf32>
  tile.store %r, %ov[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}

tile.kernel @chained_8waves(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %out: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1], waves = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %av = tile.view %a sizes [16, 272] strides [272, 1] : !tile.ptr<bf16> -> !tile.view<16x272xbf16>
  %bv = tile.view %b sizes [272, 16] strides [16, 1] : !tile.ptr<bf16> -> !tile.view<272x16xbf16>
  %ov = tile.view %out sizes [16, 16] strides [16, 1] : !tile.ptr<f32> -> !tile.view<16x16xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x272xbf16> -> tensor<16x256xbf16>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<272x16xbf16> -> tensor<256x16xbf16>
  %ct = tile.load %av[%c0, %c256] : !tile.view<16x272xbf16> -> tensor<16x16xbf16>
  %dt = tile.load %bv[%c256, %c0] : !tile.view<272x16xbf16> -> tensor<16x16xbf16>
  %zero = arith.constant 0.0 : f32
  %z = tile.splat %zero : tensor<16x16xf32>
  %s = tile.dot %at, %bt, %z : tensor<16x256xbf16>, tensor<256x16xbf16> -> tensor<16x16xf32>
  %r = tile.dot %ct, %dt, %s : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  tile.store %r, %ov[%c0, %c0] : tensor<16x16xf32>, !tile.view<16x16xf32>
  tile.return
}
