// The manifest's extent of each pointer argument (docs/ABI.md, "Extents"):
// the elements its views and scalar loads reach, as an expression of the
// scalar arguments and the grid, or unknown with the reason and where.
// RUN: mla-compile %s --target=host -o %t.so
// RUN: %python %S/Inputs/extents.py %t.so.json | FileCheck %s
//
// A whole matrix: rows x cols, row-major.
// CHECK: whole x ["view",0,[{"arg":"rows"},{"arg":"cols"}],[{"arg":"cols"},1]]
// An offset computed in i32; static sizes and strides.
// CHECK-NEXT: offset x ["view",["mul",{"arg":"rows"},2],[4,8],[8,1]]
// Unsigned casts and divisions read their i32 operands as unsigned.
// CHECK-NEXT: unsigned x ["view",0,{{\[\[}}"zext",32,["udiv",["zext",32,{"arg":"rows"}],2]]],[1]]
// The grid's size.
// CHECK-NEXT: programs x ["view",0,{{\[\[}}"mul",{"programs":0},4]],[1]]
// A comparison and a select.
// CHECK-NEXT: clamped x ["view",0,{{\[\[}}"select",["lt",{"arg":"rows"},16],{"arg":"rows"},16]],[1]]
// Two views of one pointer: the larger, in source order.
// CHECK-NEXT: two_views x ["max",["view",0,[4],[1]],["view",{"arg":"rows"},[4],[1]]]
// An offset read from memory is unknown; a scalar load reaches its index.
// CHECK-NEXT: indirect x unknown: a value loaded from memory (tile.load_scalar) at extents.mlir:[[#@LINE+81]]
// CHECK-NEXT: indirect index ["view",["sub",{"arg":"rows"},1],[1],[1]]
// A pointer the kernel does not use reaches nothing.
// CHECK-NEXT: unused x 0
// A view per program, and one sized by a loop variable, are unknown.
// CHECK-NEXT: per_program x unknown: the program's id (tile.program_id) at extents.mlir:[[#@LINE+91]]
// CHECK-NEXT: in_loop x unknown: a loop variable or region argument at extents.mlir:[[#@LINE+102]]
// CHECK-NOT: {{.}}

!t = tensor<4xf32>

tile.kernel @whole(%x: !tile.ptr<f32>, %rows: i32, %cols: i32) {
  %c0 = arith.constant 0 : index
  %r = arith.index_cast %rows : i32 to index
  %c = arith.index_cast %cols : i32 to index
  %v = tile.view %x sizes [%r, %c] strides [%c, 1] : !tile.ptr<f32> -> !tile.view<?x?xf32>
  %t = arith.constant dense<1.0> : tensor<4x4xf32>
  tile.store %t, %v[%c0, %c0] : tensor<4x4xf32>, !tile.view<?x?xf32>
  tile.return
}

tile.kernel @offset(%x: !tile.ptr<f32>, %rows: i32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : i32
  %twice = arith.muli %rows, %c2 : i32
  %off = arith.index_cast %twice : i32 to index
  %v = tile.view %x[%off] sizes [4, 8] strides [8, 1] : !tile.ptr<f32> -> !tile.view<4x8xf32>
  %t = arith.constant dense<1.0> : tensor<4x8xf32>
  tile.store %t, %v[%c0, %c0] : tensor<4x8xf32>, !tile.view<4x8xf32>
  tile.return
}

tile.kernel @unsigned(%x: !tile.ptr<f32>, %rows: i32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : i32
  %half = arith.divui %rows, %c2 : i32
  %n = arith.index_castui %half : i32 to index
  %v = tile.view %x sizes [%n] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = arith.constant dense<1.0> : !t
  tile.store %t, %v[%c0] : !t, !tile.view<?xf32>
  tile.return
}

tile.kernel @programs(%x: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %p = tile.num_programs x
  %n = arith.muli %p, %c4 : index
  %v = tile.view %x sizes [%n] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = arith.constant dense<1.0> : !t
  tile.store %t, %v[%c0] : !t, !tile.view<?xf32>
  tile.return
}

tile.kernel @clamped(%x: !tile.ptr<f32>, %rows: i32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : i32
  %small = arith.cmpi slt, %rows, %c16 : i32
  %m = arith.select %small, %rows, %c16 : i32
  %n = arith.index_cast %m : i32 to index
  %v = tile.view %x sizes [%n] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %t = arith.constant dense<1.0> : !t
  tile.store %t, %v[%c0] : !t, !tile.view<?xf32>
  tile.return
}

tile.kernel @two_views(%x: !tile.ptr<f32>, %rows: i32) {
  %c0 = arith.constant 0 : index
  %r = arith.index_cast %rows : i32 to index
  %a = tile.view %x sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  %b = tile.view %x[%r] sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  %t = tile.load %a[%c0] : !tile.view<4xf32> -> !t
  tile.store %t, %b[%c0] : !t, !tile.view<4xf32>
  tile.return
}

tile.kernel @indirect(%x: !tile.ptr<f32>, %index: !tile.ptr<i32>, %rows: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.index_cast %rows : i32 to index
  %last = arith.subi %r, %c1 : index
  %at = tile.load_scalar %index[%last] : !tile.ptr<i32>
  %off = arith.index_cast %at : i32 to index
  %v = tile.view %x[%off] sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  %t = arith.constant dense<1.0> : !t
  tile.store %t, %v[%c0] : !t, !tile.view<4xf32>
  tile.return
}

tile.kernel @unused(%x: !tile.ptr<f32>) {
  tile.return
}

tile.kernel @per_program(%x: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %p = tile.program_id x
  %off = arith.muli %p, %c4 : index
  %v = tile.view %x[%off] sizes [4] strides [1] : !tile.ptr<f32> -> !tile.view<4xf32>
  %t = arith.constant dense<1.0> : !t
  tile.store %t, %v[%c0] : !t, !tile.view<4xf32>
  tile.return
}

tile.kernel @in_loop(%x: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c1 to %c4 step %c1 {
    %v = tile.view %x sizes [%i] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
    %t = arith.constant dense<1.0> : !t
    tile.store %t, %v[%c0] : !t, !tile.view<?xf32>
  }
  tile.return
}
