// RUN: mla-opt %s --convert-tile-to-gpu=chip=sm_90 -canonicalize -cse | FileCheck %s

// On sm_90 a copy into shared memory is cp.async: 16 bytes per thread to
// its slot of the warp's run (4 KiB in runs of 32 x 16 bytes: 8 runs, two
// per warp), zero-filled past the view (source size 0), with a byte-by-byte
// path for a view whose base is not 16-byte aligned; each async_copy is one
// group, and async_wait waits for groups.
// CHECK-LABEL: gpu.func @copy
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}}
// CHECK: } else {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}}
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
tile.kernel @copy(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %x sizes [%rows, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c1] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %b : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %t = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  tile.store %t, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}

// Copies into two buffers, only address arithmetic between them: the
// first copy's barrier orders every earlier read of shared memory before
// both. A read between two copies keeps the second its own barrier.
// CHECK-LABEL: gpu.func @two_copies
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-LABEL: gpu.func @read_between_copies
// CHECK: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
// CHECK: llvm.load
// CHECK: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
tile.kernel @two_copies(%x: !tile.ptr<bf16>, %n: i32, %s: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %x sizes [%rows, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %i = arith.index_cast %s : i32 to index
  %a_bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b_bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %a = tilegpu.memdesc_index %a_bufs[%i] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %a : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %b = tilegpu.memdesc_index %b_bufs[%i] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %b : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  tile.return
}
tile.kernel @read_between_copies(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %x sizes [%rows, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %a = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %b = tilegpu.memdesc_index %bufs[%c1] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %a : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %t = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  tilegpu.async_copy %v[%c0, %c0], %b : !tile.view<?x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  tile.store %t, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}
