// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 | FileCheck %s --check-prefix=AMD
// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx942 | FileCheck %s --check-prefix=AMD

// A barrier that follows another with no memory access between them (its
// fences aside) orders nothing the first did not, and goes; one after a
// store stays.
// AMD-LABEL: gpu.func @barriers
// AMD: rocdl.s.barrier
// AMD-NOT: rocdl.s.barrier
// AMD: rocdl.raw.ptr.buffer.store
// AMD: rocdl.s.barrier
// AMD-NOT: rocdl.s.barrier
// AMD: gpu.return
#blocked = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]>
tile.kernel @barriers(%y: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  tilegpu.barrier
  tilegpu.barrier
  %v = tile.view %y sizes [256] strides [1] : !tile.ptr<f32> -> !tile.view<256xf32>
  %t = arith.constant dense<1.0> : tensor<256xf32, #blocked>
  tile.store %t, %v[%c0] : tensor<256xf32, #blocked>, !tile.view<256xf32>
  tilegpu.barrier
  tilegpu.barrier
  tile.return
}
