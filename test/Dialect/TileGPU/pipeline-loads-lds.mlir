// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 --tilegpu-stage-operands \
// RUN:   --tilegpu-pipeline-loads=chip=gfx950 | FileCheck %s
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=sm_90 --tilegpu-stage-operands \
// RUN:   --tilegpu-pipeline-loads=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 --tilegpu-stage-operands \
// RUN:   --tilegpu-pipeline-loads | FileCheck %s --check-prefix=NOCHIP
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx942 --tilegpu-stage-operands \
// RUN:   --tilegpu-pipeline-loads=chip=gfx942 | FileCheck %s --check-prefix=NOCHIP
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 --tilegpu-stage-operands \
// RUN:   --tilegpu-pipeline-loads=chip=gfx950 -cse | FileCheck %s --check-prefix=STAGES3
// RUN: not mla-opt %s --tilegpu-assign-layouts=chip=gfx950 \
// RUN:   --tilegpu-pipeline-loads=chip=gfx951 2>&1 | FileCheck %s --check-prefix=CHIP

// B only goes to LDS, and the chip copies global memory straight into LDS:
// two LDS buffers, the first tile copied before the loop, the next one
// into the other buffer first thing in each iteration, then a wait for
// the current one (one copy per iteration may stay in flight) and reads
// of it; every copy is waited for after the loop. A's columns are bounded
// by the view (a dynamic size), so it cannot be copied that way: it is
// carried in registers, loaded an iteration ahead.
// CHECK-LABEL: tile.kernel @staged
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[BUFS:.*]] = tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16
// CHECK: %[[FIRST_BUF:.*]] = tilegpu.memdesc_index %[[BUFS]][%[[ZERO]]]
// CHECK: tilegpu.async_copy %[[BV:.*]][%[[C0]], %[[C0]]], %[[FIRST_BUF]]
// CHECK: %[[A0:.*]] = tile.load {{.*}} -> tensor<64x32xbf16
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %[[STEP:[^ ]*]] iter_args(%{{.*}} = %{{.*}}, %[[STAGE:.*]] = %[[ZERO]], %[[A:.*]] = %[[A0]])
// CHECK: %[[NEXT_STAGE:.*]] = arith.xori %[[STAGE]], %[[C1]]
// CHECK: %[[NEXT_IV:.*]] = arith.addi %[[IV]], %[[STEP]]
// CHECK: %[[NEXT_BUF:.*]] = tilegpu.memdesc_index %[[BUFS]][%[[NEXT_STAGE]]]
// CHECK-NEXT: tilegpu.async_copy %[[BV]][%[[NEXT_IV]], %[[C0]]], %[[NEXT_BUF]]
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i64}
// CHECK-NEXT: %[[CUR:.*]] = tilegpu.memdesc_index %[[BUFS]][%[[STAGE]]]
// CHECK-NOT: tilegpu.local_alloc
// CHECK: tilegpu.memdesc_slice %[[CUR]][0, 0]
// CHECK: scf.yield %{{.*}}, %[[NEXT_STAGE]], %{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i64}
//
// sm_90 copies B with cp.async the same way. Without a chip the pass does
// not know of such copies, and B is carried in registers; so it is on
// gfx942, whose copies into LDS move 4 bytes per lane where a load into
// registers moves 16.
// SM90-LABEL: tile.kernel @staged
// SM90: tilegpu.async_copy
// SM90: scf.for
// SM90: tilegpu.async_copy
// SM90-NEXT: tilegpu.async_wait {pending = 1 : i64}
// NOCHIP-LABEL: tile.kernel @staged
// NOCHIP-NOT: tilegpu.async_copy
// NOCHIP: scf.for
// NOCHIP: tilegpu.local_alloc %{{.*}} : tensor<32x64xbf16
// CHIP: error: unknown chip 'gfx951'
tile.kernel @staged(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 2 : i64}} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %depth = arith.index_cast %k : i32 to index
  %av = tile.view %a sizes [64, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<64x?xbf16>
  %bv = tile.view %b sizes [%depth, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64x64xf32>
  %acc = scf.for %kk = %c0 to %depth step %c32 iter_args(%acc_i = %acc0) -> tensor<64x64xf32> {
    %at = tile.load %av[%c0, %kk] : !tile.view<64x?xbf16> -> tensor<64x32xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// The same product with rows of A a multiple of 8 elements long: each
// 16-byte run of a row is inside the view or past it as a whole, so A is
// copied straight into LDS 16 bytes a lane too, rather than loaded in the
// operand layout and carried in registers (tilegpu-assign-layouts). Both
// tiles are then double-buffered; one iteration's two copies stay in
// flight.
// CHECK-LABEL: tile.kernel @aligned_rows
// CHECK: tilegpu.local_buffer : !tilegpu.memdesc<2x64x32xbf16
// CHECK: tilegpu.local_buffer : !tilegpu.memdesc<2x32x64xbf16
// CHECK: scf.for
// CHECK-NOT: tile.load
// CHECK: tilegpu.async_copy
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.async_copy
// CHECK-NEXT: tilegpu.async_wait {pending = 2 : i64}
// CHECK-NOT: tile.load
// CHECK: scf.yield
// SM90-LABEL: tile.kernel @aligned_rows
// SM90-COUNT-2: tilegpu.local_buffer
// NOCHIP-LABEL: tile.kernel @aligned_rows
// NOCHIP-NOT: tilegpu.async_copy
tile.kernel @aligned_rows(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k8: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 2 : i64}} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %eighths = arith.index_cast %k8 : i32 to index
  %depth = arith.muli %eighths, %c8 : index
  %av = tile.view %a sizes [64, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<64x?xbf16>
  %bv = tile.view %b sizes [%depth, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64x64xf32>
  %acc = scf.for %kk = %c0 to %depth step %c32 iter_args(%acc_i = %acc0) -> tensor<64x64xf32> {
    %at = tile.load %av[%c0, %kk] : !tile.view<64x?xbf16> -> tensor<64x32xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// Three stages: three buffers per tile, the first two tiles copied into
// buffers 0 and 1 before the loop; each iteration waits for its own tiles
// (leaving the next iteration's two copies in flight), then copies the
// tile two steps ahead into the buffer the previous iteration read
// ((stage + 2) mod 3; the wait's barrier orders those reads before the
// copies), and reads buffer `stage`; the next iteration reads stage + 1,
// wrapping to 0.
// STAGES3-LABEL: tile.kernel @three_stages
// STAGES3-DAG: %[[C0:.*]] = arith.constant 0 : index
// STAGES3-DAG: %[[C1:.*]] = arith.constant 1 : index
// STAGES3-DAG: %[[C32:.*]] = arith.constant 32 : index
// STAGES3: %[[ABUFS:.*]] = tilegpu.local_buffer : !tilegpu.memdesc<3x64x32xbf16
// STAGES3: %[[BBUFS:.*]] = tilegpu.local_buffer : !tilegpu.memdesc<3x32x64xbf16
// STAGES3: tilegpu.async_copy %{{.*}}[%[[C0]], %[[C0]]]
// STAGES3: tilegpu.async_copy %{{.*}}[%[[C0]], %[[C0]]]
// STAGES3: %[[ONE_BUF:.*]] = tilegpu.memdesc_index %[[ABUFS]][%[[C1]]]
// STAGES3-NEXT: tilegpu.async_copy %{{.*}}[%[[C0]], %[[C32]]], %[[ONE_BUF]]
// STAGES3: tilegpu.async_copy %{{.*}}[%[[C32]], %[[C0]]]
// STAGES3: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %[[C32]] iter_args(%{{.*}} = %{{.*}}, %[[STAGE:.*]] = %[[C0]])
// STAGES3: %[[C2:.*]] = arith.constant 2 : index
// STAGES3: %[[AT_LAST:.*]] = arith.cmpi eq, %[[STAGE]], %[[C2]]
// STAGES3: %[[UP:.*]] = arith.addi %[[STAGE]], %[[C1]]
// STAGES3: %[[NEXT:.*]] = arith.select %[[AT_LAST]], %[[C0]], %[[UP]]
// STAGES3: %[[WRAPS:.*]] = arith.cmpi uge, %[[STAGE]], %[[C1]]
// STAGES3: %[[DOWN:.*]] = arith.subi %[[STAGE]], %[[C1]]
// STAGES3: %[[UP2:.*]] = arith.addi %[[STAGE]], %[[C2]]
// STAGES3: %[[FILL:.*]] = arith.select %[[WRAPS]], %[[DOWN]], %[[UP2]]
// STAGES3: %[[C64:.*]] = arith.constant 64 : index
// STAGES3: %[[AHEAD:.*]] = arith.addi %[[IV]], %[[C64]]
// STAGES3-NEXT: tilegpu.async_wait {pending = 2 : i64}
// STAGES3-NEXT: %[[FILL_BUF:.*]] = tilegpu.memdesc_index %[[ABUFS]][%[[FILL]]]
// STAGES3-NEXT: tilegpu.async_copy %{{.*}}[%[[C0]], %[[AHEAD]]], %[[FILL_BUF]]
// STAGES3: tilegpu.async_copy %{{.*}}[%[[AHEAD]], %[[C0]]]
// STAGES3-NEXT: tilegpu.memdesc_index %[[ABUFS]][%[[STAGE]]]
// STAGES3: scf.yield %{{.*}}, %[[NEXT]]
// STAGES3-NEXT: }
// STAGES3-NEXT: tilegpu.async_wait {pending = 0 : i64}
// SM90-LABEL: tile.kernel @three_stages
// SM90-COUNT-2: tilegpu.local_buffer : !tilegpu.memdesc<3x
// SM90: tilegpu.async_wait {pending = 2 : i64}
// On gfx942 the tiles are carried in registers one iteration ahead,
// whatever the stage count.
// NOCHIP-LABEL: tile.kernel @three_stages
// NOCHIP-NOT: tilegpu.local_buffer
// NOCHIP: scf.for
tile.kernel @three_stages(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %k8: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 3 : i64}} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %eighths = arith.index_cast %k8 : i32 to index
  %depth = arith.muli %eighths, %c8 : index
  %av = tile.view %a sizes [64, %depth] strides [%depth, 1] : !tile.ptr<bf16> -> !tile.view<64x?xbf16>
  %bv = tile.view %b sizes [%depth, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64x64xf32>
  %acc = scf.for %kk = %c0 to %depth step %c32 iter_args(%acc_i = %acc0) -> tensor<64x64xf32> {
    %at = tile.load %av[%c0, %kk] : !tile.view<64x?xbf16> -> tensor<64x32xbf16>
    %bt = tile.load %bv[%kk, %c0] : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  tile.store %acc, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}
