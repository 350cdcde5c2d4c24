// RUN: mla-opt %s --host-expand-arith | FileCheck %s

// The float maxima and minima are left for convert-arith-to-llvm, which
// keeps the sign of zero; bf16 conversions and the rounding divisions are
// expanded.

// CHECK-LABEL: func.func @keeps_max_min
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.maxnumf
// CHECK: arith.minnumf
// CHECK-NOT: arith.cmpf
func.func @keeps_max_min(%a: f32, %b: f32) -> (f32, f32, f32, f32) {
  %0 = arith.maximumf %a, %b : f32
  %1 = arith.minimumf %a, %b : f32
  %2 = arith.maxnumf %a, %b : f32
  %3 = arith.minnumf %a, %b : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}

// CHECK-LABEL: func.func @expands_bf16
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @expands_bf16(%a: bf16, %b: f32) -> (f32, bf16) {
  %0 = arith.extf %a : bf16 to f32
  %1 = arith.truncf %b : f32 to bf16
  return %0, %1 : f32, bf16
}

// CHECK-LABEL: func.func @expands_division
// CHECK-NOT: arith.ceildivsi
// CHECK-NOT: arith.floordivsi
// CHECK: return
func.func @expands_division(%a: i32, %b: i32) -> (i32, i32) {
  %0 = arith.ceildivsi %a, %b : i32
  %1 = arith.floordivsi %a, %b : i32
  return %0, %1 : i32, i32
}
