// Fused attention forward (Triton's sixth tutorial): for each head of
// q, k, v [heads, seq, D] bf16 (heads = batch x heads, each contiguous),
// o = softmax(sm_scale * q k^T) v in bf16, causal (key j hidden from query
// i where j > i) when `causal` is not 0. Each instance takes one head dim
// D (`head_dim` must be D), and every pointer 16-byte aligned (each row of
// each head then is: whole 16-byte copies, no byte path). One program per block of BM
// queries of one head (the grid rule); it holds the block's queries and
// walks the keys in blocks of BN with tile.qk_softmax_acc (online softmax,
// f32 state, P rounded to bf16 for its product with V). Key blocks every
// query of the block sees go through a loop without a mask; the diagonal
// blocks (causal) or the ragged last block, through a second one with it.
// Instances: head dim D, block sizes, warps (WAVES) and the stages of the
// key and value copies (STAGES).
//
// RUN: mla-opt %s | mla-opt | FileCheck %s
//
// On the host and both emulated AMD chips against float64: two heads of
// 100 queries (the second block ragged) with D = 64, and of 77 with
// D = 128, causal and not.
// DEFINE: %{d64} = --arg q=@%t.q64.npy --arg k=@%t.k64.npy --arg v=@%t.v64.npy \
// DEFINE:   --arg o=empty:2x100x64 --arg heads=2 --arg seq=100 --arg head_dim=64 \
// DEFINE:   --arg sm_scale=0.125
// DEFINE: %{d128} = --kernel attention_d128 --arg q=@%t.q128.npy --arg k=@%t.k128.npy \
// DEFINE:   --arg v=@%t.v128.npy --arg o=empty:2x77x128 --arg heads=2 --arg seq=77 \
// DEFINE:   --arg head_dim=128 --arg sm_scale=0.088
// DEFINE: %{check64} = %npytool check-attention %t.q64.npy %t.k64.npy %t.v64.npy --scale 0.125
// DEFINE: %{check128} = %npytool check-attention %t.q128.npy %t.k128.npy %t.v128.npy --scale 0.088
// RUN: %npytool random %t.q64.npy --dtype bf16 --shape 2,100,64 --seed 11
// RUN: %npytool random %t.k64.npy --dtype bf16 --shape 2,100,64 --seed 12
// RUN: %npytool random %t.v64.npy --dtype bf16 --shape 2,100,64 --seed 13
// RUN: %npytool random %t.q128.npy --dtype bf16 --shape 2,77,128 --seed 14
// RUN: %npytool random %t.k128.npy --dtype bf16 --shape 2,77,128 --seed 15
// RUN: %npytool random %t.v128.npy --dtype bf16 --shape 2,77,128 --seed 16
//
// RUN: mla-compile %s --target=host -o %t.so
// RUN: mla-run --target host --module %t.so --kernel attention %{d64} --arg causal=0 \
// RUN:   --save o=%t.o.npy | FileCheck %s --check-prefix=LAUNCH
// RUN: %{check64} %t.o.npy | FileCheck %s --check-prefix=PASS
// RUN: not %{check64} %t.o.npy --causal | FileCheck %s --check-prefix=FAIL
// RUN: not mla-run --target host --module %t.so --kernel attention_d128 %{d64} \
// RUN:   --arg causal=0 2>&1 | FileCheck %s --check-prefix=HEAD-DIM
// RUN: mla-run --target host --module %t.so --kernel attention %{d64} --arg causal=1 \
// RUN:   --save o=%t.o.npy
// RUN: %{check64} %t.o.npy --causal | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target host --module %t.so %{d128} --arg causal=0 --save o=%t.o.npy
// RUN: %{check128} %t.o.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target host --module %t.so %{d128} --arg causal=1 --save o=%t.o.npy
// RUN: %{check128} %t.o.npy --causal | FileCheck %s --check-prefix=PASS
//
// RUN: mla-compile %s --target=gfx950-emu -o %t.950.so
// RUN: mla-run --target emu --module %t.950.so --kernel attention %{d64} --arg causal=0 \
// RUN:   --save o=%t.o.npy
// RUN: %{check64} %t.o.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.950.so --kernel attention %{d64} --arg causal=1 \
// RUN:   --save o=%t.o.npy
// RUN: %{check64} %t.o.npy --causal | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.950.so %{d128} --arg causal=0 --save o=%t.o.npy
// RUN: %{check128} %t.o.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.950.so %{d128} --arg causal=1 --save o=%t.o.npy
// RUN: %{check128} %t.o.npy --causal | FileCheck %s --check-prefix=PASS
//
// RUN: mla-compile %s --target=gfx942-emu -o %t.942.so
// RUN: mla-run --target emu --module %t.942.so --kernel attention %{d64} --arg causal=0 \
// RUN:   --save o=%t.o.npy
// RUN: %{check64} %t.o.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.942.so --kernel attention %{d64} --arg causal=1 \
// RUN:   --save o=%t.o.npy
// RUN: %{check64} %t.o.npy --causal | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.942.so %{d128} --arg causal=0 --save o=%t.o.npy
// RUN: %{check128} %t.o.npy | FileCheck %s --check-prefix=PASS
// RUN: mla-run --target emu --module %t.942.so %{d128} --arg causal=1 --save o=%t.o.npy
// RUN: %{check128} %t.o.npy --causal | FileCheck %s --check-prefix=PASS
//
// The NVIDIA lowering: warpgroup products, K and V copied into shared
// memory stages ahead.
// RUN: mla-compile %s --target=sm_90 --emit=asm \
// RUN:   --instances=attention:D=128:BM=128:WAVES=8:STAGES=2 -o - \
// RUN:   | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: tile.kernel @attention<D: i64 = 64, BM: i64 = 64, BN: i64 = 64, WAVES: i64 = 4, STAGES: i64 = 1>
// CHECK: scf.for
// CHECK: tile.qk_softmax_acc
// CHECK-NOT: mask
// CHECK: scf.for
// CHECK: tile.qk_softmax_acc {{.*}} mask
// LAUNCH: run: target=host kernel=attention grid=2x2x1
// PASS: check: {{.*}} nan=0 PASS
// FAIL: check: {{.*}} FAIL
// HEAD-DIM: mla-run: error: kernel 'attention_d128': requires head_dim == 128, got head_dim = 64
// PTX-LABEL: .visible .entry attention_d128_bm128_waves8_stages2(
// PTX: cp.async.cg.shared.global
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX: st.global

!q_tile = tensor<?x?xbf16, #tile.dims<[BM, D]>>
!kv_tile = tensor<?x?xbf16, #tile.dims<[BN, D]>>
!acc = tensor<?x?xf32, #tile.dims<[BM, D]>>
!out = tensor<?x?xbf16, #tile.dims<[BM, D]>>
!rows = tensor<?xf32, #tile.dims<[BM]>>
!mask = tensor<?x?xi1, #tile.dims<[BM, BN]>>
!query_ids = tensor<?xindex, #tile.dims<[BM]>>
!key_ids = tensor<?xindex, #tile.dims<[BN]>>
!query_ids2 = tensor<?x?xindex, #tile.dims<[BM, BN]>>
!key_flags = tensor<?xi1, #tile.dims<[BN]>>

tile.kernel @attention<D: i64 = 64, BM: i64 = 64, BN: i64 = 64, WAVES: i64 = 4, STAGES: i64 = 1>(
    %q: !tile.ptr<bf16>, %k: !tile.ptr<bf16>, %v: !tile.ptr<bf16>,
    %o: !tile.ptr<bf16>, %heads: i32, %seq: i32, %head_dim: i32,
    %causal: i32, %sm_scale: f32)
    attributes {tile.instances = {D = [64, 128]},
                tile.target_instances = {
                  sm_90 = [{D = [64, 128], STAGES = [2, 3]},
                           {D = [64, 128], BM = [128], WAVES = [8], STAGES = [2, 3]}]},
                tile.launch = {grid = ["cdiv(seq, BM)", "heads", 1],
                               requires = ["head_dim == D", "q % 16 == 0", "k % 16 == 0",
                                           "v % 16 == 0", "o % 16 == 0"],
                               waves = #tile.param<"WAVES">, stages = #tile.param<"STAGES">}} {
  %c0 = arith.constant 0 : index
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  %d = tile.param "D" : index
  // The last query blocks, which see the most keys when causal, first.
  %c1 = arith.constant 1 : index
  %blocks = tile.num_programs x
  %last = arith.subi %blocks, %c1 : index
  %pid = tile.program_id x
  %block = arith.subi %last, %pid : index
  %head = tile.program_id y
  %n = arith.index_cast %seq : i32 to index
  %head_elems = arith.muli %n, %d : index
  %base = arith.muli %head, %head_elems : index
  %qv = tile.view %q[%base] sizes [%n, %d] strides [%d, 1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %kv = tile.view %k[%base] sizes [%n, %d] strides [%d, 1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %vv = tile.view %v[%base] sizes [%n, %d] strides [%d, 1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>
  %ov = tile.view %o[%base] sizes [%n, %d] strides [%d, 1]
      : !tile.ptr<bf16> -> !tile.view<?x?xbf16>

  %row0 = arith.muli %block, %bm : index
  %qt = tile.load %qv[%row0, %c0] : !tile.view<?x?xbf16> -> !q_tile

  // Causal: the keys up to the block's last query; else all.
  %c0_i32 = arith.constant 0 : i32
  %is_causal = arith.cmpi ne, %causal, %c0_i32 : i32
  %row_end = arith.addi %row0, %bm : index
  %causal_end = arith.minsi %row_end, %n : index
  %end = arith.select %is_causal, %causal_end, %n : index

  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : !rows
  %l0 = tile.splat %zero : !rows
  %acc0 = tile.splat %zero : !acc
  // Blocks of keys every query of the block sees (causal: the whole blocks
  // before its first query; else all whole blocks) need no mask. The rest (the
  // diagonal blocks, or the ragged last block) are masked per query and key.
  %whole_blocks = arith.divui %n, %bn : index
  %whole_end = arith.muli %whole_blocks, %bn : index
  %blocks_before = arith.divui %row0, %bn : index
  %before_end = arith.muli %blocks_before, %bn : index
  %unmasked_end = arith.select %is_causal, %before_end, %whole_end : index
  %m1, %l1, %acc1 = scf.for %j = %c0 to %unmasked_end step %bn
      iter_args(%mi = %m0, %li = %l0, %acci = %acc0) -> (!rows, !rows, !acc) {
    %kt = tile.load %kv[%j, %c0] : !tile.view<?x?xbf16> -> !kv_tile
    %vt = tile.load %vv[%j, %c0] : !tile.view<?x?xbf16> -> !kv_tile
    %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kt, %vt, %mi, %li, %acci
        scale %sm_scale : !q_tile, !kv_tile, !kv_tile -> !acc
    scf.yield %m2, %l2, %acc2 : !rows, !rows, !acc
  }
  %n_keys = tile.splat %n : !key_ids
  %queries = tile.range from %row0 : !query_ids
  %queries_b = tile.broadcast %queries dims [1] : !query_ids -> !query_ids2
  %causal_b = tile.splat %is_causal : !mask
  %false = arith.constant false
  %false_b = tile.splat %false : !mask
  %m, %l, %acc = scf.for %j = %unmasked_end to %end step %bn
      iter_args(%mi = %m1, %li = %l1, %acci = %acc1) -> (!rows, !rows, !acc) {
    %kt = tile.load %kv[%j, %c0] : !tile.view<?x?xbf16> -> !kv_tile
    %vt = tile.load %vv[%j, %c0] : !tile.view<?x?xbf16> -> !kv_tile
    %keys = tile.range from %j : !key_ids
    %in_seq = arith.cmpi slt, %keys, %n_keys : !key_ids
    %in_seq_b = tile.broadcast %in_seq dims [0] : !key_flags -> !mask
    %keys_b = tile.broadcast %keys dims [0] : !key_ids -> !query_ids2
    %after = arith.cmpi sgt, %keys_b, %queries_b : !query_ids2
    %hidden = arith.andi %after, %causal_b : !mask
    %visible = arith.cmpi eq, %hidden, %false_b : !mask
    %valid = arith.andi %in_seq_b, %visible : !mask
    %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kt, %vt, %mi, %li, %acci
        scale %sm_scale mask %valid : !mask
        : !q_tile, !kv_tile, !kv_tile -> !acc
    scf.yield %m2, %l2, %acc2 : !rows, !rows, !acc
  }
  %l_b = tile.broadcast %l dims [1] : !rows -> !acc
  %normalized = arith.divf %acc, %l_b : !acc
  %ot = arith.truncf %normalized : !acc to !out
  tile.store %ot, %ov[%row0, %c0] : !out, !tile.view<?x?xbf16>
  tile.return
}
