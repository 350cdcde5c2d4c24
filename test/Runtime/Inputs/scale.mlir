// The kernel of the generic-mode tests of mla-run: y = alpha * x over n
// elements, 64 per program (the grid rule), with a bf16 and an f32 buffer and
// an i64 and an f32 scalar.
tile.kernel @scale(%x: !tile.ptr<bf16>, %y: !tile.ptr<f32>, %n: i64, %alpha: f32)
    attributes {tile.launch = {grid = ["cdiv(n, 64)", 1, 1]}} {
  %c64 = arith.constant 64 : index
  %len = arith.index_cast %n : i64 to index
  %block = tile.program_id x
  %start = arith.muli %block, %c64 : index
  %xv = tile.view %x sizes [%len] strides [1] : !tile.ptr<bf16> -> !tile.view<?xbf16>
  %yv = tile.view %y sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = tile.load %xv[%start] : !tile.view<?xbf16> -> tensor<64xbf16>
  %w = arith.extf %t : tensor<64xbf16> to tensor<64xf32>
  %a = tile.splat %alpha : tensor<64xf32>
  %r = arith.mulf %w, %a : tensor<64xf32>
  tile.store %r, %yv[%start] : tensor<64xf32>, !tile.view<?xf32>
  tile.return
}
