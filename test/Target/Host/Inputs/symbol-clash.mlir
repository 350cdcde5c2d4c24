// Not a test: input of errors.test. A kernel named like a C library
// function the host code calls cannot link.
tile.kernel @malloc(%x: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  %t = tile.load %v[%c0] : !tile.view<4xf32> -> tensor<4xf32>
  %e = math.exp %t : tensor<4xf32>
  tile.store %e, %v[%c0] : tensor<4xf32>, !tile.view<4xf32>
  tile.return
}
