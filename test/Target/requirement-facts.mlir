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
// A divisibility requirement tells the lowering that a row splits into
// whole vectors: with `n % 4 == 0` and a block starting at a multiple of
// 1024, every 16-byte run of f32 is inside the view or outside it as a
// whole, so each moves as one buffer_load/store_dwordx4 with no
// element-by-element path beside it; without the requirement both stay.
// AMD-LABEL: {{^}}whole_runs:
// AMD-NOT: buffer_load_dword v
// AMD-NOT: buffer_store_dword v
// AMD: buffer_load_dwordx4
// AMD: buffer_store_dwordx4
// AMD: s_endpgm
// AMD-LABEL: {{^}}ragged_runs:
// AMD-DAG: buffer_load_dwordx4
// AMD-DAG: buffer_load_dword v
// AMD-DAG: buffer_store_dword v
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

tile.kernel @whole_runs(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = ["cdiv(n, 1024)", 1, 1], requires = ["n % 4 == 0"]}} {
  %c1024 = arith.constant 1024 : index
  %p = tile.program_id x
  %off = arith.muli %p, %c1024 : index
  %len = arith.index_cast %n : i32 to index
  %xv = tile.view %x sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %yv = tile.view %y sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = tile.load %xv[%off] : !tile.view<?xf32> -> tensor<1024xf32>
  %r = arith.addf %t, %t : tensor<1024xf32>
  tile.store %r, %yv[%off] : tensor<1024xf32>, !tile.view<?xf32>
  tile.return
}

tile.kernel @ragged_runs(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = ["cdiv(n, 1024)", 1, 1]}} {
  %c1024 = arith.constant 1024 : index
  %p = tile.program_id x
  %off = arith.muli %p, %c1024 : index
  %len = arith.index_cast %n : i32 to index
  %xv = tile.view %x sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %yv = tile.view %y sizes [%len] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = tile.load %xv[%off] : !tile.view<?xf32> -> tensor<1024xf32>
  %r = arith.addf %t, %t : tensor<1024xf32>
  tile.store %r, %yv[%off] : tensor<1024xf32>, !tile.view<?xf32>
  tile.return
}
