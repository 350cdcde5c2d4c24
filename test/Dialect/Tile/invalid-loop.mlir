// RUN: mla-opt %s -split-input-file -verify-diagnostics
// mla-compile rejects the same loops before lowering anything:
// RUN: not mla-compile %s --target=host -o %t.so 2>&1 | FileCheck %s
// RUN: not ls %t.so %t.so.json
// CHECK: invalid-loop.mlir:[[# @LINE + 9]]:3: error: 'scf.for' op has constant step 0; loops in a tile kernel need a positive step

// A loop of step 0 never ends; the canonicalizer would delete it as a loop
// of no iterations, silently changing the result.
tile.kernel @zero_step(%n: i32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %step = arith.constant 0 : index
  // expected-error @+1 {{'scf.for' op has constant step 0; loops in a tile kernel need a positive step}}
  scf.for %i = %c0 to %c4 step %step {
  }
  tile.return
}

// -----

tile.kernel @negative_step(%n: i32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %step = arith.constant -1 : index
  // expected-error @+1 {{has constant step -1}}
  scf.for %i = %c4 to %c0 step %step {
  }
  tile.return
}

// -----

// Integer loops too, and loops nested in other regions.
tile.kernel @nested_i32(%n: i32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant 0 : i32
  %step = arith.constant -64 : i32
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{has constant step -64}}
    scf.for %j = %lo to %n step %step : i32 {
    }
  }
  tile.return
}

// -----

// Unsigned loops compare unsigned, but the step is still read as signed:
// 0xFFFFFFFF would wrap the induction variable around.
tile.kernel @unsigned_wrap(%n: i32) {
  %lo = arith.constant 0 : i32
  %step = arith.constant 4294967295 : i32
  // expected-error @+1 {{has constant step -1}}
  scf.for unsigned %j = %lo to %n step %step : i32 {
  }
  tile.return
}

// -----

// A step known only at run time is not checked here (docs/DSL.md).
tile.kernel @dynamic_step(%n: i32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %step = arith.index_cast %n : i32 to index
  scf.for %i = %c0 to %c64 step %step {
  }
  scf.for %i = %c0 to %c64 step %c64 {
  }
  tile.return
}
