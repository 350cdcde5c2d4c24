// The manifest lists each kernel's arguments in call order with their
// names, kinds and element types (pointers with their extent: these
// kernels access nothing, extents.mlir has the others), and copies its
// launch rule.
// RUN: rm -f %t.so %t.so.json
// RUN: mla-compile %s --target=host -o %t.so
// RUN: FileCheck %s < %t.so.json

// CHECK: "binary": "manifest.mlir.tmp.so"
// CHECK: "args": [
// CHECK-NEXT: {
// CHECK-NEXT: "extent": 0,
// CHECK-NEXT: "kind": "ptr",
// CHECK-NEXT: "name": "packed",
// CHECK-NEXT: "type": "i8"
// CHECK: "extent": 0,
// CHECK-NEXT: "kind": "ptr",
// CHECK-NEXT: "name": "scales",
// CHECK-NEXT: "type": "f8E8M0FNU"
// CHECK: "kind": "scalar",
// CHECK-NEXT: "name": "stride",
// CHECK-NEXT: "type": "i32"
// CHECK: "kind": "scalar",
// CHECK-NEXT: "name": "alpha",
// CHECK-NEXT: "type": "f32"
// CHECK: "launch": {
// CHECK-NEXT: "grid": [
// CHECK-NEXT: "rows",
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "role": "example"
// CHECK: "lds_bytes": 0,
// CHECK: "symbol": "first",
// CHECK: "workgroup_size": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// Keys are sorted: the second kernel's launch would come before its symbol.
// CHECK-NOT: "launch"
// CHECK: "symbol": "second"
// CHECK: "target": "host"

tile.kernel @first(%packed: !tile.ptr<i8>, %scales: !tile.ptr<f8E8M0FNU>,
                   %stride: i32, %alpha: f32)
    attributes {tile.launch = {grid = ["rows", 1, 1], role = "example"}} {
  tile.return
}

tile.kernel @second(%out: !tile.ptr<bf16>) {
  tile.return
}
