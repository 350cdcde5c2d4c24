// A kernel whose grid is free: y = 2 * x over n f32 elements in blocks of
// 64, program p doing blocks p, p + P, p + 2P, ... of P programs, so any
// grid covers every block. The rule, one program per block, is the default.
tile.kernel @twice(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = ["cdiv(n, 64)", 1, 1], free_grid = true}} {
  %c64 = arith.constant 64 : index
  %len = arith.index_cast %n : i32 to index
  %program = tile.program_id x
  %programs = tile.num_programs x
  %start = arith.muli %program, %c64 : index
  %step = arith.muli %programs, %c64 : index
  %xv = tile.view %x sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %yv = tile.view %y sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  scf.for %i = %start to %len step %step {
    %t = tile.load %xv[%i] : !tile.view<?xf32> -> tensor<64xf32>
    %r = arith.addf %t, %t : tensor<64xf32>
    tile.store %r, %yv[%i] : tensor<64xf32>, !tile.view<?xf32>
  }
  tile.return
}
