// C[M, N] = A[M, K] * B[K, N], bf16 operands, f32 result: one program per
// BM x BN block of C, a loop over K in steps of BK. Loads past the matrix
// edges read zeros, which add nothing to the product, so any M, N, K work.
//
// The block sizes are compile-time parameters: the tile types name them
// (#tile.dims) and the offsets read them (tile.param). The program provides
// the default 64x64x32 instance (@gemm_bf16) and one with 16-row blocks for
// short matrices (@gemm_bf16_bm16); sm_90 also gets 128x128x64 blocks
// (@gemm_bf16_bm128_bn128_bk64), and for N and K multiples of 8 instances
// that copy A and B into shared memory ahead: with three stages,
// 128x256x64 and 128x128x64 blocks on two warpgroups
// (@gemm_bf16_bm128_bn256_bk64_align8_waves8_stages3 and
// @gemm_bf16_bm128_bn128_bk64_align8_waves8_stages3), whose products stay
// in flight from one K step into the next, for 4096-cube and larger
// products, and 16x32x128 ones with four stages
// (@gemm_bf16_bm16_bn32_bk128_align8_stages4) for 16-row ones, which
// mla.Autotune chose on the H200 and the H100
// (bench/results/2026-12-06-h200-gemm-async.md,
// 2026-12-06-h100-tutorial-kernels.md, 2026-12-06-h100-gemm-skinny.md).
// `mla-compile --instances` picks others.
// gfx950 also gets 256x256x64 blocks on 8 waves with two stages
// (@gemm_bf16_bm256_bn256_bk64_align8_waves8_stages2), its loop at most 2
// other instructions per MFMA.
// Each also comes for N and K multiples of 8 and A and B 16-byte aligned
// (ALIGN = 8: @gemm_bf16_align8, @gemm_bf16_bm16_align8), which its launch
// requires: every 16-byte run of a row of A or B is then inside the matrix
// or outside it as a whole, so the GPU lowering loads it as one vector
// with no element-by-element path beside it (gfx950's K loop: 39
// instructions for 4 MFMAs, against 192), and sm_90 copies it with
// cp.async with no test of the source's alignment.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
// RUN: mla-opt %s --tile-specialize | FileCheck %s --check-prefix=SPEC
//
// On the host against the float64 product, with no size a multiple of its
// tile: M = 70, N = 100, K = 45, with each instance. The grid is the
// program's rule, one program per block of C: cdiv(m, BM) x cdiv(n, BN).
// RUN: mla-compile %s --target=host -o %t.so
// RUN: %npytool random %t.a.npy --dtype bf16 --shape 70,45 --seed 2
// RUN: %npytool random %t.b.npy --dtype bf16 --shape 45,100 --seed 3
// RUN: mla-run --target host --module %t.so --kernel gemm_bf16 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b.npy --arg c=empty:70x100 \
// RUN:   --arg m=70 --arg n=100 --arg k=45 --save c=%t.c.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: %npytool check-gemm %t.a.npy %t.b.npy %t.c.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target host --module %t.so --kernel gemm_bf16_bm16 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b.npy --arg c=empty:70x100 \
// RUN:   --arg m=70 --arg n=100 --arg k=45 --save c=%t.c16.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH16
// RUN: %npytool check-gemm %t.a.npy %t.b.npy %t.c16.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
//
// The same inputs through the AMD lowering (MFMA, buffer loads, LDS),
// executed by the gfx950 and gfx942 emulators.
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so --kernel gemm_bf16 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b.npy --arg c=empty:70x100 \
// RUN:   --arg m=70 --arg n=100 --arg k=45 --save c=%t.c950.npy
// RUN: %npytool check-gemm %t.a.npy %t.b.npy %t.c950.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so --kernel gemm_bf16 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b.npy --arg c=empty:70x100 \
// RUN:   --arg m=70 --arg n=100 --arg k=45 --save c=%t.c942.npy
// RUN: %npytool check-gemm %t.a.npy %t.b.npy %t.c942.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target emu --module %t.942.so --kernel gemm_bf16_bm16 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b.npy --arg c=empty:70x100 \
// RUN:   --arg m=70 --arg n=100 --arg k=45 --save c=%t.c942_16.npy
// RUN: %npytool check-gemm %t.a.npy %t.b.npy %t.c942_16.npy \
// RUN:   | FileCheck %s --check-prefix=HOST
//
// The ALIGN = 8 instances on M = 70, N = 104, K = 48 (a partial K tile and
// a partial column block, in whole vectors), on the host and both emulated
// chips; a K that 8 does not divide is refused before the launch.
// RUN: %npytool random %t.a8.npy --dtype bf16 --shape 70,48 --seed 4
// RUN: %npytool random %t.b8.npy --dtype bf16 --shape 48,104 --seed 5
// RUN: mla-run --target host --module %t.so --kernel gemm_bf16_align8 \
// RUN:   --arg a=@%t.a8.npy --arg b=@%t.b8.npy --arg c=empty:70x104 \
// RUN:   --arg m=70 --arg n=104 --arg k=48 --save c=%t.c8.npy
// RUN: %npytool check-gemm %t.a8.npy %t.b8.npy %t.c8.npy \
// RUN:   | FileCheck %s --check-prefix=HOST8
// RUN: mla-run --target emu --module %t.950.so --kernel gemm_bf16_align8 \
// RUN:   --arg a=@%t.a8.npy --arg b=@%t.b8.npy --arg c=empty:70x104 \
// RUN:   --arg m=70 --arg n=104 --arg k=48 --save c=%t.c8_950.npy
// RUN: %npytool check-gemm %t.a8.npy %t.b8.npy %t.c8_950.npy \
// RUN:   | FileCheck %s --check-prefix=HOST8
// RUN: mla-run --target emu --module %t.942.so --kernel gemm_bf16_bm16_align8 \
// RUN:   --arg a=@%t.a8.npy --arg b=@%t.b8.npy --arg c=empty:70x104 \
// RUN:   --arg m=70 --arg n=104 --arg k=48 --save c=%t.c8_942.npy
// RUN: %npytool check-gemm %t.a8.npy %t.b8.npy %t.c8_942.npy \
// RUN:   | FileCheck %s --check-prefix=HOST8
// RUN: not mla-run --target emu --module %t.950.so --kernel gemm_bf16_align8 \
// RUN:   --arg a=@%t.a.npy --arg b=@%t.b8.npy --arg c=empty:70x104 \
// RUN:   --arg m=70 --arg n=104 --arg k=45 2>&1 | FileCheck %s --check-prefix=REFUSED
//
// 16x32 blocks: the warps take columns of the loop's carried accumulator
// (gfx942: 32 columns are two instructions, so two of the four waves hold
// copies), over three K steps of 128, the last one partial.
// RUN: %npytool random %t.a32.npy --dtype bf16 --shape 40,264 --seed 6
// RUN: %npytool random %t.b32.npy --dtype bf16 --shape 264,72 --seed 7
// RUN: mla-compile %s --target=gfx942-emu -o %t.942_32.so \
// RUN:   --instances=gemm_bf16:BM=16:BN=32:BK=128:ALIGN=8:STAGES=2
// RUN: mla-run --target emu --module %t.942_32.so \
// RUN:   --kernel gemm_bf16_bm16_bn32_bk128_align8_stages2 \
// RUN:   --arg a=@%t.a32.npy --arg b=@%t.b32.npy --arg c=empty:40x72 \
// RUN:   --arg m=40 --arg n=72 --arg k=264 --save c=%t.c32_942.npy
// RUN: %npytool check-gemm %t.a32.npy %t.b32.npy %t.c32_942.npy \
// RUN:   | FileCheck %s --check-prefix=HOST32
//
// gfx950's K loop of the ALIGN = 8 instance loads A and B with 16-byte
// buffer loads only; the general one keeps 2-byte loads beside them.
// RUN: mla-compile %s --target=gfx950 --emit=asm -o - | FileCheck %s --check-prefix=GFX950
//
// gfx950 also gets 256x256 blocks over K steps of 64 on 8 waves, with two
// stages: A and B are copied straight into LDS a K step ahead, 16 bytes a
// lane, and each wave computes 64x128 of the block. Under gfx950-emu on
// M = 300, N = 264, K = 200 (partial blocks both ways, a last K step of 8
// columns); its K loop issues only copies into LDS as global memory
// accesses and at most 2 other instructions per MFMA (issue 38's static
// target).
// RUN: %npytool random %t.a256.npy --dtype bf16 --shape 300,200 --seed 6
// RUN: %npytool random %t.b256.npy --dtype bf16 --shape 200,264 --seed 7
// RUN: mla-run --target emu --module %t.950.so \
// RUN:   --kernel gemm_bf16_bm256_bn256_bk64_align8_waves8_stages2 \
// RUN:   --arg a=@%t.a256.npy --arg b=@%t.b256.npy --arg c=empty:300x264 \
// RUN:   --arg m=300 --arg n=264 --arg k=200 --save c=%t.c256.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH256
// RUN: %npytool check-gemm %t.a256.npy %t.b256.npy %t.c256.npy \
// RUN:   | FileCheck %s --check-prefix=HOST256
// Three and four stages (tiles copied two and three K steps ahead into
// as many LDS buffers), on the same problem with 64x64x32 blocks: 7 K
// steps, the last of 8 columns, and copies past K in the last ones.
// RUN: mla-compile %s --target=gfx950-emu -o %t.950s.so \
// RUN:   --instances=gemm_bf16:BM=64:BN=64:BK=32:ALIGN=8:STAGES=3,4
// RUN: mla-run --target emu --module %t.950s.so \
// RUN:   --kernel gemm_bf16_align8_stages3 \
// RUN:   --arg a=@%t.a256.npy --arg b=@%t.b256.npy --arg c=empty:300x264 \
// RUN:   --arg m=300 --arg n=264 --arg k=200 --save c=%t.c3.npy
// RUN: %npytool check-gemm %t.a256.npy %t.b256.npy %t.c3.npy \
// RUN:   | FileCheck %s --check-prefix=HOST256
// RUN: mla-run --target emu --module %t.950s.so \
// RUN:   --kernel gemm_bf16_align8_stages4 \
// RUN:   --arg a=@%t.a256.npy --arg b=@%t.b256.npy --arg c=empty:300x264 \
// RUN:   --arg m=300 --arg n=264 --arg k=200 --save c=%t.c4.npy
// RUN: %npytool check-gemm %t.a256.npy %t.b256.npy %t.c4.npy \
// RUN:   | FileCheck %s --check-prefix=HOST256
// RUN: mla-compile %s --target=gfx950 -o %t.950.hsaco
// RUN: %loop_mix %t.950.hsaco --max-other-per-mfma 2 --kernel stages2 \
// RUN:   | FileCheck %s --check-prefix=MIX950
// The check fails, naming the kernel, above its bound or with no kernel
// to check.
// RUN: not %loop_mix %t.950.hsaco --max-other-per-mfma 1 --kernel stages2 \
// RUN:   2>&1 | FileCheck %s --check-prefix=MIXABOVE
// RUN: not %loop_mix %t.950.hsaco --max-other-per-mfma 2 --kernel nosuch \
// RUN:   2>&1 | FileCheck %s --check-prefix=MIXNONE
//
// The NVIDIA lowering (wgmma for the 64-row block, mma.sync m16n8k16 for
// the 16-row one) compiles to PTX; test/Target/NVPTX/examples-cuda.test
// runs it where a GPU is.
// RUN: mla-compile %s --target=sm_90 --emit=asm -o - | FileCheck %s --check-prefix=PTX
// The ALIGN = 8 instances require A and B 16-byte aligned (`a % (2 *
// ALIGN) == 0`) and C 8-byte aligned (`c % ALIGN == 0`, a pair of its f32
// columns): the pointers are declared so, no copy into shared memory keeps
// the byte-by-byte path beside cp.async for an unaligned source, and each
// pair of C's columns is stored as one st.global.v2 with no test of its
// address.
// RUN: mla-compile %s --target=sm_90 --emit=asm -o %t.aligned.ptx \
// RUN:   --instances=gemm_bf16:BM=128:BN=256:BK=64:ALIGN=8:WAVES=8:STAGES=3
// RUN: FileCheck %s --check-prefix=ALIGNED < %t.aligned.ptx
// RUN: FileCheck %s --check-prefix=FENCE < %t.aligned.ptx
// ALIGNED: .param .u64 .ptr .global .align 16 gemm_bf16_bm128_bn256_bk64_align8_waves8_stages3_param_0,
// ALIGNED-NEXT: .param .u64 .ptr .global .align 16 gemm_bf16_bm128_bn256_bk64_align8_waves8_stages3_param_1,
// ALIGNED: cp.async.cg.shared.global
// ALIGNED-NOT: ld.global.b8
// ALIGNED-NOT: st.global.b32
// ALIGNED-COUNT-64: st.global.v2.b32
// ALIGNED-NOT: st.global
// The copies' writes reach the products' reads (wgmma: the async proxy)
// through a fence before the K step's first barrier; the second barrier,
// after the products reading the buffer the next copies fill are waited
// for, needs none.
// FENCE-LABEL: .entry gemm_bf16_bm128_bn256_bk64_align8_waves8_stages3(
// FENCE: cp.async.wait_group {{[0-9]+}};
// FENCE-NEXT: fence.proxy.async.shared::cta;
// FENCE-NEXT: bar.sync 0;
// FENCE: wgmma.wait_group.sync.aligned 1;
// FENCE-NOT: fence.proxy
// FENCE: bar.sync 0;
// FENCE: cp.async.cg.shared.global

// CHECK-LABEL: tile.kernel @gemm_bf16<BM: i64 = 64, BN: i64 = 64, BK: i64 = 32, ALIGN: i64 = 1, WAVES: i64 = 4, STAGES: i64 = 1>
// CHECK: scf.for
// CHECK: tile.dot {{.*}} : tensor<?x?xbf16, #tile.dims<[BM, BK]>>, tensor<?x?xbf16, #tile.dims<[BK, BN]>> -> tensor<?x?xf32, #tile.dims<[BM, BN]>>
// CHECK: tile.store
// SPEC-LABEL: tile.kernel @gemm_bf16(
// SPEC-SAME: tile.params = {ALIGN = 1 : i64, BK = 32 : i64, BM = 64 : i64, BN = 64 : i64, STAGES = 1 : i64, WAVES = 4 : i64}
// SPEC: tile.dot {{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
// SPEC-LABEL: tile.kernel @gemm_bf16_bm16(
// SPEC-SAME: block_m = 16 : i64
// SPEC: tile.dot {{.*}} : tensor<16x32xbf16>, tensor<32x64xbf16> -> tensor<16x64xf32>
// LAUNCH: run: target=host kernel=gemm_bf16 grid=2x2x1
// LAUNCH16: run: target=host kernel=gemm_bf16_bm16 grid=5x2x1
// HOST: check: rel_fro={{.*}} outside_tol=0/7000 nan=0 PASS
// HOST8: check: rel_fro={{.*}} outside_tol=0/7280 nan=0 PASS
// HOST32: check: rel_fro={{.*}} outside_tol=0/2880 nan=0 PASS
// LAUNCH256: run: target=emu kernel=gemm_bf16_bm256_bn256_bk64_align8_waves8_stages2 grid=2x2x1
// HOST256: check: rel_fro={{.*}} outside_tol=0/79200 nan=0 PASS
// MIX950: gemm_bf16_bm256_bn256_bk64_align8_waves8_stages2 0x{{[0-9a-f]+}} {{[0-9 ]+}} {{[a-z0-9_:,]+}} dwordx4.lds:{{[0-9]+}}{{$}}
// MIX950: gemm_bf16_bm256_bn256_bk64_align8_waves8_stages2: {{[0-9.]+}} other instructions per MFMA, at most 2: ok
// MIXABOVE: gemm_bf16_bm256_bn256_bk64_align8_waves8_stages2: {{[0-9.]+}} other instructions per MFMA, at most 1: ABOVE
// MIXABOVE: loop_mix.py: above the target: gemm_bf16_bm256_bn256_bk64_align8_waves8_stages2
// MIXNONE: loop_mix.py: no kernel matches 'nosuch'
// REFUSED: error: kernel 'gemm_bf16_align8': requires k % 8 == 0, got k = 45
// GFX950-LABEL: {{^}}gemm_bf16:
// GFX950: buffer_load_ushort
// GFX950: s_endpgm
// GFX950-LABEL: {{^}}gemm_bf16_align8:
// GFX950-NOT: buffer_load_ushort
// GFX950: s_endpgm
// PTX-LABEL: .visible .entry gemm_bf16(
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX-LABEL: .visible .entry gemm_bf16_bm16(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .visible .entry gemm_bf16_bm128_bn128_bk64(
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// Three stages: the K loop's products (4 K steps) stay in flight into the
// next step, whose wait leaves this step's in flight; after the loop, a
// wait for all of them.
// PTX-LABEL: .visible .entry gemm_bf16_bm128_bn128_bk64_align8_waves8_stages3(
// PTX: cp.async.cg.shared.global
// PTX: cp.async.cg.shared.global
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX-NOT: wgmma.mma_async
// PTX: wgmma.commit_group.sync.aligned;
// PTX-NOT: wgmma.wait_group.sync.aligned 0;
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX-LABEL: .visible .entry gemm_bf16_bm128_bn256_bk64_align8_waves8_stages3(
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTX: wgmma.wait_group.sync.aligned 1;
// The 16-row block's warps take 8 columns each and all of a K step (its
// accumulator is carried by the loop: warps that split K would sum their
// parts every step); one barrier per step.
// PTX-LABEL: .visible .entry gemm_bf16_bm16_bn32_bk128_align8_stages4(
// PTX: cp.async.cg.shared.global
// PTX: bar.sync
// PTX-NOT: bar.sync
// PTX-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// PTX: bra $L__BB

!a_tile = tensor<?x?xbf16, #tile.dims<[BM, BK]>>
!b_tile = tensor<?x?xbf16, #tile.dims<[BK, BN]>>
!c_tile = tensor<?x?xf32, #tile.dims<[BM, BN]>>

tile.kernel @gemm_bf16<BM: i64 = 64, BN: i64 = 64, BK: i64 = 32, ALIGN: i64 = 1,
                       WAVES: i64 = 4, STAGES: i64 = 1>(
    %a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>,
    %m: i32, %n: i32, %k: i32)
    attributes {tile.instances = {BM = [64, 16], ALIGN = [1, 8]},
                tile.target_instances = {
                  gfx950 = [{BM = [64, 16], ALIGN = [1, 8]},
                            {BM = [256], BN = [256], BK = [64], ALIGN = [8],
                             WAVES = [8], STAGES = [2]}],
                  sm_90 = [{BM = [64, 16], ALIGN = [1, 8]},
                           {BM = [128], BN = [128], BK = [64], ALIGN = [1, 8]},
                           {BM = [128], BN = [128, 256], BK = [64],
                            ALIGN = [8], WAVES = [8], STAGES = [3]},
                           {BM = [16], BN = [32], BK = [128], ALIGN = [8],
                            STAGES = [4]}]},
                tile.launch = {grid = ["cdiv(m, BM)", "cdiv(n, BN)", 1],
                               block_m = #tile.param<"BM">, block_n = #tile.param<"BN">,
                               waves = #tile.param<"WAVES">, stages = #tile.param<"STAGES">,
                               requires = ["k % ALIGN == 0", "n % ALIGN == 0",
                                           "a % (2 * ALIGN) == 0",
                                           "b % (2 * ALIGN) == 0",
                                           "c % ALIGN == 0"]}} {
  %c0 = arith.constant 0 : index
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  %bk = tile.param "BK" : index
  %pid_m = tile.program_id x
  %pid_n = tile.program_id y
  %row = arith.muli %pid_m, %bm : index
  %col = arith.muli %pid_n, %bn : index
  %rows = arith.index_cast %m : i32 to index
  %cols = arith.index_cast %n : i32 to index
  %depth = arith.index_cast %k : i32 to index

  %av = tile.view %a sizes [%rows, %depth] strides [%depth, 1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %bv = tile.view %b sizes [%depth, %cols] strides [%cols, 1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : !c_tile
  %acc = scf.for %kk = %c0 to %depth step %bk iter_args(%acc_i = %acc0) -> !c_tile {
    %at = tile.load %av[%row, %kk] : !tile.view<?x?xbf16> -> !a_tile
    %bt = tile.load %bv[%kk, %col] : !tile.view<?x?xbf16> -> !b_tile
    %next = tile.dot %at, %bt, %acc_i : !a_tile, !b_tile -> !c_tile
    scf.yield %next : !c_tile
  }

  %cv = tile.view %c sizes [%rows, %cols] strides [%cols, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  tile.store %acc, %cv[%row, %col] : !c_tile, !tile.view<?x?xf32>
  tile.return
}
