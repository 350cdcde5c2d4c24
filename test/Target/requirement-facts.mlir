// A kernel's launch requirements are facts inside it (tile-assume-
// requirements): with `n >= 256` LLVM knows that every element of a
// 256-element tile at offset 0 is inside the view of n elements, so the
// bounds checks of the load and the store fold away on gfx950; the same
// kernel without the requirement keeps them.
//
// RUN: mla-compile %s --target=gfx950 --emit=asm -o - | FileCheck %s --check-prefix=AMD
// AMD-LABEL: {{^}}known:
// AMD-NOT: v_cmp
// AMD: s_endpgm
// AMD-LABEL: {{^}}unknown:
// AMD: v_cmp_gt_u32
// AMD: s_endpgm
//
// The NVIDIA lowering gets the fact too: no element index is compared with
// n (%2) once LLVM has used it.
// RUN: mla-compile %s --target=sm_90 --emit=llvm -o - | FileCheck %s --check-prefix=NVPTX
// NVPTX-LABEL: define {{.*}} @known(
// NVPTX-NOT: icmp {{.*}}, %2
// NVPTX: ret void
// NVPTX-LABEL: define {{.*}} @unknown(
// NVPTX: icmp ult i32 %{{[0-9]+}}, %2
// NVPTX: ret void

tile.kernel @known(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1], requires = ["n >= 256"]}} {
  %c0 = arith.constant 0 : index
  %len = arith.index_cast %n : i32 to index
  %xv = tile.view %x sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %yv = tile.view %y sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = tile.load %xv[%c0] : !tile.view<?xf32> -> tensor<256xf32>
  %r = arith.addf %t, %t : tensor<256xf32>
  tile.store %r, %yv[%c0] : tensor<256xf32>, !tile.view<?xf32>
  tile.return
}

tile.kernel @unknown(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %len = arith.index_cast %n : i32 to index
  %xv = tile.view %x sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %yv = tile.view %y sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = tile.load %xv[%c0] : !tile.view<?xf32> -> tensor<256xf32>
  %r = arith.addf %t, %t : tensor<256xf32>
  tile.store %r, %yv[%c0] : tensor<256xf32>, !tile.view<?xf32>
  tile.return
}
