// A product whose left tile starts 8 columns before the K step (a negative
// column in the first step): chunks before the row's start read zero.
tile.kernel @shifted(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k8: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 2 : i64}} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %eighths = arith.index_cast %k8 : i32 to index
  %depth = arith.muli %eighths, %c8 : index
  %av = tile.view %a sizes [64, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<64x?xbf16>
  %bv = tile.view %b sizes [%depth, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64x64xf32>
  %acc = scf.for %kk = %c0 to %depth step %c32 iter_args(%acc_i = %acc0) -> tensor<64x64xf32> {
    %col = arith.subi %kk, %c8 : index
    %at = tile.load %av[%c0, %col] : !tile.view<64x?xbf16> -> tensor<64x32xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// The same product with the right tile starting 8 rows before the K step
// (a negative row in the first step): rows before the view read zero.
tile.kernel @shifted_rows(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k8: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 2 : i64}} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %eighths = arith.index_cast %k8 : i32 to index
  %depth = arith.muli %eighths, %c8 : index
  %av = tile.view %a sizes [64, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<64x?xbf16>
  %bv = tile.view %b sizes [%depth, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64x64xf32>
  %acc = scf.for %kk = %c0 to %depth step %c32 iter_args(%acc_i = %acc0) -> tensor<64x64xf32> {
    %row = arith.subi %kk, %c8 : index
    %at = tile.load %av[%c0, %kk] : !tile.view<64x?xbf16> -> tensor<64x32xbf16>
    %bt = tile.load %bv[%row, %c0] : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}
