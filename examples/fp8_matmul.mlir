// fp8 matmul with per-tensor scales (the fp8 case of Triton's matmul
// tutorial): C [M, N] f32 = a_scale * b_scale * A [M, K] times the
// transpose of B [N, K], A and B OCP e4m3 (B K-contiguous, as fp8 weights
// are stored). One program per BM x BN block of C, K in steps of BK through
// tile.dot_scaled without block scales, which decomposes into an exact
// conversion to bf16 and a bf16 product; the scales multiply the sums once.
// The ALIGN = 16 instances require K and both pointers 16-byte aligned
// (whole 16-byte runs of each row: vector loads and copies, no byte path).
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
// RUN: mla-opt %s --tile-to-primitives | FileCheck %s --check-prefix=PRIMS
//
// On the host and both emulated AMD chips against float64: M = 70, N = 90
// (ragged blocks), K = 200 (a ragged last step), and K = 208 through the
// ALIGN = 16 instance.
// DEFINE: %{args} = --arg c=empty:70x90 --arg m=70 --arg n=90 --arg a_scale=0.5 --arg b_scale=3
// DEFINE: %{k200} = --kernel fp8_matmul --arg a=@%t.a200.npy --arg b=@%t.b200.npy --arg k=200
// DEFINE: %{k208} = --kernel fp8_matmul_align16 --arg a=@%t.a208.npy --arg b=@%t.b208.npy \
// DEFINE:   --arg k=208
// DEFINE: %{check200} = %npytool check-fp8-matmul %t.a200.npy %t.b200.npy --a-scale 0.5 --b-scale 3
// DEFINE: %{check208} = %npytool check-fp8-matmul %t.a208.npy %t.b208.npy --a-scale 0.5 --b-scale 3
// RUN: %npytool random-fp8 %t.a200.npy --shape 70,200 --seed 31
// RUN: %npytool random-fp8 %t.b200.npy --shape 90,200 --seed 32
// RUN: %npytool random-fp8 %t.a208.npy --shape 70,208 --seed 33
// RUN: %npytool random-fp8 %t.b208.npy --shape 90,208 --seed 34
//
// RUN: mla-compile %s --target=host -o %t.so
// RUN: mla-run --target host --module %t.so %{k200} %{args} --save c=%t.c.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: %{check200} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target host --module %t.so %{k208} %{args} --save c=%t.c.npy
// RUN: %{check208} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: not mla-run --target host --module %t.so --kernel fp8_matmul_align16 \
// RUN:   --arg a=@%t.a200.npy --arg b=@%t.b200.npy --arg k=200 %{args} 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALIGNED
//
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so %{k200} %{args} --save c=%t.c.npy
// RUN: %{check200} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.950.so %{k208} %{args} --save c=%t.c.npy
// RUN: %{check208} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so %{k200} %{args} --save c=%t.c.npy
// RUN: %{check200} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.942.so %{k208} %{args} --save c=%t.c.npy
// RUN: %{check208} %t.c.npy | FileCheck %s --check-prefix=PASS
//
// The NVIDIA lowering: e4m3 pairs converted by cvt.rn.f16x2.e4m3x2, the
// copies staged ahead, warpgroup products.
// RUN: mla-compile %s --target=sm_90 --emit=asm \
// RUN:   --instances=fp8_matmul:BM=128:BN=128:ALIGN=16:WAVES=8:STAGES=2 -o - \
// RUN:   | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: tile.kernel @fp8_matmul<BM: i64 = 64, BN: i64 = 64, BK: i64 = 64, ALIGN: i64 = 1, WAVES: i64 = 4, STAGES: i64 = 1>
// CHECK: tile.dot_scaled
// PRIMS-LABEL: tile.kernel @fp8_matmul
// PRIMS: tile.dequant_fp8 {{.*}} -> tensor<64x64xbf16>
// PRIMS: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
// LAUNCH: run: target=host kernel=fp8_matmul grid=2x2x1
// PASS: check: {{.*}} nan=0 PASS
// ALIGNED: mla-run: error: kernel 'fp8_matmul_align16': requires k % 16 == 0, got k = 200
// PTX-LABEL: .visible .entry fp8_matmul_bm128_bn128_align16_waves8_stages2(
// PTX: cp.async.cg.shared.global
// PTX: cvt.rn.f16x2.e4m3x2
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX: st.global

!a_tile = tensor<?x?xf8E4M3FN, #tile.dims<[BM, BK]>>
!b_tile = tensor<?x?xf8E4M3FN, #tile.dims<[BN, BK]>>
!b_tile_t = tensor<?x?xf8E4M3FN, #tile.dims<[BK, BN]>>
!c_tile = tensor<?x?xf32, #tile.dims<[BM, BN]>>

tile.kernel @fp8_matmul<BM: i64 = 64, BN: i64 = 64, BK: i64 = 64, ALIGN: i64 = 1,
                        WAVES: i64 = 4, STAGES: i64 = 1>(
    %a: !tile.ptr<f8E4M3FN>, %b: !tile.ptr<f8E4M3FN>, %c: !tile.ptr<f32>,
    %m: i32, %n: i32, %k: i32, %a_scale: f32, %b_scale: f32)
    attributes {tile.instances = {ALIGN = [1, 16]},
                tile.target_instances = {
                  sm_90 = [{ALIGN = [1, 16]},
                           {BM = [128], BN = [128, 256], ALIGN = [16], WAVES = [8],
                            STAGES = [2, 3]}]},
                tile.launch = {grid = ["cdiv(m, BM)", "cdiv(n, BN)", 1],
                               waves = #tile.param<"WAVES">, stages = #tile.param<"STAGES">,
                               requires = ["k % ALIGN == 0", "a % ALIGN == 0",
                                           "b % ALIGN == 0"]}} {
  %c0 = arith.constant 0 : index
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  %bk = tile.param "BK" : index
  %pid_m = tile.program_id x
  %pid_n = tile.program_id y
  %row0 = arith.muli %pid_m, %bm : index
  %col0 = arith.muli %pid_n, %bn : index
  %mi = arith.index_cast %m : i32 to index
  %ni = arith.index_cast %n : i32 to index
  %ki = arith.index_cast %k : i32 to index
  %av = tile.view %a sizes [%mi, %ki] strides [%ki, 1]
      : !tile.ptr<f8E4M3FN> -> !tile.view<?x?xf8E4M3FN>
  %bv = tile.view %b sizes [%ni, %ki] strides [%ki, 1]
      : !tile.ptr<f8E4M3FN> -> !tile.view<?x?xf8E4M3FN>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : !c_tile
  %acc = scf.for %kk = %c0 to %ki step %bk iter_args(%acc_i = %acc0) -> !c_tile {
    %at = tile.load %av[%row0, %kk] : !tile.view<?x?xf8E4M3FN> -> !a_tile
    %bt = tile.load %bv[%col0, %kk] : !tile.view<?x?xf8E4M3FN> -> !b_tile
    %btt = tile.trans %bt : !b_tile -> !b_tile_t
    %r = tile.dot_scaled %at, %btt, %acc_i : !a_tile, !b_tile_t -> !c_tile
    scf.yield %r : !c_tile
  }
  // The per-tensor scales, once per product.
  %scale = arith.mulf %a_scale, %b_scale : f32
  %scales = tile.splat %scale : !c_tile
  %scaled = arith.mulf %acc, %scales : !c_tile
  %cv = tile.view %c sizes [%mi, %ni] strides [%ni, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  tile.store %scaled, %cv[%row0, %col0] : !c_tile, !tile.view<?x?xf32>
  tile.return
}
