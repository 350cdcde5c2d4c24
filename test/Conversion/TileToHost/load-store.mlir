// RUN: mla-opt %s --convert-tile-to-host -cse -split-input-file | FileCheck %s

// A view is its first element's address plus sizes and strides; a load is
// a tensor.generate that reads an element only where it is inside the view
// and the mask, and takes the padding elsewhere. bf16 travels as i16.

// CHECK-LABEL: func.func @load
// CHECK: %[[SLOT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[SRC:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[ROWS:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[OFF:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[SRC]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i16
// CHECK: %[[T:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK: %[[R:.*]] = arith.addi %[[ROW0:.*]], %[[I]] : index
// CHECK: %[[RIN:.*]] = arith.cmpi ult, %[[R]], %[[ROWS]] : index
// CHECK: %[[C:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK: %[[CIN:.*]] = arith.cmpi ult, %[[C]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.andi %[[RIN]], %[[CIN]] : i1
// CHECK: %[[MBIT:.*]] = tensor.extract %[[MASK:.*]][%[[I]]] : tensor<4xi1>
// CHECK: %[[OK:.*]] = arith.andi %[[IN]], %[[MBIT]] : i1
// CHECK: %[[V:.*]] = scf.if %[[OK]] -> (i16) {
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i16
// CHECK: %[[BITS:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> i16
// CHECK: scf.yield %[[BITS]] : i16
// CHECK: } else {
// CHECK: %[[PADBITS:.*]] = arith.bitcast %[[PAD:.*]] : bf16 to i16
// CHECK: scf.yield %[[PADBITS]] : i16
// CHECK: %[[E:.*]] = arith.bitcast %[[V]] : i16 to bf16
// CHECK: tensor.yield %[[E]] : bf16
// CHECK: } : tensor<4x8xbf16>
tile.kernel @load(%src: !tile.ptr<bf16>, %n: i32, %pad: f32) {
  %c0 = arith.constant 0 : index
  %p = arith.truncf %pad : f32 to bf16
  %rows = arith.index_cast %n : i32 to index
  %row0 = tile.program_id x
  %v = tile.view %src[%row0] sizes [%rows, 8] strides [8, 1]
      : !tile.ptr<bf16> -> !tile.view<?x8xbf16>
  %m = arith.constant dense<[true, true, false, true]> : tensor<4xi1>
  %t = tile.load %v[%row0, %c0] mask %m : tensor<4xi1> pad %p
      : !tile.view<?x8xbf16> -> tensor<4x8xbf16>
  tile.store %t, %v[%c0, %c0] : tensor<4x8xbf16>, !tile.view<?x8xbf16>
  tile.return
}

// -----

// A store is a loop nest of guarded stores; fp8 travels as i8.
// CHECK-LABEL: func.func @store
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT: scf.for %[[J:.*]] = %[[C0]] to %[[C16]] step %[[C1]] {
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: scf.if %[[OK]] {
// CHECK: %[[E:.*]] = tensor.extract %[[VAL:.*]][%[[I]], %[[J]]] : tensor<2x16xf8E4M3FN>
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[BITS:.*]] = arith.bitcast %[[E]] : f8E4M3FN to i8
// CHECK: llvm.store %[[BITS]], %[[ADDR]] : i8, !llvm.ptr
tile.kernel @store(%dst: !tile.ptr<f8E4M3FN>, %n: i32) {
  %c0 = arith.constant 0 : index
  %cols = arith.index_cast %n : i32 to index
  %x = arith.constant dense<1.0> : tensor<2x16xf8E4M3FN>
  %w = tile.view %dst sizes [2, %cols] strides [%cols, 1]
      : !tile.ptr<f8E4M3FN> -> !tile.view<2x?xf8E4M3FN>
  tile.store %x, %w[%c0, %c0] : tensor<2x16xf8E4M3FN>, !tile.view<2x?xf8E4M3FN>
  tile.return
}

// -----

// CHECK-LABEL: func.func @scalar
// CHECK: %[[SLOT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[P:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[OFF:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[P]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[BITS:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> i8
// CHECK: arith.bitcast %[[BITS]] : i8 to f8E8M0FNU
tile.kernel @scalar(%scales: !tile.ptr<f8E8M0FNU>) {
  %i = tile.program_id y
  %s = tile.load_scalar %scales[%i] : !tile.ptr<f8E8M0FNU>
  %t = tile.splat %s : tensor<4xf8E8M0FNU>
  tile.return
}

// -----

// Views keep working when they flow through control flow.
// CHECK-LABEL: func.func @view_through_if
// CHECK: %[[SEL:.*]]:5 = scf.if %{{.*}} -> (!llvm.ptr, index, index, index, index) {
// CHECK: tensor.generate
// CHECK: arith.cmpi ult, %{{.*}}, %[[SEL]]#1 : index
tile.kernel @view_through_if(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %rows = arith.index_cast %n : i32 to index
  %va = tile.view %a sizes [%rows, 4] strides [4, 1] : !tile.ptr<f32> -> !tile.view<?x4xf32>
  %vb = tile.view %b sizes [%rows, 4] strides [4, 1] : !tile.ptr<f32> -> !tile.view<?x4xf32>
  %cond = arith.cmpi eq, %rows, %c0 : index
  %v = scf.if %cond -> !tile.view<?x4xf32> {
    scf.yield %va : !tile.view<?x4xf32>
  } else {
    scf.yield %vb : !tile.view<?x4xf32>
  }
  %t = tile.load %v[%c0, %c0] : !tile.view<?x4xf32> -> tensor<8x4xf32>
  tile.store %t, %va[%c0, %c0] : tensor<8x4xf32>, !tile.view<?x4xf32>
  tile.return
}
