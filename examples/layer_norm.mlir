// Layer norm forward (Triton's fourth tutorial): each row of x [rows, cols]
// f32 normalized to mean 0 and variance 1, then scaled by w [cols] and
// shifted by b [cols]: y = (x - mean) / sqrt(var + eps) * w + b. One
// program per row (the grid rule is rows), for any column count: the row
// goes by in tiles of BLOCK columns three times, summing, then summing the
// squared deviations (masked to the row's columns, since a padded element
// would add mean^2), then writing.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
//
// On the host and both emulated AMD chips against the float64 layer norm:
// 37 rows of 1000 columns (a ragged fourth tile).
// RUN: mla-compile %s --target=host -o %t.so
// RUN: %npytool random %t.x.npy --dtype f32 --shape 37,1000 --seed 3 --scale 2
// RUN: %npytool random %t.w.npy --dtype f32 --shape 1000 --seed 4
// RUN: %npytool random %t.b.npy --dtype f32 --shape 1000 --seed 5
// DEFINE: %{args} = --kernel layer_norm --arg x=@%t.x.npy --arg w=@%t.w.npy \
// DEFINE:   --arg b=@%t.b.npy --arg y=empty:37x1000 --arg rows=37 --arg cols=1000 \
// DEFINE:   --arg eps=1e-5
// RUN: mla-run --target host --module %t.so %{args} --save y=%t.y.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so %{args} --save y=%t.y950.npy
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y950.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so %{args} --save y=%t.y942.npy
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y942.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
//
// The NVIDIA lowering compiles to PTX.
// RUN: mla-compile %s --target=sm_90 --emit=asm -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: tile.kernel @layer_norm<BLOCK: i64 = 256>
// CHECK: scf.for
// CHECK: tile.reduce sum
// CHECK: math.sqrt
// LAUNCH: run: target=host kernel=layer_norm grid=37x1x1
// NORM: check: rel_fro={{.*}} outside_tol=0/37000 nan=0 PASS
// PTX-LABEL: .visible .entry layer_norm(
// PTX: shfl.sync.bfly.b32
// PTX: sqrt.rn.f32
// PTX: st.global

!row = tensor<1x?xf32, #tile.dims<[1, BLOCK]>>
!mask = tensor<1x?xi1, #tile.dims<[1, BLOCK]>>
!ids = tensor<?xindex, #tile.dims<[BLOCK]>>
!flags = tensor<?xi1, #tile.dims<[BLOCK]>>

tile.kernel @layer_norm<BLOCK: i64 = 256>(
    %x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %w: !tile.ptr<f32>,
    %b: !tile.ptr<f32>, %rows: i32, %cols: i32, %eps: f32)
    attributes {tile.launch = {grid = ["rows", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %block = tile.param "BLOCK" : index
  %row = tile.program_id x
  %n_rows = arith.index_cast %rows : i32 to index
  %n_cols = arith.index_cast %cols : i32 to index
  %in = tile.view %x sizes [%n_rows, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  %out = tile.view %y sizes [%n_rows, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  %wv = tile.view %w sizes [1, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<1x?xf32>
  %bv = tile.view %b sizes [1, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<1x?xf32>
  %zero = arith.constant 0.0 : f32
  %zeros = tile.splat %zero : !row
  %count = arith.sitofp %cols : i32 to f32

  // Mean: padded elements load as 0 and add nothing.
  %sums = scf.for %c = %c0 to %n_cols step %block iter_args(%acc = %zeros) -> !row {
    %t = tile.load %in[%row, %c] : !tile.view<?x?xf32> -> !row
    %next = arith.addf %acc, %t : !row
    scf.yield %next : !row
  }
  %sum = tile.reduce sum %sums dim 1 : !row -> tensor<1xf32>
  %counts = tile.splat %count : tensor<1xf32>
  %mean = arith.divf %sum, %counts : tensor<1xf32>
  %mean_b = tile.broadcast %mean dims [1] : tensor<1xf32> -> !row

  // Variance about the mean, masked to the row's columns.
  %limit = tile.splat %n_cols : !ids
  %squares = scf.for %c = %c0 to %n_cols step %block iter_args(%acc = %zeros) -> !row {
    %t = tile.load %in[%row, %c] : !tile.view<?x?xf32> -> !row
    %ids = tile.range from %c : !ids
    %inside = arith.cmpi slt, %ids, %limit : !ids
    %inside_b = tile.broadcast %inside dims [0] : !flags -> !mask
    %d = arith.subf %t, %mean_b : !row
    %d0 = arith.select %inside_b, %d, %zeros : !mask, !row
    %sq = arith.mulf %d0, %d0 : !row
    %next = arith.addf %acc, %sq : !row
    scf.yield %next : !row
  }
  %sq_sum = tile.reduce sum %squares dim 1 : !row -> tensor<1xf32>
  %var = arith.divf %sq_sum, %counts : tensor<1xf32>
  %epss = tile.splat %eps : tensor<1xf32>
  %var_eps = arith.addf %var, %epss : tensor<1xf32>
  %std = math.sqrt %var_eps : tensor<1xf32>
  %std_b = tile.broadcast %std dims [1] : tensor<1xf32> -> !row

  // Normalize, scale and shift.
  scf.for %c = %c0 to %n_cols step %block {
    %t = tile.load %in[%row, %c] : !tile.view<?x?xf32> -> !row
    %wt = tile.load %wv[%c0, %c] : !tile.view<1x?xf32> -> !row
    %bt = tile.load %bv[%c0, %c] : !tile.view<1x?xf32> -> !row
    %d = arith.subf %t, %mean_b : !row
    %n = arith.divf %d, %std_b : !row
    %s = arith.mulf %n, %wt : !row
    %o = arith.addf %s, %bt : !row
    tile.store %o, %out[%row, %c] : !row, !tile.view<?x?xf32>
  }
  tile.return
}
