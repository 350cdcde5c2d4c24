// RUN: mla-opt %s --convert-tile-to-gpu=chip=gfx950 -split-input-file | FileCheck %s

// LDS buffers are placed by live range: %a and %b are read together, so
// they take two 4 KiB ranges; %c is written after their last reads and
// takes %a's range again (12 KiB without reuse).
// CHECK-LABEL: llvm.mlir.global internal @reuse_lds()
// CHECK-SAME: !llvm.array<8192 x i8>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
tile.kernel @reuse(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<32x64xbf16> -> tensor<32x64xbf16, #blocked>
  %a = tilegpu.local_alloc %t : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %b = tilegpu.local_alloc %t : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %ra = tilegpu.local_load %a : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  %rb = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  %s = arith.addf %ra, %rb : tensor<32x64xbf16, #blocked>
  %c = tilegpu.local_alloc %s : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %rc = tilegpu.local_load %c : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  tile.store %rc, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}

// -----

// Buffers that copies fill live until every copy is waited for: the copy
// into buffer 1 may still land after buffer 0's last read, so %a, written
// before the wait, cannot take their range (8 KiB of buffers + 4 KiB).
// CHECK-LABEL: llvm.mlir.global internal @in_flight_lds()
// CHECK-SAME: !llvm.array<12288 x i8>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
tile.kernel @in_flight(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %v = tile.view %x sizes [64, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<64x64xbf16>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b0 = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %b0 : !tile.view<64x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %b1 = tilegpu.memdesc_index %bufs[%c1] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c32, %c0], %b1 : !tile.view<64x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %r = tilegpu.local_load %b0 : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  %a = tilegpu.local_alloc %r : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %ra = tilegpu.local_load %a : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  tile.store %ra, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}

// -----

// Once every copy is waited for, the buffers' range is free again.
// CHECK-LABEL: llvm.mlir.global internal @drained_lds()
// CHECK-SAME: !llvm.array<8192 x i8>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
tile.kernel @drained(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %v = tile.view %x sizes [64, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<64x64xbf16>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16, #shared3>
  %b0 = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %b0 : !tile.view<64x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %b1 = tilegpu.memdesc_index %bufs[%c1] : !tilegpu.memdesc<2x32x64xbf16, #shared3> -> !tilegpu.memdesc<32x64xbf16, #shared>
  tilegpu.async_copy %v[%c32, %c0], %b1 : !tile.view<64x64xbf16> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %r = tilegpu.local_load %b0 : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  tilegpu.async_wait {pending = 0}
  %a = tilegpu.local_alloc %r : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
  %ra = tilegpu.local_load %a : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
  tile.store %ra, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  tile.return
}

// -----

// Ranges are counted in the block that defines a buffer: %a and %b live in
// one iteration of the loop's body, %b after %a's last read, so they share
// 4 KiB; %q, made before the loop and read in it, lives across the whole
// loop and keeps its own range (8 KiB in all, 12 KiB if %a and %b were
// counted at the kernel's top level).
// CHECK-LABEL: llvm.mlir.global internal @in_loop_lds()
// CHECK-SAME: !llvm.array<8192 x i8>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
tile.kernel @in_loop(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>, %count: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.index_cast %count : i32 to index
  %v = tile.view %x sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %out = tile.view %y sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<32x64xbf16> -> tensor<32x64xbf16, #blocked>
  %q = tilegpu.local_alloc %t : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
  scf.for %i = %c0 to %n step %c1 {
    %a = tilegpu.local_alloc %t : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
    %ra = tilegpu.local_load %a : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
    %rq = tilegpu.local_load %q : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
    %s = arith.addf %ra, %rq : tensor<32x64xbf16, #blocked>
    %b = tilegpu.local_alloc %s : tensor<32x64xbf16, #blocked> -> !tilegpu.memdesc<32x64xbf16, #shared>
    %rb = tilegpu.local_load %b : !tilegpu.memdesc<32x64xbf16, #shared> -> tensor<32x64xbf16, #blocked>
    tile.store %rb, %out[%c0, %c0] : tensor<32x64xbf16, #blocked>, !tile.view<32x64xbf16>
  }
  tile.return
}

// -----

// A buffer that stores fill between two barriers lives in LDS like any
// other: its stores write each lane's runs, and the barriers are the only
// ones (local_store waits for nothing by itself).
// CHECK-LABEL: llvm.mlir.global internal @stored_lds()
// CHECK-SAME: !llvm.array<4096 x i8>
// CHECK-LABEL: gpu.func @stored
// CHECK: rocdl.s.barrier
// CHECK-NOT: rocdl.s.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NOT: rocdl.s.barrier
// CHECK: rocdl.s.barrier
// CHECK-NOT: rocdl.s.barrier
// CHECK: gpu.return
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]>
tile.kernel @stored(%x: !tile.ptr<bf16>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [64, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<64x32xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<64x32xbf16> -> tensor<64x32xbf16, #blocked>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<1x64x32xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<1x64x32xbf16, #shared3> -> !tilegpu.memdesc<64x32xbf16, #shared>
  tilegpu.barrier
  tilegpu.local_store %t, %b : tensor<64x32xbf16, #blocked> -> !tilegpu.memdesc<64x32xbf16, #shared>
  tilegpu.barrier
  tile.return
}

// -----

// A buffer that only stores fill (a decoded tile) ends at its last read,
// as an allocated one does: %a, written after that read, takes its range
// again (4 KiB; 8 KiB if it lived to the kernel's end, as a buffer that
// copies fill lives until their wait).
// CHECK-LABEL: llvm.mlir.global internal @stored_then_reused_lds()
// CHECK-SAME: !llvm.array<4096 x i8>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]>
tile.kernel @stored_then_reused(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>)
    attributes {tile.launch = {grid = [1, 1, 1]}, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [64, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<64x32xbf16>
  %out = tile.view %y sizes [64, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<64x32xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<64x32xbf16> -> tensor<64x32xbf16, #blocked>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<1x64x32xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<1x64x32xbf16, #shared3> -> !tilegpu.memdesc<64x32xbf16, #shared>
  tilegpu.barrier
  tilegpu.local_store %t, %b : tensor<64x32xbf16, #blocked> -> !tilegpu.memdesc<64x32xbf16, #shared>
  tilegpu.barrier
  %r = tilegpu.local_load %b : !tilegpu.memdesc<64x32xbf16, #shared> -> tensor<64x32xbf16, #blocked>
  %s = arith.addf %r, %r : tensor<64x32xbf16, #blocked>
  %a = tilegpu.local_alloc %s : tensor<64x32xbf16, #blocked> -> !tilegpu.memdesc<64x32xbf16, #shared>
  %ra = tilegpu.local_load %a : !tilegpu.memdesc<64x32xbf16, #shared> -> tensor<64x32xbf16, #blocked>
  tile.store %ra, %out[%c0, %c0] : tensor<64x32xbf16, #blocked>, !tile.view<64x32xbf16>
  tile.return
}
