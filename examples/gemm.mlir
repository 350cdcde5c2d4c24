// C[M, N] = A[M, K] * B[K, N], bf16 operands, f32 result: one program per
// 64x64 block of C, a loop over K in steps of 32. Loads past the matrix
// edges read zeros, which add nothing to the product, so any M, N, K work.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
//
// On the host against the float64 product, with no size a multiple of its
// tile: M = 70, N = 100, K = 45.
// RUN: mla-compile %s --target=host -o %t.so
// RUN: %npytool random %t.a.npy --dtype bf16 --shape 70,45 --seed 2
// RUN: %npytool random %t.b.npy --dtype bf16 --shape 45,100 --seed 3
// RUN: mla-run --target host --module %t.so --kernel gemm_bf16 --grid 2,2 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b.npy --arg c=empty:70x100 \
// RUN:   --arg m=70 --arg n=100 --arg k=45 --save c=%t.c.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: %npytool check-gemm %t.a.npy %t.b.npy %t.c.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
//
// The same inputs through the AMD lowering (MFMA, buffer loads, LDS),
// executed by the gfx950 and gfx942 emulators.
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so --kernel gemm_bf16 --grid 2,2 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b.npy --arg c=empty:70x100 \
// RUN:   --arg m=70 --arg n=100 --arg k=45 --save c=%t.c950.npy
// RUN: %npytool check-gemm %t.a.npy %t.b.npy %t.c950.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so --kernel gemm_bf16 --grid 2,2 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b.npy --arg c=empty:70x100 \
// RUN:   --arg m=70 --arg n=100 --arg k=45 --save c=%t.c942.npy
// RUN: %npytool check-gemm %t.a.npy %t.b.npy %t.c942.npy \
// RUN:   | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: tile.kernel @gemm_bf16
// CHECK: scf.for
// CHECK: tile.dot {{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
// CHECK: tile.store
// LAUNCH: run: target=host kernel=gemm_bf16 grid=2x2x1
// HOST: check: rel_fro={{.*}} outside_tol=0/7000 nan=0 PASS
tile.kernel @gemm_bf16(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>,
                       %m: i32, %n: i32, %k: i32)
    attributes {tile.launch = {grid = ["m_blocks", "n_blocks", 1]}} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %bm = tile.program_id x
  %bn = tile.program_id y
  %row = arith.muli %bm, %c64 : index
  %col = arith.muli %bn, %c64 : index
  %rows = arith.index_cast %m : i32 to index
  %cols = arith.index_cast %n : i32 to index
  %depth = arith.index_cast %k : i32 to index

  %av = tile.view %a sizes [%rows, %depth] strides [%depth, 1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %bv = tile.view %b sizes [%depth, %cols] strides [%cols, 1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<64x64xf32>
  %acc = scf.for %kk = %c0 to %depth step %c32 iter_args(%acc_i = %acc0) -> tensor<64x64xf32> {
    %at = tile.load %av[%row, %kk] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
    %bt = tile.load %bv[%kk, %col] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
    %next = tile.dot %at, %bt, %acc_i : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }

  %cv = tile.view %c sizes [%rows, %cols] strides [%cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  tile.store %acc, %cv[%row, %col] : tensor<64x64xf32>, !tile.view<?x?xf32>
  tile.return
}
