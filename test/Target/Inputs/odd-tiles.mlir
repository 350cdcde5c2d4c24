// Tiles whose dimensions the lanes and warps do not divide (odd-tile-shapes.test).

tile.kernel @scale24(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %xv = tile.view %x sizes [24] strides [1] : !tile.ptr<f32> -> !tile.view<24xf32>
  %yv = tile.view %y sizes [24] strides [1] : !tile.ptr<f32> -> !tile.view<24xf32>
  %t = tile.load %xv[%c0] : !tile.view<24xf32> -> tensor<24xf32>
  %s = tile.splat %two : tensor<24xf32>
  %u = arith.mulf %t, %s : tensor<24xf32>
  tile.store %u, %yv[%c0] : tensor<24xf32>, !tile.view<24xf32>
  tile.return
}

tile.kernel @scale100(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %xv = tile.view %x sizes [100] strides [1] : !tile.ptr<f32> -> !tile.view<100xf32>
  %yv = tile.view %y sizes [100] strides [1] : !tile.ptr<f32> -> !tile.view<100xf32>
  %t = tile.load %xv[%c0] : !tile.view<100xf32> -> tensor<100xf32>
  %s = tile.splat %two : tensor<100xf32>
  %u = arith.mulf %t, %s : tensor<100xf32>
  tile.store %u, %yv[%c0] : tensor<100xf32>, !tile.view<100xf32>
  tile.return
}

tile.kernel @scale7(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %xv = tile.view %x sizes [7] strides [1] : !tile.ptr<f32> -> !tile.view<7xf32>
  %yv = tile.view %y sizes [7] strides [1] : !tile.ptr<f32> -> !tile.view<7xf32>
  %t = tile.load %xv[%c0] : !tile.view<7xf32> -> tensor<7xf32>
  %s = tile.splat %two : tensor<7xf32>
  %u = arith.mulf %t, %s : tensor<7xf32>
  tile.store %u, %yv[%c0] : tensor<7xf32>, !tile.view<7xf32>
  tile.return
}

tile.kernel @scale1000(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %xv = tile.view %x sizes [1000] strides [1] : !tile.ptr<f32> -> !tile.view<1000xf32>
  %yv = tile.view %y sizes [1000] strides [1] : !tile.ptr<f32> -> !tile.view<1000xf32>
  %t = tile.load %xv[%c0] : !tile.view<1000xf32> -> tensor<1000xf32>
  %s = tile.splat %two : tensor<1000xf32>
  %u = arith.mulf %t, %s : tensor<1000xf32>
  tile.store %u, %yv[%c0] : tensor<1000xf32>, !tile.view<1000xf32>
  tile.return
}

// Row softmax of bf16 values, in f32: reductions over the odd columns.
tile.kernel @softmax3x5(%x: !tile.ptr<bf16>, %y: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %xv = tile.view %x sizes [3, 5] strides [5, 1] : !tile.ptr<bf16> -> !tile.view<3x5xbf16>
  %yv = tile.view %y sizes [3, 5] strides [5, 1] : !tile.ptr<f32> -> !tile.view<3x5xf32>
  %b = tile.load %xv[%c0, %c0] : !tile.view<3x5xbf16> -> tensor<3x5xbf16>
  %t = arith.extf %b : tensor<3x5xbf16> to tensor<3x5xf32>
  %max = tile.reduce max %t dim 1 : tensor<3x5xf32> -> tensor<3xf32>
  %max_b = tile.broadcast %max dims [1] : tensor<3xf32> -> tensor<3x5xf32>
  %shifted = arith.subf %t, %max_b : tensor<3x5xf32>
  %e = math.exp %shifted : tensor<3x5xf32>
  %sum = tile.reduce sum %e dim 1 : tensor<3x5xf32> -> tensor<3xf32>
  %sum_b = tile.broadcast %sum dims [1] : tensor<3xf32> -> tensor<3x5xf32>
  %p = arith.divf %e, %sum_b : tensor<3x5xf32>
  tile.store %p, %yv[%c0, %c0] : tensor<3x5xf32>, !tile.view<3x5xf32>
  tile.return
}

// Row softmax of bf16 values, in f32: reductions over the odd columns.
tile.kernel @softmax48x80(%x: !tile.ptr<bf16>, %y: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %xv = tile.view %x sizes [48, 80] strides [80, 1] : !tile.ptr<bf16> -> !tile.view<48x80xbf16>
  %yv = tile.view %y sizes [48, 80] strides [80, 1] : !tile.ptr<f32> -> !tile.view<48x80xf32>
  %b = tile.load %xv[%c0, %c0] : !tile.view<48x80xbf16> -> tensor<48x80xbf16>
  %t = arith.extf %b : tensor<48x80xbf16> to tensor<48x80xf32>
  %max = tile.reduce max %t dim 1 : tensor<48x80xf32> -> tensor<48xf32>
  %max_b = tile.broadcast %max dims [1] : tensor<48xf32> -> tensor<48x80xf32>
  %shifted = arith.subf %t, %max_b : tensor<48x80xf32>
  %e = math.exp %shifted : tensor<48x80xf32>
  %sum = tile.reduce sum %e dim 1 : tensor<48x80xf32> -> tensor<48xf32>
  %sum_b = tile.broadcast %sum dims [1] : tensor<48xf32> -> tensor<48x80xf32>
  %p = arith.divf %e, %sum_b : tensor<48x80xf32>
  tile.store %p, %yv[%c0, %c0] : tensor<48x80xf32>, !tile.view<48x80xf32>
  tile.return
}

// A 48x32 by 32x48 product: 3 instruction rows and columns, which 4 warps
// do not divide; they hold copies of the whole result.
tile.kernel @dot48(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [48, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<48x32xbf16>
  %bv = tile.view %b sizes [32, 48] strides [48, 1] : !tile.ptr<bf16> -> !tile.view<32x48xbf16>
  %cv = tile.view %c sizes [48, 48] strides [48, 1] : !tile.ptr<f32> -> !tile.view<48x48xf32>
  %x = tile.load %av[%c0, %c0] : !tile.view<48x32xbf16> -> tensor<48x32xbf16>
  %y = tile.load %bv[%c0, %c0] : !tile.view<32x48xbf16> -> tensor<32x48xbf16>
  %z = arith.constant 0.0 : f32
  %acc = tile.splat %z : tensor<48x48xf32>
  %d = tile.dot %x, %y, %acc : tensor<48x32xbf16>, tensor<32x48xbf16> -> tensor<48x48xf32>
  tile.store %d, %cv[%c0, %c0] : tensor<48x48xf32>, !tile.view<48x48xf32>
  tile.return
}
