// An op the GPU lowering leaves to the LLVM conversion, which lowers it to
// a libdevice call on NVIDIA.
tile.kernel @tanh(%x: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [128] strides [1] : !tile.ptr<f32> -> !tile.view<128xf32>
  %t = tile.load %v[%c0] : !tile.view<128xf32> -> tensor<128xf32>
  %r = math.tanh %t : tensor<128xf32>
  tile.store %r, %v[%c0] : tensor<128xf32>, !tile.view<128xf32>
  tile.return
}
