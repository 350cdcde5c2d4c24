// RUN: mla-opt %s -split-input-file --tilegpu-assign-layouts=chip=sm_90 \
// RUN:   --tilegpu-stage-operands --canonicalize --cse --tilegpu-warpgroup-dots \
// RUN:   --tilegpu-pipeline-loads=chip=sm_90 --cse | FileCheck %s
// RUN: mla-opt %s -split-input-file --tilegpu-assign-layouts=chip=sm_90 \
// RUN:   --tilegpu-stage-operands --canonicalize --cse --tilegpu-warpgroup-dots \
// RUN:   --tilegpu-pipeline-loads=chip=sm_90 --cse --convert-tile-to-gpu=chip=sm_90 \
// RUN:   | FileCheck %s --check-prefix=LOWERED

// Lowered for sm_90, an async product commits its group without waiting;
// tilegpu.warpgroup_wait becomes wgmma.wait_group as inline assembly that
// takes the accumulator's 64 registers of each thread (128x128 f32 on 256
// threads) and gives them back (each output tied to its input), so no
// read of them moves above it. A product waited for in its step keeps the
// plain wait.
// LOWERED-LABEL: gpu.func @gemm
// LOWERED: nvvm.wgmma.commit.group.sync.aligned
// LOWERED-NOT: nvvm.wgmma.wait.group.sync.aligned
// LOWERED: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 1;", "=f,{{(=f,)+}}0,1,{{([0-9]+,)+}}62,63"
// LOWERED: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;"
// LOWERED-LABEL: gpu.func @two_stages
// LOWERED: nvvm.wgmma.commit.group.sync.aligned
// LOWERED-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// LOWERED-NOT: llvm.inline_asm
// LOWERED-LABEL: gpu.func @read_in_loop

// Three stages on sm_90, where the K loop's one product is a warpgroup
// product accumulating into the loop-carried tile: the product stays in
// flight into the next iteration (`async`, then a wait that leaves it in
// flight, so the previous iteration's is done). The copies of the tiles
// two iterations ahead then end the iteration, after that wait: the
// buffer they fill is the one the previous iteration's product read.
// After the loop, a wait for every product before the result is stored.
// CHECK-LABEL: tile.kernel @gemm
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: tilegpu.local_buffer : !tilegpu.memdesc<3x128x64xbf16
// CHECK: tilegpu.local_buffer : !tilegpu.memdesc<3x64x128xbf16
// CHECK-COUNT-4: tilegpu.async_copy
// CHECK-NOT: tilegpu.async_copy
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[STAGE:.*]] = %[[C0]])
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[WRAPS:.*]] = arith.cmpi uge, %[[STAGE]], %[[C1]] : index
// CHECK: %[[DOWN:.*]] = arith.subi %[[STAGE]], %[[C1]]
// CHECK: %[[UP:.*]] = arith.addi %[[STAGE]], %[[C2]]
// CHECK: %[[FILL:.*]] = arith.select %[[WRAPS]], %[[DOWN]], %[[UP]]
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[AHEAD:.*]] = arith.addi %[[IV]], %[[C128]]
// CHECK-NEXT: tilegpu.async_wait {pending = 2 : i64}
// CHECK: %[[S:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %[[ACC]] {async}
// CHECK-NEXT: %[[CARRIED:.*]] = tilegpu.warpgroup_wait %[[S]] {pending = 1 : i64}
// CHECK-NEXT: tilegpu.memdesc_index %{{.*}}[%[[FILL]]]
// CHECK-NEXT: tilegpu.async_copy %{{.*}}[%[[C0]], %[[AHEAD]]]
// CHECK-NEXT: tilegpu.memdesc_index %{{.*}}[%[[FILL]]]
// CHECK-NEXT: tilegpu.async_copy %{{.*}}[%[[AHEAD]], %[[C0]]]
// CHECK-NEXT: scf.yield %[[CARRIED]], %{{.*}}
// CHECK: %[[DONE:.*]] = tilegpu.warpgroup_wait %{{.*}}#0 {pending = 0 : i64}
// CHECK: tilegpu.async_wait {pending = 0 : i64}
// CHECK: tile.store %[[DONE]]
tile.kernel @gemm(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k8: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 3 : i64, waves = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %eighths = arith.index_cast %k8 : i32 to index
  %depth = arith.muli %eighths, %c8 : index
  %av = tile.view %a sizes [128, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<128x?xbf16>
  %bv = tile.view %b sizes [%depth, 128] strides [128, 1] : !tile.ptr<bf16> -> !tile.view<?x128xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<128x128xf32>
  %acc = scf.for %kk = %c0 to %depth step %c64 iter_args(%acc_i = %acc0) -> tensor<128x128xf32> {
    %at = tile.load %av[%c0, %kk] : !tile.view<128x?xbf16> -> tensor<128x64xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x128xbf16> -> tensor<64x128xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  %cv = tile.view %c sizes [128, 128] strides [128, 1] : !tile.ptr<f32> -> !tile.view<128x128xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<128x128xf32>, !tile.view<128x128xf32>
  tile.return
}

// -----

// Two stages leave no buffer for a product in flight: it is waited for in
// its iteration.
// CHECK-LABEL: tile.kernel @two_stages
// CHECK: tilegpu.local_buffer : !tilegpu.memdesc<2x
// CHECK: scf.for
// CHECK-NOT: async}
// CHECK-NOT: tilegpu.warpgroup_wait
// CHECK: tile.return
tile.kernel @two_stages(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k8: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 2 : i64, waves = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %eighths = arith.index_cast %k8 : i32 to index
  %depth = arith.muli %eighths, %c8 : index
  %av = tile.view %a sizes [128, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<128x?xbf16>
  %bv = tile.view %b sizes [%depth, 128] strides [128, 1] : !tile.ptr<bf16> -> !tile.view<?x128xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<128x128xf32>
  %acc = scf.for %kk = %c0 to %depth step %c64 iter_args(%acc_i = %acc0) -> tensor<128x128xf32> {
    %at = tile.load %av[%c0, %kk] : !tile.view<128x?xbf16> -> tensor<128x64xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x128xbf16> -> tensor<64x128xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  %cv = tile.view %c sizes [128, 128] strides [128, 1] : !tile.ptr<f32> -> !tile.view<128x128xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<128x128xf32>, !tile.view<128x128xf32>
  tile.return
}

// -----

// A product whose result the iteration reads (here, scaled before it is
// carried) must be done in its iteration: nothing stays in flight, and the
// copies follow the wait for the iteration's own tiles.
// CHECK-LABEL: tile.kernel @read_in_loop
// CHECK: tilegpu.local_buffer : !tilegpu.memdesc<3x
// CHECK-COUNT-4: tilegpu.async_copy
// CHECK: scf.for
// CHECK: tilegpu.async_wait {pending = 2 : i64}
// CHECK-COUNT-2: tilegpu.async_copy
// CHECK: tilegpu.warpgroup_dot
// CHECK-NOT: async}
// CHECK-NOT: tilegpu.warpgroup_wait
// CHECK: tile.return
tile.kernel @read_in_loop(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k8: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 3 : i64, waves = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %eighths = arith.index_cast %k8 : i32 to index
  %depth = arith.muli %eighths, %c8 : index
  %av = tile.view %a sizes [128, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<128x?xbf16>
  %bv = tile.view %b sizes [%depth, 128] strides [128, 1] : !tile.ptr<bf16> -> !tile.view<?x128xbf16>
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %acc0 = tile.splat %zero : tensor<128x128xf32>
  %halves = tile.splat %half : tensor<128x128xf32>
  %acc = scf.for %kk = %c0 to %depth step %c64 iter_args(%acc_i = %acc0) -> tensor<128x128xf32> {
    %at = tile.load %av[%c0, %kk] : !tile.view<128x?xbf16> -> tensor<128x64xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x128xbf16> -> tensor<64x128xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    %scaled = arith.mulf %next, %halves : tensor<128x128xf32>
    scf.yield %scaled : tensor<128x128xf32>
  }
  %cv = tile.view %c sizes [128, 128] strides [128, 1] : !tile.ptr<f32> -> !tile.view<128x128xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<128x128xf32>, !tile.view<128x128xf32>
  tile.return
}
