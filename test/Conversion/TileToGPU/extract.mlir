// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -split-input-file -verify-diagnostics | FileCheck %s

// The sum of a row, which every lane holds after the reduction, becomes a
// scalar: its register, no exchange between lanes. (The plan kernel uses
// such sums as loop bounds and store offsets.)
#blocked = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [1, 1], order = [1, 0]>
// CHECK-LABEL: gpu.func @sum
// CHECK: gpu.shuffle xor
// CHECK: %[[S:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
// CHECK: arith.index_cast %[[S]] : i32 to index
// CHECK-NOT: llvm.mlir.addressof
tile.kernel @sum(%x: !tile.ptr<i32>, %y: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [1, 64] strides [64, 1] : !tile.ptr<i32> -> !tile.view<1x64xi32>
  %t = tile.load %v[%c0, %c0] : !tile.view<1x64xi32> -> tensor<1x64xi32, #blocked>
  %s = tile.reduce sum %t dim 1 : tensor<1x64xi32, #blocked> -> tensor<1xi32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %e = tensor.extract %s[%c0] : tensor<1xi32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %i = arith.index_cast %e : i32 to index
  %w = tile.view %y sizes [%i] strides [1] : !tile.ptr<i32> -> !tile.view<?xi32>
  %z = tile.splat %e : tensor<64xi32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]>>
  tile.store %z, %w[%c0] : tensor<64xi32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]>>, !tile.view<?xi32>
  tile.return
}

// -----

// An element that only one lane holds would need a broadcast: refused,
// with the layout.
#blocked = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]>
tile.kernel @spread(%x: !tile.ptr<i32>, %y: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = tile.view %x sizes [64] strides [1] : !tile.ptr<i32> -> !tile.view<64xi32>
  %t = tile.load %v[%c0] : !tile.view<64xi32> -> tensor<64xi32, #blocked>
  // expected-error @below {{an element must be extracted from a tile every lane holds whole}}
  // expected-error @below {{failed to legalize}}
  %e = tensor.extract %t[%c3] : tensor<64xi32, #blocked>
  %z = tile.splat %e : tensor<64xi32, #blocked>
  tile.store %z, %v[%c0] : tensor<64xi32, #blocked>, !tile.view<64xi32>
  tile.return
}

// -----

// An element chosen at run time: no register can be named statically.
#blocked = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [1, 1], order = [1, 0]>
tile.kernel @dynamic(%x: !tile.ptr<i32>, %y: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %p = tile.program_id x
  %v = tile.view %x sizes [1, 64] strides [64, 1] : !tile.ptr<i32> -> !tile.view<1x64xi32>
  %t = tile.load %v[%c0, %c0] : !tile.view<1x64xi32> -> tensor<1x64xi32, #blocked>
  %s = tile.reduce sum %t dim 1 : tensor<1x64xi32, #blocked> -> tensor<1xi32, #tilegpu.slice<dim = 1, parent = #blocked>>
  // expected-error @below {{on GPU targets the element of a tile must be chosen by constant indices}}
  // expected-error @below {{failed to legalize}}
  %e = tensor.extract %s[%p] : tensor<1xi32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %z = tile.splat %e : tensor<1x64xi32, #blocked>
  tile.store %z, %v[%c0, %c0] : tensor<1x64xi32, #blocked>, !tile.view<1x64xi32>
  tile.return
}
