// Row softmax of a [rows, cols] f32 matrix with cols <= 256 (a launch with
// more is refused: `requires`): one program per block of 16 rows (the grid
// rule). Padding the load with -inf makes the ragged last
// block and short rows correct without any mask: padded columns get
// probability 0 and rows past the end are never stored.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
// RUN: mla-opt %s --tile-to-primitives | FileCheck %s --check-prefix=PRIMS
//
// On the host against the float64 softmax: 37 rows (the third block is
// ragged) of 200 columns.
// RUN: mla-compile %s --target=host -o %t.so
// RUN: %npytool random %t.x.npy --dtype f32 --shape 37,200 --seed 1 --scale 4
// RUN: mla-run --target host --module %t.so --kernel row_softmax \
// RUN:   --arg x=@%t.x.npy --arg y=empty:37x200 --arg rows=37 --arg cols=200 \
// RUN:   --save y=%t.y.npy | FileCheck %s --check-prefix=LAUNCH
// RUN: %npytool check-softmax %t.x.npy %t.y.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
//
// The AMD lowering (xor-shuffle reductions, exp2) under the emulators.
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so --kernel row_softmax \
// RUN:   --arg x=@%t.x.npy --arg y=empty:37x200 --arg rows=37 --arg cols=200 \
// RUN:   --save y=%t.y950.npy
// RUN: %npytool check-softmax %t.x.npy %t.y950.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so --kernel row_softmax \
// RUN:   --arg x=@%t.x.npy --arg y=empty:37x200 --arg rows=37 --arg cols=200 \
// RUN:   --save y=%t.y942.npy
// RUN: %npytool check-softmax %t.x.npy %t.y942.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
//
// The NVIDIA lowering (shuffles over 32-lane warps, ex2.approx) compiles to
// PTX; test/Target/NVPTX/examples-cuda.test runs it where a GPU is.
// RUN: mla-compile %s --target=sm_90 --emit=asm -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: tile.kernel @row_softmax
// CHECK: tile.reduce max
// CHECK: tile.reduce sum
// CHECK: tile.store
// PRIMS-LABEL: tile.kernel @row_softmax
// PRIMS: tile.load {{.*}} pad
// LAUNCH: run: target=host kernel=row_softmax grid=3x1x1
// HOST: check: rel_fro={{.*}} outside_tol=0/7400 nan=0 PASS
// PTX-LABEL: .visible .entry row_softmax(
// PTX: shfl.sync.bfly.b32
// PTX: ex2.approx.f32
// PTX: st.global
tile.kernel @row_softmax(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %rows: i32, %cols: i32)
    attributes {tile.launch = {grid = ["cdiv(rows, 16)", 1, 1],
                               requires = ["cols <= 256"]}} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %block = tile.program_id x
  %row = arith.muli %block, %c16 : index
  %n_rows = arith.index_cast %rows : i32 to index
  %n_cols = arith.index_cast %cols : i32 to index
  %neg_inf = arith.constant 0xFF800000 : f32

  %in = tile.view %x sizes [%n_rows, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  %t = tile.load %in[%row, %c0] pad %neg_inf : !tile.view<?x?xf32> -> tensor<16x256xf32>
  %max = tile.reduce max %t dim 1 : tensor<16x256xf32> -> tensor<16xf32>
  %max_b = tile.broadcast %max dims [1] : tensor<16xf32> -> tensor<16x256xf32>
  %shifted = arith.subf %t, %max_b : tensor<16x256xf32>
  %e = math.exp %shifted : tensor<16x256xf32>
  %sum = tile.reduce sum %e dim 1 : tensor<16x256xf32> -> tensor<16xf32>
  %sum_b = tile.broadcast %sum dims [1] : tensor<16xf32> -> tensor<16x256xf32>
  %p = arith.divf %e, %sum_b : tensor<16x256xf32>

  %out = tile.view %y sizes [%n_rows, %n_cols] strides [%n_cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  tile.store %p, %out[%row, %c0] : tensor<16x256xf32>, !tile.view<?x?xf32>
  tile.return
}
