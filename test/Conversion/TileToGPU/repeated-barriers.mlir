// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 | FileCheck %s --check-prefix=AMD
// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx942 | FileCheck %s --check-prefix=AMD

// A barrier that follows another with no memory access between them (the
// barriers' own fences and waits aside) orders nothing the first did not,
// and goes with its fences and wait; one after a store stays. Each barrier
// first waits for the wave's LDS operations (docs/amdgpu.md, "Barriers").
// AMD: #[[$LDS:.*]] = #llvm.mmra_tag<"amdgpu-synchronize-as":"local">
// AMD-LABEL: gpu.func @barriers
// AMD:      llvm.fence syncscope("wavefront") release {llvm.mmra = #[[$LDS]]}
// AMD-NEXT: amdgpu.memory_counter_wait ds(0)
// AMD-NEXT: rocdl.s.barrier
// AMD-NEXT: llvm.fence syncscope("workgroup") acquire {llvm.mmra = #[[$LDS]]}
// AMD-NOT: llvm.fence
// AMD-NOT: amdgpu.memory_counter_wait
// AMD-NOT: rocdl.s.barrier
// AMD: rocdl.raw.ptr.buffer.store
// AMD-NEXT: llvm.fence syncscope("wavefront") release {llvm.mmra = #[[$LDS]]}
// AMD-NEXT: amdgpu.memory_counter_wait ds(0)
// AMD-NEXT: rocdl.s.barrier
// AMD-NEXT: llvm.fence syncscope("workgroup") acquire {llvm.mmra = #[[$LDS]]}
// AMD-NOT: llvm.fence
// AMD-NOT: amdgpu.memory_counter_wait
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
