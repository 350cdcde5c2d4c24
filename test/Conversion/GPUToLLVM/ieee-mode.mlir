// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 --convert-gpu-kernels-to-llvm=chip=gfx950 | FileCheck %s --check-prefix=AMD

// AMD kernels declare the mode register's IEEE bit clear, so that the
// backend needs no quieting instruction before a NaN-ignoring max and can
// fold the DPP move into it.
// AMD: llvm.func @maxnum(
// AMD-SAME: passthrough = {{\[\[}}"amdgpu-ieee", "false"]]
// AMD-SAME: rocdl.kernel
// AMD: rocdl.update.dpp %{{.*}}, %{{.*}} with 177, 15, 15, true : f32
// AMD-NEXT: llvm.intr.maxnum
#blocked = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]>
tile.kernel @maxnum(%x: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [4, 256] strides [256, 1] : !tile.ptr<f32> -> !tile.view<4x256xf32>
  %t = tile.load %v[%c0, %c0] : !tile.view<4x256xf32> -> tensor<4x256xf32, #blocked>
  %m = tile.reduce maxnum %t dim 1 : tensor<4x256xf32, #blocked> -> tensor<4xf32, #tilegpu.slice<dim = 1, parent = #blocked>>
  %b = tile.broadcast %m dims [1] : tensor<4xf32, #tilegpu.slice<dim = 1, parent = #blocked>> -> tensor<4x256xf32, #blocked>
  tile.store %b, %v[%c0, %c0] : tensor<4x256xf32, #blocked>, !tile.view<4x256xf32>
  tile.return
}
