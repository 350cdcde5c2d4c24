// The instances option replaces the instance sets of the kernels it names;
// the others keep theirs.
// RUN: mla-opt %s -tile-specialize='instances=sized:BLOCK=8,16;pair:A=2:B=y' \
// RUN:   | FileCheck %s
// RUN: mla-opt %s --pass-pipeline='builtin.module(tile-specialize{instances=sized:BLOCK=8,16;pair:A=2:B=y})' \
// RUN:   | FileCheck %s
// RUN: mla-opt %s -tile-specialize='instances=pair' | FileCheck %s --check-prefix=DEFAULTS

// CHECK-LABEL: tile.kernel @sized_block8()
// CHECK: arith.constant 8 : index
// CHECK-LABEL: tile.kernel @sized_block16()
// CHECK: arith.constant 16 : index
// CHECK-NOT: tile.kernel @pair
// CHECK-LABEL: tile.kernel @pair_a2_y()
// CHECK-NOT: tile.kernel @pair
// CHECK-LABEL: tile.kernel @needs_h1()
// CHECK-LABEL: tile.kernel @kept()
// CHECK-LABEL: tile.kernel @kept_n2()

// A kernel named alone gets its default instance.
// DEFAULTS: tile.kernel @pair()
// DEFAULTS-NOT: tile.kernel @pair_

// RUN: not mla-opt %s -tile-specialize='instances=nope:A=1' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: tile-specialize: instances: the program has no parameterized kernel 'nope'
// RUN: not mla-opt %s -tile-specialize='instances=pair:C=1' 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: error: 'tile.kernel' op instances: parameter 'C' is not declared by kernel @pair
// RUN: not mla-opt %s -tile-specialize='instances=pair:A=x' 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: error: 'tile.kernel' op instances: value 'x' of parameter 'A' is not an integer
// RUN: not mla-opt %s -tile-specialize='instances=pair:B=a-b' 2>&1 | FileCheck %s --check-prefix=STR
// STR: error: 'tile.kernel' op instances: value 'a-b' of parameter 'B' is not a string of letters, digits and '_'
// RUN: not mla-opt %s -tile-specialize='instances=needs' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: 'tile.kernel' op has no value for parameter 'H', which has no default; list it in the instances option
// RUN: not mla-opt %s -tile-specialize='instances=pair:A' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: tile-specialize: instances: 'pair:A': expected PARAM=V1,V2 after 'pair:', got 'A'
// A kernel named several times gets the union of its sets, each instance
// once.
// RUN: mla-opt %s -tile-specialize='instances=pair:A=1,2;pair:A=2:B=z,x' | FileCheck %s --check-prefix=UNION
// UNION: tile.kernel @pair()
// UNION-NEXT: tile.return
// UNION: tile.kernel @pair_a2()
// UNION-NEXT: tile.return
// UNION: tile.kernel @pair_a2_z()
// UNION-NOT: tile.kernel @pair
// RUN: not mla-opt %s -tile-specialize='instances=pair:A=1,,2' 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: tile-specialize: instances: 'pair:A=1,,2': parameter 'A' has an empty value
// RUN: not mla-opt %s -tile-specialize='instances=pair:A=1:A=2' 2>&1 | FileCheck %s --check-prefix=PARAM-TWICE
// PARAM-TWICE: error: tile-specialize: instances: 'pair:A=1:A=2': parameter 'A' is given twice

tile.kernel @sized<BLOCK: i64 = 4>() attributes {tile.instances = {BLOCK = [4, 64]}} {
  %b = tile.param "BLOCK" : index
  tile.return
}

tile.kernel @pair<A: i64 = 1, B: str = "x">() attributes {tile.instances = {A = [1, 2]}} {
  tile.return
}

tile.kernel @needs<H: i64>() attributes {tile.instances = {H = [1]}} {
  tile.return
}

tile.kernel @kept<N: i64 = 1>() attributes {tile.instances = {N = [1, 2]}} {
  tile.return
}

// A list of products in tile.instances is their union; N = 2, M = 1 is in
// both and made once.
// CHECK-LABEL: tile.kernel @listed()
// CHECK-SAME: tile.params = {M = 1 : i64, N = 1 : i64}
// CHECK-LABEL: tile.kernel @listed_n2()
// CHECK-LABEL: tile.kernel @listed_n2_m3()
// CHECK-NOT: tile.kernel @listed
tile.kernel @listed<N: i64 = 1, M: i64 = 1>()
    attributes {tile.instances = [{N = [1, 2]}, {N = [2], M = [1, 3]}]} {
  tile.return
}

// A target's entry in tile.target_instances replaces tile.instances for
// that target; other targets, and the instances option, are unaffected.
// RUN: mla-opt %s -tile-specialize='target=gfx942' | FileCheck %s --check-prefix=TARGET
// RUN: mla-opt %s -tile-specialize='target=gfx942 instances=per_target:N=5' \
// RUN:   | FileCheck %s --check-prefix=TARGET-OVERRIDE
// TARGET-LABEL: tile.kernel @per_target_n3()
// TARGET-NEXT: tile.return
// TARGET-NOT: tile.kernel @per_target
// TARGET-OVERRIDE: tile.kernel @per_target_n5()
// TARGET-OVERRIDE-NOT: tile.kernel @per_target
// CHECK-LABEL: tile.kernel @per_target()
// CHECK-LABEL: tile.kernel @per_target_n2()
// CHECK-NOT: tile.kernel @per_target
tile.kernel @per_target<N: i64 = 1>()
    attributes {tile.instances = {N = [1, 2]},
                tile.target_instances = {gfx942 = [{N = [3]}], sm_90 = {N = [4]}}} {
  tile.return
}

