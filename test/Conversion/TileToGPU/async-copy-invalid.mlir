// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -split-input-file -verify-diagnostics
// RUN: not mla-opt %s --convert-tile-to-gpu=chip=sm_90 -split-input-file 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SM90

// A wait that would leave more copies in flight than precede it in its
// block is refused; in a loop body, than precede it there and in the
// previous iteration or before the loop.
tile.kernel @wait(%x: !tile.ptr<bf16>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  // expected-error @below {{leaves 1 copies in flight but fewer precede it}}
  // expected-error @below {{failed to legalize}}
  tilegpu.async_wait {pending = 1}
  tile.return
}

// -----

tile.kernel @loop_wait(%x: !tile.ptr<bf16>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @below {{leaves 2 copies in flight but fewer precede it}}
    // expected-error @below {{failed to legalize}}
    tilegpu.async_wait {pending = 2}
  }
  tile.return
}

// -----

// Rows whose length is only known at run time, with nothing known of its
// alignment, may end inside any chunk wider than an element: gfx950 copies
// such a tile 2 bytes a lane, and sm_90, whose copies move at least 4,
// cannot copy it straight into LDS. Neither can copy a strided row.
// SM90: error: 'tilegpu.async_copy' op cannot copy this tile straight into LDS on sm_90
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
tile.kernel @columns(%x: !tile.ptr<bf16>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cols = arith.index_cast %n : i32 to index
  %v = tile.view %x sizes [32, %cols] strides [%cols, 1] : !tile.ptr<bf16> -> !tile.view<32x?xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %b : !tile.view<32x?xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %strided = tile.view %x sizes [32, 64] strides [128, 2] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %b1 = tilegpu.memdesc_index %bufs[%c1] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  // expected-error @below {{cannot copy this tile straight into LDS on gfx950}}
  // expected-error @below {{failed to legalize}}
  tilegpu.async_copy %strided[%c0, %c0], %b1 : !tile.view<32x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  tile.return
}

// -----

// Only a local_buffer pads its buffers to whole runs of copies, so a copy
// into a local_alloc (whose last run could spill past it) is refused.
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
tile.kernel @into_alloc(%x: !tile.ptr<bf16>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<32x64xbf16> -> tensor<32x64xbf16, #blocked>
  %a = tilegpu.local_alloc %t : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
  // expected-error @below {{copies only into one buffer of a tilegpu.local_buffer}}
  // expected-error @below {{failed to legalize}}
  tilegpu.async_copy %v[%c0, %c0], %a : !tile.view<32x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tile.return
}
