// Layer norm forward (Triton's fourth tutorial): each row of x [rows, cols]
// f32 normalized to mean 0 and variance 1, then scaled by w [cols] and
// shifted by b [cols]: y = (x - mean) / sqrt(var + eps) * w + b. One
// program per ROWS rows (the grid rule), for any column count. Rows that
// fit one tile of BLOCK columns are read once; longer ones go by in tiles
// three times, summing, then summing the squared deviations (masked to the
// row's columns, since a padded element would add mean^2), then writing.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
//
// On the host and both emulated AMD chips against the float64 layer norm:
// 37 rows of 1000 columns (a ragged fourth tile of the default instance),
// and the same rows by the 4-row, 1024-column instance (one tile).
// RUN: mla-compile %s --target=host -o %t.so
// RUN: %npytool random %t.x.npy --dtype f32 --shape 37,1000 --seed 3 --scale 2
// RUN: %npytool random %t.w.npy --dtype f32 --shape 1000 --seed 4
// RUN: %npytool random %t.b.npy --dtype f32 --shape 1000 --seed 5
// DEFINE: %{args} = --kernel layer_norm --arg x=@%t.x.npy --arg w=@%t.w.npy \
// DEFINE:   --arg b=@%t.b.npy --arg y=empty:37x1000 --arg rows=37 --arg cols=1000 \
// DEFINE:   --arg eps=1e-5
// DEFINE: %{wide} = --kernel layer_norm_rows4_block1024 --arg x=@%t.x.npy \
// DEFINE:   --arg w=@%t.w.npy --arg b=@%t.b.npy --arg y=empty:37x1000 --arg rows=37 \
// DEFINE:   --arg cols=1000 --arg eps=1e-5
// RUN: mla-run --target host --module %t.so %{args} --save y=%t.y.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
// RUN: mla-run --target host --module %t.so %{wide} --save y=%t.y.npy
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so %{args} --save y=%t.y950.npy
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y950.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
// RUN: mla-run --target emu --module %t.950.so %{wide} --save y=%t.y950.npy
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y950.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so %{args} --save y=%t.y942.npy
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y942.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
// RUN: mla-run --target emu --module %t.942.so %{wide} --save y=%t.y942.npy
// RUN: %npytool check-layer-norm %t.x.npy %t.w.npy %t.b.npy %t.y942.npy --eps 1e-5 \
// RUN:   | FileCheck %s --check-prefix=NORM
//
// The NVIDIA lowering compiles to PTX.
// RUN: mla-compile %s --target=sm_90 --emit=asm -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: tile.kernel @layer_norm<ROWS: i64 = 1, BLOCK: i64 = 256, WAVES: i64 = 4>
// CHECK: scf.if
// CHECK: tile.reduce sum
// CHECK: math.rsqrt
// CHECK: } else {
// CHECK: scf.for
// CHECK: tile.reduce sum
// LAUNCH: run: target=host kernel=layer_norm grid=37x1x1
// NORM: check: rel_fro={{.*}} outside_tol=0/37000 nan=0 PASS
// PTX-LABEL: .visible .entry layer_norm(
// PTX: shfl.sync.bfly.b32
// PTX: sqrt.rn.f32
// PTX: st.global

!tile = tensor<?x?xf32, #tile.dims<[ROWS, BLOCK]>>
!mask = tensor<?x?xi1, #tile.dims<[ROWS, BLOCK]>>
!col = tensor<?xf32, #tile.dims<[ROWS]>>
!vec = tensor<?xf32, #tile.dims<[BLOCK]>>
!ids = tensor<?xindex, #tile.dims<[BLOCK]>>
!flags = tensor<?xi1, #tile.dims<[BLOCK]>>

tile.kernel @layer_norm<ROWS: i64 = 1, BLOCK: i64 = 256, WAVES: i64 = 4>(
    %x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %w: !tile.ptr<f32>,
    %b: !tile.ptr<f32>, %rows: i32, %cols: i32, %eps: f32)
    attributes {tile.instances = [{ROWS = [1, 16], BLOCK = [256]},
                                  {ROWS = [4], BLOCK = [1024]}],
                tile.target_instances = {
                  sm_90 = [{ROWS = [1, 16], BLOCK = [256]},
                           {ROWS = [8], BLOCK = [256], WAVES = [2, 4]},
                           {ROWS = [32], BLOCK = [256], WAVES = [8]},
                           {ROWS = [4], BLOCK = [1024], WAVES = [4, 8]},
                           {ROWS = [8], BLOCK = [1024], WAVES = [8]},
                           {ROWS = [1], BLOCK = [4096], WAVES = [8]}]},
                tile.launch = {grid = ["cdiv(rows, ROWS)", 1, 1],
                               waves = #tile.param<"WAVES">}} {
  %c0 = arith.constant 0 : index
  %rows_per_program = tile.param "ROWS" : index
  %block = tile.param "BLOCK" : index
  %pid = tile.program_id x
  %row = arith.muli %pid, %rows_per_program : index
  %n_rows = arith.index_cast %rows : i32 to index
  %n_cols = arith.index_cast %cols : i32 to index
  %in = tile.view %x sizes [%n_rows, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  %out = tile.view %y sizes [%n_rows, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  %wv = tile.view %w sizes [%n_cols] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %bv = tile.view %b sizes [%n_cols] strides [1] : !tile.ptr<f32> -> !tile.view<?xf32>
  %zero = arith.constant 0.0 : f32
  %zeros = tile.splat %zero : !tile
  %count = arith.sitofp %cols : i32 to f32
  %counts = tile.splat %count : !col
  %epss = tile.splat %eps : !col
  %limit = tile.splat %n_cols : !ids

  %fits = arith.cmpi sle, %n_cols, %block : index
  scf.if %fits {
    // One read: padded elements load as 0 and add nothing to the sum.
    %t = tile.load %in[%row, %c0] : !tile.view<?x?xf32> -> !tile
    %sum = tile.reduce sum %t dim 1 : !tile -> !col
    %mean = arith.divf %sum, %counts : !col
    %mean_b = tile.broadcast %mean dims [1] : !col -> !tile
    %ids = tile.range from %c0 : !ids
    %inside = arith.cmpi slt, %ids, %limit : !ids
    %inside_b = tile.broadcast %inside dims [0] : !flags -> !mask
    %d = arith.subf %t, %mean_b : !tile
    %d0 = arith.select %inside_b, %d, %zeros : !mask, !tile
    %sq = arith.mulf %d0, %d0 : !tile
    %sq_sum = tile.reduce sum %sq dim 1 : !tile -> !col
    %var = arith.divf %sq_sum, %counts : !col
    %var_eps = arith.addf %var, %epss : !col
    %rstd = math.rsqrt %var_eps : !col
    %rstd_b = tile.broadcast %rstd dims [1] : !col -> !tile
    %wt = tile.load %wv[%c0] : !tile.view<?xf32> -> !vec
    %bt = tile.load %bv[%c0] : !tile.view<?xf32> -> !vec
    %wt_b = tile.broadcast %wt dims [0] : !vec -> !tile
    %bt_b = tile.broadcast %bt dims [0] : !vec -> !tile
    %n = arith.mulf %d, %rstd_b : !tile
    %s = arith.mulf %n, %wt_b : !tile
    %o = arith.addf %s, %bt_b : !tile
    tile.store %o, %out[%row, %c0] : !tile, !tile.view<?x?xf32>
  } else {
    %sums = scf.for %c = %c0 to %n_cols step %block iter_args(%acc = %zeros) -> !tile {
      %t = tile.load %in[%row, %c] : !tile.view<?x?xf32> -> !tile
      %next = arith.addf %acc, %t : !tile
      scf.yield %next : !tile
    }
    %sum = tile.reduce sum %sums dim 1 : !tile -> !col
    %mean = arith.divf %sum, %counts : !col
    %mean_b = tile.broadcast %mean dims [1] : !col -> !tile

    %squares = scf.for %c = %c0 to %n_cols step %block iter_args(%acc = %zeros) -> !tile {
      %t = tile.load %in[%row, %c] : !tile.view<?x?xf32> -> !tile
      %ids = tile.range from %c : !ids
      %inside = arith.cmpi slt, %ids, %limit : !ids
      %inside_b = tile.broadcast %inside dims [0] : !flags -> !mask
      %d = arith.subf %t, %mean_b : !tile
      %d0 = arith.select %inside_b, %d, %zeros : !mask, !tile
      %sq = arith.mulf %d0, %d0 : !tile
      %next = arith.addf %acc, %sq : !tile
      scf.yield %next : !tile
    }
    %sq_sum = tile.reduce sum %squares dim 1 : !tile -> !col
    %var = arith.divf %sq_sum, %counts : !col
    %var_eps = arith.addf %var, %epss : !col
    %rstd = math.rsqrt %var_eps : !col
    %rstd_b = tile.broadcast %rstd dims [1] : !col -> !tile

    scf.for %c = %c0 to %n_cols step %block {
      %t = tile.load %in[%row, %c] : !tile.view<?x?xf32> -> !tile
      %wt = tile.load %wv[%c] : !tile.view<?xf32> -> !vec
      %bt = tile.load %bv[%c] : !tile.view<?xf32> -> !vec
      %wt_b = tile.broadcast %wt dims [0] : !vec -> !tile
      %bt_b = tile.broadcast %bt dims [0] : !vec -> !tile
      %d = arith.subf %t, %mean_b : !tile
      %n = arith.mulf %d, %rstd_b : !tile
      %s = arith.mulf %n, %wt_b : !tile
      %o = arith.addf %s, %bt_b : !tile
      tile.store %o, %out[%row, %c] : !tile, !tile.view<?x?xf32>
    }
  }
  tile.return
}
