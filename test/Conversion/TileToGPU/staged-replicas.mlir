// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -canonicalize -cse | FileCheck %s
// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx942 -canonicalize -cse | FileCheck %s

// A one-row tile in a layout of four waves is held by every wave, but a
// tile that only goes to LDS is written there by the first wave alone: the
// other waves' loads are moved out of the descriptor's range, so only one
// wave reads memory.
// CHECK-LABEL: gpu.func @staged_replicas
// CHECK: %[[WAVE:.*]] = rocdl.readfirstlane
// CHECK: %[[WAVE_I:.*]] = arith.index_cast %[[WAVE]]
// CHECK: %[[DIGIT:.*]] = arith.remui %[[WAVE_I]], %c4
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[DIGIT]], %c0
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult
// CHECK: %[[VALID:.*]] = arith.andi %[[INSIDE]], %[[FIRST]]
// CHECK: %[[OFFSET:.*]] = arith.select %[[VALID]], %{{.*}}, %c1024_i32
// CHECK: rocdl.raw.ptr.buffer.load %{{.*}}, %[[OFFSET]]
// CHECK: scf.if %[[FIRST]]
// CHECK: llvm.store
#rep = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0]>
tile.kernel @staged_replicas(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %in = tile.view %x sizes [1, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<1x256xf32>
  %t = tile.load %in[%c0, %c0] : !tile.view<1x256xf32> -> tensor<1x256xf32, #rep>
  %m = tilegpu.local_alloc %t : tensor<1x256xf32, #rep> -> !tilegpu.memdesc<1x256xf32, #shared>
  %u = tilegpu.local_load %m : !tilegpu.memdesc<1x256xf32, #shared> -> tensor<1x256xf32, #rep>
  %out = tile.view %y sizes [1, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<1x256xf32>
  tile.store %u, %out[%c0, %c0] : tensor<1x256xf32, #rep>, !tile.view<1x256xf32>
  tile.return
}
