// Fused row softmax (Triton's second tutorial) of a [rows, cols] f32
// matrix, for any column count: one program per ROWS rows (the grid rule),
// the row in tiles of BLOCK columns. A row that fits one tile is read once;
// a longer one is read twice, first for its max and the sum of exp(x - max)
// (online: a larger max rescales the sum so far), then to write. Loads pad
// with -inf, so padded columns get probability 0, and rows past the end are
// never stored: no mask is needed.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
// RUN: mla-opt %s --tile-to-primitives | FileCheck %s --check-prefix=PRIMS
//
// On the host and both emulated AMD chips against the float64 softmax: 37
// rows (the third block of 16 is ragged) of 200 columns (one tile) and of
// 1000 (four tiles, the last ragged), and the 4-row, 1024-column instance
// on 5 rows of 3000.
// DEFINE: %{x200} = --arg x=@%t.x200.npy --arg y=empty:37x200 --arg rows=37 --arg cols=200
// DEFINE: %{x1000} = --arg x=@%t.x1000.npy --arg y=empty:37x1000 --arg rows=37 --arg cols=1000
// DEFINE: %{x3000} = --kernel row_softmax_rows4_block1024 \
// DEFINE:   --arg x=@%t.x3000.npy --arg y=empty:5x3000 --arg rows=5 --arg cols=3000
// RUN: %npytool random %t.x200.npy --dtype f32 --shape 37,200 --seed 1 --scale 4
// RUN: %npytool random %t.x1000.npy --dtype f32 --shape 37,1000 --seed 2 --scale 4
// RUN: %npytool random %t.x3000.npy --dtype f32 --shape 5,3000 --seed 3 --scale 4
// RUN: mla-compile %s --target=host -o %t.so
// RUN: mla-run --target host --module %t.so --kernel row_softmax %{x200} \
// RUN:   --save y=%t.y.npy | FileCheck %s --check-prefix=LAUNCH
// RUN: %npytool check-softmax %t.x200.npy %t.y.npy | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target host --module %t.so --kernel row_softmax %{x1000} --save y=%t.y.npy
// RUN: %npytool check-softmax %t.x1000.npy %t.y.npy | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target host --module %t.so %{x3000} --save y=%t.y.npy
// RUN: %npytool check-softmax %t.x3000.npy %t.y.npy | FileCheck %s --check-prefix=HOST
//
// The AMD lowering (xor-shuffle reductions, exp2) under the emulators.
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so --kernel row_softmax %{x200} --save y=%t.y.npy
// RUN: %npytool check-softmax %t.x200.npy %t.y.npy | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target emu --module %t.950.so --kernel row_softmax %{x1000} --save y=%t.y.npy
// RUN: %npytool check-softmax %t.x1000.npy %t.y.npy | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target emu --module %t.950.so %{x3000} --save y=%t.y.npy
// RUN: %npytool check-softmax %t.x3000.npy %t.y.npy | FileCheck %s --check-prefix=HOST
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so --kernel row_softmax %{x200} --save y=%t.y.npy
// RUN: %npytool check-softmax %t.x200.npy %t.y.npy | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target emu --module %t.942.so --kernel row_softmax %{x1000} --save y=%t.y.npy
// RUN: %npytool check-softmax %t.x1000.npy %t.y.npy | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target emu --module %t.942.so %{x3000} --save y=%t.y.npy
// RUN: %npytool check-softmax %t.x3000.npy %t.y.npy | FileCheck %s --check-prefix=HOST
//
// The NVIDIA lowering (shuffles over 32-lane warps, ex2.approx) compiles to
// PTX; test/Target/NVPTX/examples-cuda.test runs it where a GPU is.
// RUN: mla-compile %s --target=sm_90 --emit=asm -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: tile.kernel @row_softmax<ROWS: i64 = 16, BLOCK: i64 = 256, WAVES: i64 = 4>
// CHECK: scf.if
// CHECK: tile.reduce max
// CHECK: tile.reduce sum
// CHECK: tile.store
// CHECK: scf.for
// CHECK: arith.maximumf
// CHECK: scf.for
// CHECK: tile.store
// PRIMS-LABEL: tile.kernel @row_softmax
// PRIMS: tile.load {{.*}} pad
// LAUNCH: run: target=host kernel=row_softmax grid=3x1x1
// HOST: check: {{.*}} nan=0 PASS
// PTX-LABEL: .visible .entry row_softmax(
// PTX: shfl.sync.bfly.b32
// PTX: ex2.approx.f32
// PTX: st.global

!tile = tensor<?x?xf32, #tile.dims<[ROWS, BLOCK]>>
!col = tensor<?xf32, #tile.dims<[ROWS]>>

tile.kernel @row_softmax<ROWS: i64 = 16, BLOCK: i64 = 256, WAVES: i64 = 4>(
    %x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %rows: i32, %cols: i32)
    attributes {tile.instances = [{ROWS = [16], BLOCK = [256]},
                                  {ROWS = [4], BLOCK = [1024]}],
                tile.target_instances = {
                  sm_90 = [{ROWS = [16], BLOCK = [256]},
                           {ROWS = [8], BLOCK = [256], WAVES = [2, 4]},
                           {ROWS = [32], BLOCK = [256], WAVES = [8]},
                           {ROWS = [4], BLOCK = [1024], WAVES = [4, 8]},
                           {ROWS = [8], BLOCK = [1024], WAVES = [8]},
                           {ROWS = [1], BLOCK = [4096], WAVES = [8]}]},
                tile.launch = {grid = ["cdiv(rows, ROWS)", 1, 1],
                               waves = #tile.param<"WAVES">}} {
  %c0 = arith.constant 0 : index
  %n_rows_per_block = tile.param "ROWS" : index
  %block = tile.param "BLOCK" : index
  %pid = tile.program_id x
  %row = arith.muli %pid, %n_rows_per_block : index
  %n_rows = arith.index_cast %rows : i32 to index
  %n_cols = arith.index_cast %cols : i32 to index
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %in = tile.view %x sizes [%n_rows, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  %out = tile.view %y sizes [%n_rows, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>

  // A row that fits one tile is read once.
  %fits = arith.cmpi sle, %n_cols, %block : index
  scf.if %fits {
    %t = tile.load %in[%row, %c0] pad %neg_inf : !tile.view<?x?xf32> -> !tile
    %max = tile.reduce max %t dim 1 : !tile -> !col
    %max_b = tile.broadcast %max dims [1] : !col -> !tile
    %shifted = arith.subf %t, %max_b : !tile
    %e = math.exp %shifted : !tile
    %sum = tile.reduce sum %e dim 1 : !tile -> !col
    %sum_b = tile.broadcast %sum dims [1] : !col -> !tile
    %p = arith.divf %e, %sum_b : !tile
    tile.store %p, %out[%row, %c0] : !tile, !tile.view<?x?xf32>
  } else {
    // Each row's max and sum of exp(x - max), updated tile by tile: a new
    // max rescales the sum so far by exp(old max - new max).
    %max0 = tile.splat %neg_inf : !col
    %sum0 = tile.splat %zero : !col
    %max, %sum = scf.for %c = %c0 to %n_cols step %block
        iter_args(%m = %max0, %s = %sum0) -> (!col, !col) {
      %t = tile.load %in[%row, %c] pad %neg_inf : !tile.view<?x?xf32> -> !tile
      %tile_max = tile.reduce max %t dim 1 : !tile -> !col
      %m_next = arith.maximumf %m, %tile_max : !col
      %m_b = tile.broadcast %m_next dims [1] : !col -> !tile
      %d = arith.subf %t, %m_b : !tile
      %e = math.exp %d : !tile
      %tile_sum = tile.reduce sum %e dim 1 : !tile -> !col
      %dm = arith.subf %m, %m_next : !col
      %rescale = math.exp %dm : !col
      %kept = arith.mulf %s, %rescale : !col
      %s_next = arith.addf %kept, %tile_sum : !col
      scf.yield %m_next, %s_next : !col, !col
    }
    %max_b = tile.broadcast %max dims [1] : !col -> !tile
    %sum_b = tile.broadcast %sum dims [1] : !col -> !tile
    scf.for %c = %c0 to %n_cols step %block {
      %t = tile.load %in[%row, %c] pad %neg_inf : !tile.view<?x?xf32> -> !tile
      %shifted = arith.subf %t, %max_b : !tile
      %e = math.exp %shifted : !tile
      %p = arith.divf %e, %sum_b : !tile
      tile.store %p, %out[%row, %c] : !tile, !tile.view<?x?xf32>
    }
  }
  tile.return
}
