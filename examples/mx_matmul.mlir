// Block-scaled matmul (Triton's tenth tutorial): C [M, N] f32 = A [M, K]
// times the transpose of B [N, K], B in MXFP4 (two E2M1 values a byte, the
// low nibble the even k, as [N, K/2] bytes, and one E8M0 scale per 32
// values of K, [N, K/32]) and A in bf16 (A = "bf16") or MXFP4 as B
// (A = "mxfp4", its scales [M, K/32]). One program per BM x BN block of C,
// K in steps of 128 through tile.dot_scaled. gfx950 multiplies two MXFP4
// operands with its scaled MFMA (v_mfma_scale_f32_16x16x128_f8f6f4: each
// lane gives 16 bytes of each operand and their scales, loaded straight
// into registers; 256x256 blocks on 8 waves, for MXFP4 A, issue 32 of them
// a wave and K step); everywhere else, and for a bf16 A, the product
// decomposes into an exact dequantization to bf16 and a bf16 product.
// K must be a multiple of 32 (whole scale blocks: a launch requirement),
// and A and B 16-byte aligned (every row then is: whole 16-byte copies); a
// ragged last step is padded with zero bytes.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
// RUN: mla-opt %s --tile-to-primitives | FileCheck %s --check-prefix=PRIMS
//
// On the host and both emulated AMD chips against float64: M = 70, N = 90
// (ragged blocks), K = 224 (a ragged last step), each A format.
// DEFINE: %{bf16} = --kernel mx_matmul --arg a=@%t.a.npy --arg b=@%t.bp.npy \
// DEFINE:   --arg b_scale=@%t.bs.npy --arg c=empty:70x90 --arg m=70 --arg n=90 --arg k=224
// DEFINE: %{fp4} = --kernel mx_matmul_mxfp4 --arg a=@%t.ap.npy --arg a_scale=@%t.as.npy \
// DEFINE:   --arg b=@%t.bp.npy --arg b_scale=@%t.bs.npy --arg c=empty:70x90 --arg m=70 \
// DEFINE:   --arg n=90 --arg k=224
// DEFINE: %{check_bf16} = %npytool check-mx-matmul %t.a.npy %t.bp.npy %t.bs.npy
// DEFINE: %{check_fp4} = %npytool check-mx-matmul %t.ap.npy %t.bp.npy %t.bs.npy \
// DEFINE:   --a-scales %t.as.npy
// RUN: %npytool random %t.a.npy --dtype bf16 --shape 70,224 --seed 21
// RUN: %npytool random-mxfp4 %t.ap.npy %t.as.npy --rows 70 --k 224 --seed 22
// RUN: %npytool random-mxfp4 %t.bp.npy %t.bs.npy --rows 90 --k 224 --seed 23
//
// RUN: mla-compile %s --target=host -o %t.so
// RUN: mla-run --target host --module %t.so %{bf16} --save c=%t.c.npy \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: %{check_bf16} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target host --module %t.so %{fp4} --save c=%t.c.npy
// RUN: %{check_fp4} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: not mla-run --target host --module %t.so --kernel mx_matmul --arg a=@%t.a.npy \
// RUN:   --arg b=@%t.bp.npy --arg b_scale=@%t.bs.npy --arg c=empty:70x90 --arg m=70 \
// RUN:   --arg n=90 --arg k=200 2>&1 | FileCheck %s --check-prefix=WHOLE-BLOCKS
//
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so %{bf16} --save c=%t.c.npy
// RUN: %{check_bf16} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.950.so %{fp4} --save c=%t.c.npy
// RUN: %{check_fp4} %t.c.npy | FileCheck %s --check-prefix=PASS
// gfx950's 256x256 blocks on 8 waves (32 scaled MFMAs a wave and K step).
// RUN: mla-run --target emu --module %t.950.so \
// RUN:   --kernel mx_matmul_mxfp4_bm256_bn256_waves8 \
// RUN:   --arg a=@%t.ap.npy --arg a_scale=@%t.as.npy --arg b=@%t.bp.npy \
// RUN:   --arg b_scale=@%t.bs.npy --arg c=empty:70x90 --arg m=70 --arg n=90 \
// RUN:   --arg k=224 --save c=%t.c.npy
// RUN: %{check_fp4} %t.c.npy | FileCheck %s --check-prefix=PASS
// The scaled MFMA with 16-row blocks (one instruction a wave, no K split).
// RUN: mla-compile %s --target=gfx950-emu --instances=mx_matmul:A=mxfp4:BM=16 \
// RUN:   -o %t.950bm16.so
// RUN: mla-run --target emu --module %t.950bm16.so --kernel mx_matmul_mxfp4_bm16 \
// RUN:   --arg a=@%t.ap.npy --arg a_scale=@%t.as.npy --arg b=@%t.bp.npy \
// RUN:   --arg b_scale=@%t.bs.npy --arg c=empty:70x90 --arg m=70 --arg n=90 \
// RUN:   --arg k=224 --save c=%t.c.npy
// RUN: %{check_fp4} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so %{bf16} --save c=%t.c.npy
// RUN: %{check_bf16} %t.c.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.942.so %{fp4} --save c=%t.c.npy
// RUN: %{check_fp4} %t.c.npy | FileCheck %s --check-prefix=PASS
//
// gfx950's MXFP4 loop: per K step of 128 and wave, four scaled MFMAs on
// 16-byte loads of the packed operands (their rows are whole 16-byte runs,
// K / 2 bytes with K % 32 == 0) and one byte of scale each.
// RUN: mla-compile %s --target=gfx950 -o %t.950.hsaco
// RUN: %loop_mix %t.950.hsaco --kernel mx_matmul_mxfp4 | FileCheck %s --check-prefix=MIX950
// RUN: %loop_mix %t.950.hsaco --kernel bm256 --max-other-per-mfma 5 \
// RUN:   | FileCheck %s --check-prefix=MIX950-256
// RUN: mla-compile %s --target=gfx950 --emit=asm --instances=mx_matmul:A=mxfp4 -o - \
// RUN:   | FileCheck %s --check-prefix=GFX950
//
// The NVIDIA lowering: bf16 warpgroup products of the dequantized tiles.
// RUN: mla-compile %s --target=sm_90 --emit=asm --instances=mx_matmul:A=mxfp4 -o - \
// RUN:   | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: tile.kernel @mx_matmul<A: str = "bf16", BM: i64 = 64, BN: i64 = 64, WAVES: i64 = 4, STAGES: i64 = 1>
// CHECK: tile.dot_scaled
// PRIMS-LABEL: tile.kernel @mx_matmul_mxfp4
// PRIMS: tile.dequant_mx {{.*}} -> tensor<64x128xbf16>
// PRIMS: tile.dequant_mx {{.*}} -> tensor<64x128xbf16>
// PRIMS: tile.dot {{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xf32>
// LAUNCH: run: target=host kernel=mx_matmul grid=2x2x1
// PASS: check: {{.*}} nan=0 PASS
// WHOLE-BLOCKS: mla-run: error: kernel 'mx_matmul': requires k % 32 == 0, got k = 200
// MIX950: {{^}}mx_matmul_mxfp4 {{0x[0-9a-f]+}} {{[0-9]+}} 4 0 0 0 0 0 8 0 {{.*}} - dwordx4:4,ubyte:4{{$}}
// MIX950-256: {{^}}mx_matmul_mxfp4_bm256_bn256_waves8 {{0x[0-9a-f]+}} {{[0-9]+}} 32 0 0 0 0 0 24 0 {{.*}} - dwordx4:12,ubyte:12{{$}}
// GFX950-LABEL: {{^}}mx_matmul_mxfp4:
// GFX950-NOT: buffer_load_ushort
// GFX950-COUNT-4: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}} cbsz:4 blgp:4
// GFX950-NOT: v_mfma
// GFX950: s_endpgm
// PTX-LABEL: .visible .entry mx_matmul_mxfp4(
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX: st.global

!a_elem = !tile.switch<A, {bf16 = bf16, mxfp4 = i8}>
!a_scale_elem = !tile.switch<A, {mxfp4 = f8E8M0FNU}>
!a_bf16 = tensor<?x128x!a_elem, #tile.dims<[BM, 128]>>
!a_fp4 = tensor<?x64x!a_elem, #tile.dims<[BM, 64]>>
!a_scales = tensor<?x4x!a_scale_elem, #tile.dims<[BM, 4]>>
!b_fp4 = tensor<?x64xi8, #tile.dims<[BN, 64]>>
!b_fp4_t = tensor<64x?xi8, #tile.dims<[64, BN]>>
!b_scales = tensor<?x4xf8E8M0FNU, #tile.dims<[BN, 4]>>
!c_tile = tensor<?x?xf32, #tile.dims<[BM, BN]>>

tile.kernel @mx_matmul<A: str = "bf16", BM: i64 = 64, BN: i64 = 64, WAVES: i64 = 4, STAGES: i64 = 1>(
    %a: !tile.ptr<!a_elem>, %a_scale: !tile.ptr<!a_scale_elem>,
    %b: !tile.ptr<i8>, %b_scale: !tile.ptr<f8E8M0FNU>, %c: !tile.ptr<f32>,
    %m: i32, %n: i32, %k: i32)
    attributes {tile.instances = {A = ["bf16", "mxfp4"]},
                tile.target_instances = {
                  gfx950 = [{A = ["bf16", "mxfp4"]},
                            {A = ["mxfp4"], BM = [256], BN = [256], WAVES = [8]}],
                  sm_90 = [{A = ["bf16", "mxfp4"]},
                           {A = ["bf16", "mxfp4"], BM = [128], BN = [128],
                            WAVES = [8], STAGES = [2, 3]},
                           {A = ["bf16", "mxfp4"], BM = [16], STAGES = [2]}]},
                tile.launch = {grid = ["cdiv(m, BM)", "cdiv(n, BN)", 1],
                               waves = #tile.param<"WAVES">, stages = #tile.param<"STAGES">,
                               requires = ["k % 32 == 0", "a % 16 == 0", "b % 16 == 0"]}} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  %pid_m = tile.program_id x
  %pid_n = tile.program_id y
  %row0 = arith.muli %pid_m, %bm : index
  %col0 = arith.muli %pid_n, %bn : index
  %mi = arith.index_cast %m : i32 to index
  %ni = arith.index_cast %n : i32 to index
  %ki = arith.index_cast %k : i32 to index
  %k_bytes = arith.divui %ki, %c2 : index
  %k_blocks = arith.divui %ki, %c32 : index
  %bv = tile.view %b sizes [%ni, %k_bytes] strides [%k_bytes, 1]
      : !tile.ptr<i8> -> !tile.view<?x?xi8>
  %bsv = tile.view %b_scale sizes [%ni, %k_blocks] strides [%k_blocks, 1]
      : !tile.ptr<f8E8M0FNU> -> !tile.view<?x?xf8E8M0FNU>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : !c_tile
  %acc = scf.for %kk = %c0 to %ki step %c128 iter_args(%acc_i = %acc0) -> !c_tile {
    %kk_bytes = arith.divui %kk, %c2 : index
    %kk_block = arith.divui %kk, %c32 : index
    %bt = tile.load %bv[%col0, %kk_bytes] : !tile.view<?x?xi8> -> !b_fp4
    %bst = tile.load %bsv[%col0, %kk_block] : !tile.view<?x?xf8E8M0FNU> -> !b_scales
    %btt = tile.trans %bt : !b_fp4 -> !b_fp4_t
    %next = tile.static_switch "A" -> !c_tile {
    case "bf16" {
      %av = tile.view %a sizes [%mi, %ki] strides [%ki, 1]
          : !tile.ptr<!a_elem> -> !tile.view<?x?x!a_elem>
      %at = tile.load %av[%row0, %kk] : !tile.view<?x?x!a_elem> -> !a_bf16
      %r = tile.dot_scaled %at, %btt scale %bst : !b_scales, %acc_i
          : !a_bf16, !b_fp4_t -> !c_tile
      tile.yield %r : !c_tile
    }
    case "mxfp4" {
      %av = tile.view %a sizes [%mi, %k_bytes] strides [%k_bytes, 1]
          : !tile.ptr<!a_elem> -> !tile.view<?x?x!a_elem>
      %asv = tile.view %a_scale sizes [%mi, %k_blocks] strides [%k_blocks, 1]
          : !tile.ptr<!a_scale_elem> -> !tile.view<?x?x!a_scale_elem>
      %at = tile.load %av[%row0, %kk_bytes] : !tile.view<?x?x!a_elem> -> !a_fp4
      %ast = tile.load %asv[%row0, %kk_block] : !tile.view<?x?x!a_scale_elem> -> !a_scales
      %r = tile.dot_scaled %at scale %ast : !a_scales, %btt scale %bst : !b_scales, %acc_i
          : !a_fp4, !b_fp4_t -> !c_tile
      tile.yield %r : !c_tile
    }
    }
    scf.yield %next : !c_tile
  }
  %cv = tile.view %c sizes [%mi, %ni] strides [%ni, 1]
      : !tile.ptr<f32> -> !tile.view<?x?xf32>
  tile.store %acc, %cv[%row0, %col0] : !c_tile, !tile.view<?x?xf32>
  tile.return
}
