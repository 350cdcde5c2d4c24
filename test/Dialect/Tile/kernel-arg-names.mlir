// Launchers bind kernel arguments by name, so the SSA names are kept, also
// through the generic form.
// RUN: mla-opt %s | FileCheck %s
// RUN: mla-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mla-opt %s --mlir-print-op-generic | mla-opt | FileCheck %s

// CHECK: tile.kernel @named(%q: !tile.ptr<bf16>, %kv_scale: !tile.ptr<f32>, %sm_scale: f32)
// CHECK: tile.load_scalar %kv_scale
// GENERIC: arg_names = ["q", "kv_scale", "sm_scale"]
tile.kernel @named(%q: !tile.ptr<bf16>, %kv_scale: !tile.ptr<f32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %s = tile.load_scalar %kv_scale[%c0] : !tile.ptr<f32>
  tile.return
}

// Numbered SSA names are not names: those arguments get positional ones.
// CHECK: tile.kernel @numbered(%arg0: i32, %n: i32)
// GENERIC: arg_names = ["arg0", "n"]
tile.kernel @numbered(%0: i32, %n: i32) {
  tile.return
}
