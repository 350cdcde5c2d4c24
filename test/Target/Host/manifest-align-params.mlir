// A pointer's alignment required through a parameter: the instance whose
// divisor is 1 requires nothing (any address is a multiple of 1), the
// other keeps 'x % 16 == 0'.
// RUN: mla-compile %s --target=host -o %t.so
// RUN: FileCheck %s < %t.so.json
// CHECK: "launch": {
// CHECK-NEXT: "grid": [
// CHECK: "params": {
// CHECK-NEXT: "ALIGN": 1
// CHECK: "symbol": "copy",
// CHECK: "requires": [
// CHECK-NEXT: [
// CHECK-NEXT: "eq",
// CHECK-NEXT: [
// CHECK-NEXT: "rem",
// CHECK-NEXT: {
// CHECK-NEXT: "arg": "x"
// CHECK-NEXT: },
// CHECK-NEXT: 16
// CHECK: "symbol": "copy_align16",

tile.kernel @copy<ALIGN: i64 = 1>(%x: !tile.ptr<f32>, %n: i32)
    attributes {tile.instances = {ALIGN = [1, 16]},
                tile.launch = {grid = [1, 1, 1], requires = ["x % ALIGN == 0"]}} {
  tile.return
}
