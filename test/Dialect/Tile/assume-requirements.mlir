// RUN: mla-opt %s --tile-assume-requirements --split-input-file --verify-diagnostics | FileCheck %s

// Each requirement, computed in i64 from the arguments at the start of
// the body (i32 arguments sign-extended, as launchers read them), becomes
// an llvm.intr.assume before the kernel's own ops.
// CHECK-LABEL: tile.kernel @facts
// CHECK-SAME: (%x: !tile.ptr<f32>, %n: i32, %m: i64)
// CHECK: %[[N:.*]] = arith.extsi %n : i32 to i64
// CHECK: %[[C256:.*]] = arith.constant 256 : i64
// CHECK: %[[LE:.*]] = arith.cmpi sle, %[[N]], %[[C256]] : i64
// CHECK: llvm.intr.assume %[[LE]] : i1
// CHECK: %[[N2:.*]] = arith.extsi %n : i32 to i64
// CHECK: %[[C16:.*]] = arith.constant 16 : i64
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %[[N2]], %[[C16]] : i64
// CHECK: %[[HALF:.*]] = arith.floordivsi %m, %{{.*}} : i64
// CHECK: %[[LOW:.*]] = arith.minsi %[[BLOCKS]], %[[HALF]] : i64
// CHECK: %[[SUM:.*]] = arith.addi %m, %{{.*}} : i64
// CHECK: %[[PROD:.*]] = arith.muli %[[SUM]], %{{.*}} : i64
// CHECK: %[[HIGH:.*]] = arith.maxsi %[[PROD]], %{{.*}} : i64
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[LOW]], %[[HIGH]] : i64
// CHECK: llvm.intr.assume %[[NE]] : i1
// A divisibility requirement is a remainder (with the dividend's sign, as
// launchers compute it) compared with 0.
// CHECK: %[[N3:.*]] = arith.extsi %n : i32 to i64
// CHECK: %[[C8:.*]] = arith.constant 8 : i64
// CHECK: %[[REM:.*]] = arith.remsi %[[N3]], %[[C8]] : i64
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : i64
// CHECK: llvm.intr.assume %[[EQ]] : i1
// CHECK: tile.program_id x
tile.kernel @facts(%x: !tile.ptr<f32>, %n: i32, %m: i64)
    attributes {tile.launch = {grid = [1, 1, 1],
                               requires = ["n <= 256",
                                           "min(cdiv(n, 16), m // 2) != max((m + 1) * 3, 7)",
                                           "n % 8 == 0"]}} {
  %p = tile.program_id x
  tile.return
}

// -----

// A kernel without requirements is left as it is.
// CHECK-LABEL: tile.kernel @none
// CHECK-NOT: llvm.intr.assume
// CHECK: tile.return
tile.kernel @none(%n: i32) attributes {tile.launch = {grid = ["n", 1, 1]}} {
  tile.return
}

// -----

// Parameters must have their values first.
// expected-error @+1 {{tile-assume-requirements runs on specialized kernels (after tile-specialize)}}
tile.kernel @generic<B: i64 = 4>(%n: i32)
    attributes {tile.launch = {requires = ["n >= B"]}} {
  tile.return
}
