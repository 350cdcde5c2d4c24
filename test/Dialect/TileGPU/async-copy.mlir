// RUN: mla-opt %s -split-input-file | mla-opt -split-input-file | FileCheck %s

// Two LDS buffers, one filled by an asynchronous copy and read after the
// wait: the ops print as they parse.
// CHECK-LABEL: tile.kernel @double_buffer
// CHECK: %[[BUFS:.*]] = tilegpu.local_buffer : !tilegpu.memdesc<2x64x576xbf16, #[[$SHARED3:.*]]>
// CHECK: %[[B:.*]] = tilegpu.memdesc_index %[[BUFS]][%{{.*}}] : !tilegpu.memdesc<2x64x576xbf16, #[[$SHARED3]]> -> !tilegpu.memdesc<64x576xbf16, #[[$SHARED:.*]]>
// CHECK: tilegpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}], %[[B]] : !tile.view<?x576xbf16> -> !tilegpu.memdesc<64x576xbf16, #[[$SHARED]]>
// CHECK: tilegpu.async_wait {pending = 0 : i64}
// CHECK: tilegpu.local_load %[[B]]
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
tile.kernel @double_buffer(%kv: !tile.ptr<bf16>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %kv sizes [%rows, 576] strides [576, 1] : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<2x64x576xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c1] : !tilegpu.memdesc<2x64x576xbf16, #shared3> -> !tilegpu.memdesc<64x576xbf16, #shared>
  tilegpu.async_copy %v[%c0, %c0], %b : !tile.view<?x576xbf16> -> !tilegpu.memdesc<64x576xbf16, #shared>
  tilegpu.async_wait {pending = 0}
  %t = tilegpu.local_load %b : !tilegpu.memdesc<64x576xbf16, #shared> -> tensor<64x576xbf16, #blocked>
  tile.return
}

// -----

// A buffer filled by stores between two barriers.
// CHECK-LABEL: tile.kernel @stored
// CHECK: %[[B:.*]] = tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: %[[W:.*]] = tilegpu.memdesc_slice %[[B]][0, 32] : !tilegpu.memdesc<64x64xbf16, #[[$SHARED:.*]]> -> !tilegpu.memdesc<64x32xbf16, #[[$SHARED]]>
// CHECK-NEXT: tilegpu.local_store %{{.*}}, %[[W]] : tensor<64x32xbf16, #{{.*}}> -> !tilegpu.memdesc<64x32xbf16, #[[$SHARED]]>
// CHECK-NEXT: tilegpu.barrier
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]>
tile.kernel @stored(%x: !tile.ptr<bf16>) attributes {tile.launch = {grid = [1, 1, 1]}} {
  %c0 = arith.constant 0 : index
  %v = tile.view %x sizes [64, 32] strides [32, 1] : !tile.ptr<bf16> -> !tile.view<64x32xbf16>
  %t = tile.load %v[%c0, %c0] : !tile.view<64x32xbf16> -> tensor<64x32xbf16, #blocked>
  %bufs = tilegpu.local_buffer : !tilegpu.memdesc<1x64x64xbf16, #shared3>
  %b = tilegpu.memdesc_index %bufs[%c0] : !tilegpu.memdesc<1x64x64xbf16, #shared3> -> !tilegpu.memdesc<64x64xbf16, #shared>
  tilegpu.barrier
  %w = tilegpu.memdesc_slice %b[0, 32] : !tilegpu.memdesc<64x64xbf16, #shared> -> !tilegpu.memdesc<64x32xbf16, #shared>
  tilegpu.local_store %t, %w : tensor<64x32xbf16, #blocked> -> !tilegpu.memdesc<64x32xbf16, #shared>
  tilegpu.barrier
  tile.return
}
