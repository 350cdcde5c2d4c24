// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 --tilegpu-stage-operands \
// RUN:   --tilegpu-pipeline-loads -split-input-file | FileCheck %s
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 --tilegpu-stage-operands \
// RUN:   --tilegpu-pipeline-loads=stages=2 -split-input-file | FileCheck %s --check-prefix=OPTION

// With launch key stages = 2, a load indexed by the induction variable is
// issued one iteration ahead: the first tile before the loop, the next one
// first thing in each iteration (at iv + step), the current one carried.
// CHECK-LABEL: tile.kernel @ahead
// CHECK: %[[FIRST:.*]] = tile.load %[[VIEW:.*]][%[[C0:.*]], %[[C0]]]
// CHECK: scf.for %[[IV:.*]] = %[[C0]] to %{{.*}} step %[[STEP:[^ ]*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[CUR:.*]] = %[[FIRST]])
// CHECK-NEXT: %[[NEXT_IV:.*]] = arith.addi %[[IV]], %[[STEP]]
// CHECK-NEXT: %[[NEXT:.*]] = tile.load %[[VIEW]][%[[NEXT_IV]], %[[C0]]]
// CHECK: arith.addf %[[ACC]], %[[CUR]]
// CHECK: scf.yield %{{.*}}, %[[NEXT]]
tile.kernel @ahead(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 2 : i64}} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %x sizes [%rows, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<16x64xf32>
  %acc = scf.for %i = %c0 to %rows step %c16 iter_args(%a = %acc0) -> tensor<16x64xf32> {
    %t = tile.load %v[%i, %c0] : !tile.view<?x64xf32> -> tensor<16x64xf32>
    %s = arith.addf %a, %t : tensor<16x64xf32>
    scf.yield %s : tensor<16x64xf32>
  }
  %out = tile.view %y sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  tile.store %acc, %out[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}

// -----

// What the load needs is recomputed for the next iteration (the view's
// offset from the induction variable); a load that depends on a value the
// loop carries stays where it is.
// CHECK-LABEL: tile.kernel @slice
// CHECK: scf.for %[[IV:.*]] = {{.*}} step %[[STEP:[^ ]*]] iter_args
// CHECK-NEXT: %[[NEXT_IV:.*]] = arith.addi %[[IV]], %[[STEP]]
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[NEXT_IV]]
// CHECK-NEXT: %[[VIEW:.*]] = tile.view %{{.*}}[%[[OFF]]]
// CHECK-NEXT: tile.load %[[VIEW]]
// CHECK-NOT: = tile.view
// CHECK: tile.load %{{.*}}[%{{.*}}] : !tile.view<?xf32>
// CHECK: scf.yield
tile.kernel @slice(%x: !tile.ptr<f32>, %idx: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 2 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %count = arith.index_cast %n : i32 to index
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64xf32>
  %iv0 = tile.view %idx sizes [%count] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %acc, %pos = scf.for %i = %c0 to %count step %c1 iter_args(%a = %acc0, %p = %c0) -> (tensor<64xf32>, index) {
    %off = arith.muli %i, %c64 : index
    %v = tile.view %x[%off] sizes [64] strides [1] : !tile.ptr<f32> -> !tile.view<64xf32>
    %t = tile.load %v[%c0] : !tile.view<64xf32> -> tensor<64xf32>
    %u = tile.load %iv0[%p] : !tile.view<?xf32> -> tensor<64xf32>
    %s = arith.addf %a, %t : tensor<64xf32>
    %s2 = arith.addf %s, %u : tensor<64xf32>
    %p2 = arith.addi %p, %c1 : index
    scf.yield %s2, %p2 : tensor<64xf32>, index
  }
  %out = tile.view %y sizes [64] strides [1] : !tile.ptr<f32> -> !tile.view<64xf32>
  tile.store %acc, %out[%c0] : tensor<64xf32>, !tile.view<64xf32>
  tile.return
}

// -----

// Without the launch key the pass option decides; stages = 1 in the launch
// keys wins over it.
// CHECK-LABEL: tile.kernel @unsaid
// CHECK: scf.for
// CHECK-NEXT: tile.load
// OPTION-LABEL: tile.kernel @unsaid
// OPTION: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// OPTION-LABEL: tile.kernel @said
// OPTION: scf.for
// OPTION-NEXT: tile.load
tile.kernel @unsaid(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %v = tile.view %x sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<16x64xf32>
  %acc = scf.for %i = %c0 to %c4 step %c16 iter_args(%a = %acc0) -> tensor<16x64xf32> {
    %t = tile.load %v[%i, %c0] : !tile.view<64x64xf32> -> tensor<16x64xf32>
    %s = arith.addf %a, %t : tensor<16x64xf32>
    scf.yield %s : tensor<16x64xf32>
  }
  %out = tile.view %y sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  tile.store %acc, %out[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}
tile.kernel @said(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 1 : i64}} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %v = tile.view %x sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<16x64xf32>
  %acc = scf.for %i = %c0 to %c4 step %c16 iter_args(%a = %acc0) -> tensor<16x64xf32> {
    %t = tile.load %v[%i, %c0] : !tile.view<64x64xf32> -> tensor<16x64xf32>
    %s = arith.addf %a, %t : tensor<16x64xf32>
    scf.yield %s : tensor<16x64xf32>
  }
  %out = tile.view %y sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  tile.store %acc, %out[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}

// -----

// A tile staged in LDS inside the loop (its local_alloc writes LDS, not
// the memory tile loads read) is loaded ahead like any other.
// CHECK-LABEL: tile.kernel @staged
// CHECK: %[[FIRST:.*]] = tile.load %{{.*}} : !tile.view<?x64xbf16> -> tensor<32x64xbf16
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[CUR:.*]] = %[[FIRST]])
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[NEXT:.*]] = tile.load
// CHECK: tilegpu.local_alloc %[[CUR]]
// CHECK: scf.yield %{{.*}}, %[[NEXT]]
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

// -----

// A loop that stores to memory keeps its loads where they are: loaded an
// iteration earlier, a tile could miss what this iteration stores.
// CHECK-LABEL: tile.kernel @stores
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK: tile.store
tile.kernel @stores(%x: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1], stages = 2 : i64}} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %rows = arith.index_cast %n : i32 to index
  %v = tile.view %x sizes [%rows, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<?x64xf32>
  scf.for %i = %c0 to %rows step %c16 {
    %t = tile.load %v[%i, %c0] : !tile.view<?x64xf32> -> tensor<16x64xf32>
    %s = arith.addf %t, %t : tensor<16x64xf32>
    %j = arith.addi %i, %c16 : index
    tile.store %s, %v[%j, %c0] : tensor<16x64xf32>, !tile.view<?x64xf32>
  }
  tile.return
}
