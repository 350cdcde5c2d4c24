// The DeepSeek-R1 MLA decode kernel (GPU MODE "amd-mixed-mla") in the tile
// language.
//
// Problem: q [total_q, H, 576] bf16; one latent KV head [total_kv, 576] stored
// as bf16, fp8 (OCP e4m3fn + one f32 scale), fp8_fnuz (e4m3fnuz, MI300X's
// fp8, + one f32 scale; gfx942 only) or MXFP4 ([total_kv, 288] packed bytes
// + E8M0 scales per 32); keys use all 576 dims, values the first 512; out
// [total_q, H, 512] bf16. Sequences are ragged (qo_indptr, kv_indptr), q_len
// 1..4 with the bottom-right causal rule: query j of Q sees the first
// L - Q + 1 + j keys.
//
// Split-KV in two kernels (docs/ABI.md, "MLA decode kernels"), each written
// once. A sequence's query rows are its flattened (token, head) pairs
// r = j * H + h; the host's launch plan cuts its keys into splits and its
// rows into blocks:
//  - @mla_partial: one program per run of consecutive work items (a work
//    item is a sequence, a range of its keys and a block of BLOCK_M rows):
//    for each, online softmax over tiles of BLOCK_N keys, each tile loaded
//    once for all the block's tokens, under an [M, N] causal mask. A
//    sequence with one split gets its bf16 output here; otherwise the
//    normalized output and its log-sum-exp go to the split's part rows.
//  - @mla_combine: one program per combine item (BLOCK_M rows of a sequence
//    with several splits): per row, a running log-sum-exp over its splits,
//    SPLITS of them loaded at a time.
// A third kernel, @mla_plan, makes the host's reproducible plan on the
// device from the indptrs there, for callers that must not wait for the
// device (PyTorch, a leaderboard submission); mla-run --plan-on-device
// checks it against the host's.
// The KV format, the tile sizes and the waves per program are compile-time
// parameters; the launch keys kv_tile, block_rows and waves announce an
// instance's sizes to the runtime and the GPU lowering. The head count is
// a run-time argument, so one instance per format and tile shape serves
// every head count. The program provides every KV format with the default
// sizes; each GPU target gets its own instances
// (tile.target_instances), which docs/amdgpu.md and docs/nvptx.md ("The
// flagship on ...") explain and measure.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s --check-prefix=ROUNDTRIP \
// RUN:   --implicit-check-not=tensor.extract_slice
// RUN: mla-opt %s --tile-to-primitives | FileCheck %s --check-prefix=PRIMS \
// RUN:   --implicit-check-not=tile.qk_softmax_acc --implicit-check-not=tile.call
//
// On the host: one kernel per instance, listed in the manifest; checked
// runs of the plan the device makes are at the end of the file.
// RUN: mla-compile %s --target=host -o %t.so
// RUN: sed -n 's/.*"symbol": "\(.*\)".*/\1/p' %t.so.json | tr '\n' ' ' \
// RUN:   | FileCheck %s --check-prefix=INSTANCES
// INSTANCES: {{^}}mla_partial_bf16 mla_partial_fp8 mla_partial_mxfp4 mla_combine mla_plan {{$}}
//
// --instances replaces a kernel's set: fp8 in 32-row blocks of 32-key
// tiles, and a combine of 32-row blocks, run with 48 heads on a sequence
// long enough to be split.
// RUN: mla-compile %s --target=host -o %t.sub.so \
// RUN:   --instances=mla_partial:KV=fp8:BLOCK_M=32:BLOCK_N=32 \
// RUN:   --instances=mla_combine:BLOCK_M=32
// RUN: sed -n 's/.*"symbol": "\(.*\)".*/\1/p' %t.sub.so.json \
// RUN:   | FileCheck %s --check-prefix=SUBSET --match-full-lines
// SUBSET:      mla_partial_fp8_block_m32_block_n32
// SUBSET-NEXT: mla_combine_block_m32
// SUBSET-NEXT: mla_plan
// SUBSET-EMPTY:
// RUN: mla-run --target host --module %t.sub.so --kv-dtype fp8 --heads 48 --q-len 3 \
// RUN:   --kv-lens 1100,0,45 --seed 50 --check | FileCheck %s --check-prefixes=HOST,SPLIT
//
// Compiled for a GPU, the instances are that chip's.
// RUN: mla-opt %s --tile-specialize=target=gfx950 | FileCheck %s --check-prefix=GFX950
// GFX950: tile.kernel @mla_partial_bf16_block_m16_block_n32_stages2(
// GFX950: tile.kernel @mla_partial_bf16_block_m32_block_n32_stages2(
// GFX950: tile.kernel @mla_partial_fp8_block_m16_block_n32_stages2(
// GFX950: tile.kernel @mla_partial_fp8_block_m32_block_n32_stages2(
// GFX950: tile.kernel @mla_partial_mxfp4_block_m16_block_n32_stages2(
// GFX950: tile.kernel @mla_partial_mxfp4_block_m32_block_n32_stages2(
// GFX950: tile.kernel @mla_partial_bf16_waves8_stages2(
// GFX950: tile.kernel @mla_partial_fp8_waves8_stages2(
// GFX950: tile.kernel @mla_partial_mxfp4_waves8_stages2(
// GFX950-NOT: tile.kernel @mla_partial_
// RUN: mla-opt %s --tile-specialize=target=gfx942 | FileCheck %s --check-prefix=GFX942
// GFX942: tile.kernel @mla_partial_bf16_block_m16_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_bf16_block_m32_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_fp8_block_m16_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_fp8_block_m32_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_fp8_fnuz_block_m16_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_fp8_fnuz_block_m32_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_mxfp4_block_m16_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_mxfp4_block_m32_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_bf16_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_fp8_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_fp8_fnuz_block_n32_stages2(
// GFX942: tile.kernel @mla_partial_mxfp4_block_n32_stages2(
// GFX942-NOT: tile.kernel @mla_partial_
// RUN: mla-opt %s --tile-specialize=target=sm_90 | FileCheck %s --check-prefix=SM90
// SM90: tile.kernel @mla_partial_bf16_block_m16_block_n32_stages2(
// SM90: tile.kernel @mla_partial_fp8_block_m16_block_n32_stages2(
// SM90: tile.kernel @mla_partial_bf16_block_m32_block_n32_waves8_stages2(
// SM90: tile.kernel @mla_partial_mxfp4_block_m32_block_n32_waves8_stages2(
// SM90: tile.kernel @mla_partial_bf16_waves8_stages2(
// SM90: tile.kernel @mla_partial_mxfp4_waves8_stages2(
// SM90-NOT: tile.kernel @mla_partial_
//
// A benchmark cycles through copies of q, the cache and its scale (58180
// bytes here) until the others between two uses of one pass --rotate-mib.
// RUN: mla-run --target host --module %t.sub.so --kv-dtype fp8 --heads 48 \
// RUN:   --kv-lens 5 --seed 51 --bench --iters 2 --rotate-mib 1 \
// RUN:   | FileCheck %s --check-prefix=ROTATE
// ROTATE: bench: {{.*}}, inputs in 20 copies
//
// A combine that merges 4 splits at a time (SPLITS=4) takes a row of 11
// splits in three steps, the last one partial, and 6 splits in two.
// RUN: mla-compile %s --target=host -o %t.chunks.so \
// RUN:   --instances=mla_partial:KV=bf16 --instances=mla_combine:SPLITS=4
// RUN: mla-run --target host --module %t.chunks.so --kv-dtype bf16 --heads 16 --q-len 2 \
// RUN:   --kv-lens 5000,0,3000,37 --plan balanced --threads 20 --seed 53 --check \
// RUN:   | FileCheck %s --check-prefixes=HOST,CHUNKS
// CHUNKS: plan=balanced {{.*}} max_splits=11

// The types that depend on the KV format: the cache's elements, its scale
// (fp8: one f32; mxfp4: an E8M0 exponent per 32 values; bf16 has none) and
// the mxfp4 scale tensor's row stride.
!kv = !tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, fp8_fnuz = f8E4M3FNUZ, mxfp4 = i8}>
!scale = !tile.switch<KV, {fp8 = f32, fp8_fnuz = f32, mxfp4 = f8E8M0FNU}>
!stride = !tile.switch<KV, {mxfp4 = i32}>

// Tiles: BLOCK_M query rows, BLOCK_N keys. 576 is the latent key width,
// 512 the value width, 288 and 18 the packed bytes and scales of a row of
// 576 MXFP4 values.
!q_tile = tensor<?x576xbf16, #tile.dims<[BLOCK_M, 576]>>
!kv_tile = tensor<?x576xbf16, #tile.dims<[BLOCK_N, 576]>>
!kv_raw = tensor<?x576x!kv, #tile.dims<[BLOCK_N, 576]>>
!kv_packed = tensor<?x288x!kv, #tile.dims<[BLOCK_N, 288]>>
!kv_scales = tensor<?x18x!scale, #tile.dims<[BLOCK_N, 18]>>
!o_tile = tensor<?x512xf32, #tile.dims<[BLOCK_M, 512]>>
!out_tile = tensor<?x512xbf16, #tile.dims<[BLOCK_M, 512]>>
!rows = tensor<?xf32, #tile.dims<[BLOCK_M]>>
!split_lse = tensor<?xf32, #tile.dims<[SPLITS]>>
!split_o = tensor<?x512xf32, #tile.dims<[SPLITS, 512]>>
!o_row = tensor<512xf32>
!row_ids = tensor<?xindex, #tile.dims<[BLOCK_M]>>
!key_ids = tensor<?xindex, #tile.dims<[BLOCK_N]>>
!score_ids = tensor<?x?xindex, #tile.dims<[BLOCK_M, BLOCK_N]>>
!score_mask = tensor<?x?xi1, #tile.dims<[BLOCK_M, BLOCK_N]>>

// ROUNDTRIP-LABEL: tile.kernel @mla_partial<KV: str, BLOCK_M: i64 = 64, BLOCK_N: i64 = 64, WAVES: i64 = 4, STAGES: i64 = 1>
// ROUNDTRIP-SAME: %kv: !tile.ptr<!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, fp8_fnuz = f8E4M3FNUZ, mxfp4 = i8}>>
// ROUNDTRIP-SAME: %sm_scale: f32, %heads: i32)
// ROUNDTRIP-SAME: tile.instances = {KV = ["bf16", "fp8", "mxfp4"]}
// ROUNDTRIP: scf.for
// ROUNDTRIP: tile.call @load_kv
// ROUNDTRIP: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<?x?xi1, #tile.dims<[BLOCK_M, BLOCK_N]>> : tensor<?x576xbf16, #tile.dims<[BLOCK_M, 576]>>, tensor<?x576xbf16, #tile.dims<[BLOCK_N, 576]>> -> tensor<?x512xf32, #tile.dims<[BLOCK_M, 512]>>
// PRIMS-LABEL: tile.kernel @mla_partial_bf16(
// PRIMS-SAME: %kv: !tile.ptr<bf16>, %qo_indptr: !tile.ptr<i32>,
// PRIMS-SAME: block_rows = 64 : i64, grid = ["programs", 1, 1], kv_dtype = "bf16", kv_tile = 64 : i64, requires = ["heads >= 1"], role = "mla.partial", stages = 1 : i64, waves = 4 : i64
// PRIMS: scf.for
// PRIMS: tile.dot {{.*}} : tensor<64x576xbf16>, tensor<576x64xbf16> -> tensor<64x64xf32>
// PRIMS: math.exp
// PRIMS: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x512xbf16> -> tensor<64x512xf32>
// PRIMS-LABEL: tile.kernel @mla_partial_fp8(
// PRIMS-SAME: %kv: !tile.ptr<f8E4M3FN>, %kv_scale: !tile.ptr<f32>, %qo_indptr: !tile.ptr<i32>,
// PRIMS: tile.load_scalar %kv_scale[%{{.*}}] : !tile.ptr<f32>
// PRIMS: scf.for
// PRIMS: tile.dequant_fp8 {{.*}} : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
// PRIMS-LABEL: tile.kernel @mla_partial_mxfp4(
// PRIMS-SAME: %kv: !tile.ptr<i8>, %kv_scale: !tile.ptr<f8E8M0FNU>, %scale_stride: i32,
// PRIMS: scf.for
// PRIMS: tile.dequant_mx {{.*}} : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
tile.kernel @mla_partial<KV: str, BLOCK_M: i64 = 64, BLOCK_N: i64 = 64,
                         WAVES: i64 = 4, STAGES: i64 = 1>(
    %q: !tile.ptr<bf16>, %kv: !tile.ptr<!kv>, %kv_scale: !tile.ptr<!scale>,
    %scale_stride: !stride, %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>,
    %work: !tile.ptr<i32>, %work_indptr: !tile.ptr<i32>, %part_out: !tile.ptr<f32>,
    %part_lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>, %sm_scale: f32, %heads: i32)
    attributes {tile.instances = {KV = ["bf16", "fp8", "mxfp4"]},
                tile.target_instances = {
                  gfx950 = [{KV = ["bf16", "fp8", "mxfp4"], BLOCK_M = [16, 32],
                             BLOCK_N = [32], WAVES = [4], STAGES = [2]},
                            {KV = ["bf16", "fp8", "mxfp4"], WAVES = [8], STAGES = [2]}],
                  gfx942 = [{KV = ["bf16", "fp8", "fp8_fnuz", "mxfp4"], BLOCK_M = [16, 32],
                             BLOCK_N = [32], WAVES = [4], STAGES = [2]},
                            {KV = ["bf16", "fp8", "fp8_fnuz", "mxfp4"],
                             BLOCK_N = [32], WAVES = [4], STAGES = [2]}],
                  sm_90 = [{KV = ["bf16", "fp8", "mxfp4"], BLOCK_M = [16],
                            BLOCK_N = [32], STAGES = [2]},
                           {KV = ["bf16", "fp8", "mxfp4"], BLOCK_M = [32],
                            BLOCK_N = [32], WAVES = [8], STAGES = [2]},
                           {KV = ["bf16", "fp8", "mxfp4"],
                            BLOCK_M = [64], BLOCK_N = [64], WAVES = [8], STAGES = [2]}]},
                tile.launch = {role = "mla.partial", kv_dtype = #tile.param<"KV">,
                               kv_tile = #tile.param<"BLOCK_N">,
                               block_rows = #tile.param<"BLOCK_M">,
                               waves = #tile.param<"WAVES">, stages = #tile.param<"STAGES">,
                               grid = ["programs", 1, 1], requires = ["heads >= 1"]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c576 = arith.constant 576 : index
  %h = arith.index_cast %heads : i32 to index
  %block_n = tile.param "BLOCK_N" : index
  // fp8 tiles load without their tensor scale (@load_kv): it multiplies
  // the scores and the output instead.
  %tensor_scale = tile.call @tensor_scale(%kv_scale) : (!tile.ptr<!scale>) -> f32
  %score_scale = arith.mulf %sm_scale, %tensor_scale : f32

  // The program's run of consecutive work items: ranges of the keys of one
  // or more sequences, each for one block of its query rows.
  %p = tile.program_id x
  %p_next = arith.addi %p, %c1 : index
  %first_item = tile.call @load_index(%work_indptr, %p) : (!tile.ptr<i32>, index) -> index
  %end_item = tile.call @load_index(%work_indptr, %p_next) : (!tile.ptr<i32>, index) -> index
  scf.for %w = %first_item to %end_item step %c1 {
    %seq, %kv_begin, %kv_end, %split, %num_splits, %row_begin, %part_row, %pad =
        tile.call @item(%work, %w) : (!tile.ptr<i32>, index)
        -> (index, index, index, index, index, index, index, index)
    %seq_next = arith.addi %seq, %c1 : index
    %q_begin = tile.call @load_index(%qo_indptr, %seq) : (!tile.ptr<i32>, index) -> index
    %q_end = tile.call @load_index(%qo_indptr, %seq_next) : (!tile.ptr<i32>, index) -> index
    %kv_stop = tile.call @load_index(%kv_indptr, %seq_next) : (!tile.ptr<i32>, index) -> index
    %q_len = arith.subi %q_end, %q_begin : index

    // The block's query rows: row %row_begin of the sequence is row %first
    // of q and out viewed as [total_q * H, ...], and %left of the
    // sequence's rows start there.
    %seq_rows = arith.muli %q_len, %h : index
    %seq_first = arith.muli %q_begin, %h : index
    %first = arith.addi %seq_first, %row_begin : index
    %left = arith.subi %seq_rows, %row_begin : index
    %q_off = arith.muli %first, %c576 : index
    %q_rows = tile.view %q[%q_off] sizes [%left, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
    %qt = tile.load %q_rows[%c0, %c0] : !tile.view<?x576xbf16> -> !q_tile
    %row_end = tile.call @visible_end(%row_begin, %h, %q_len, %kv_stop, %kv_end)
        : (index, index, index, index, index) -> !row_ids
    %row_end_t = tile.broadcast %row_end dims [1] : !row_ids -> !score_ids

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m0 = tile.splat %neg_inf : !rows
    %l0 = tile.splat %zero : !rows
    %acc0 = tile.splat %zero : !o_tile
    %n = arith.subi %kv_end, %kv_begin : index
    %r:3 = scf.for %t = %c0 to %n step %block_n
        iter_args(%m = %m0, %l = %l0, %acc = %acc0) -> (!rows, !rows, !o_tile) {
      // One load of the KV tile: K is all its 576 columns, V the first
      // 512. Keys past the range load as zero; the mask keeps them out.
      %kvt = tile.call @load_kv(%kv, %kv_scale, %scale_stride, %kv_begin, %kv_end, %t)
          : (!tile.ptr<!kv>, !tile.ptr<!scale>, !stride, index, index, index) -> !kv_tile
      %key0 = arith.addi %kv_begin, %t : index
      %keys = tile.range from %key0 : !key_ids
      %keys_t = tile.broadcast %keys dims [0] : !key_ids -> !score_ids
      %mask = arith.cmpi slt, %keys_t, %row_end_t : !score_ids
      %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kvt, %m, %l, %acc
          scale %score_scale mask %mask : !score_mask : !q_tile, !kv_tile -> !o_tile
      scf.yield %m2, %l2, %acc2 : !rows, !rows, !o_tile
    }
    %o_unit = tile.call @normalize(%r#2, %r#1) : (!o_tile, !rows) -> !o_tile
    %v_scale = tile.splat %tensor_scale : !o_tile
    %o = arith.mulf %o_unit, %v_scale : !o_tile

    // A sequence with one split writes its output rows; otherwise the
    // split goes to its part rows for the combine kernel.
    %single = arith.cmpi eq, %num_splits, %c1 : index
    scf.if %single {
      tile.call @store_out(%out, %o, %first, %left)
          : (!tile.ptr<bf16>, !o_tile, index, index) -> ()
    } else {
      %part_first = arith.addi %part_row, %row_begin : index
      tile.call @store_part(%part_out, %part_lse, %o, %r#0, %r#1, %part_first, %left)
          : (!tile.ptr<f32>, !tile.ptr<f32>, !o_tile, !rows, !rows, index, index) -> ()
    }
  }
  tile.return
}

// ROUNDTRIP-LABEL: tile.kernel @mla_combine<BLOCK_M: i64 = 16, SPLITS: i64 = 16, WAVES: i64 = 4>
// ROUNDTRIP: scf.for
// ROUNDTRIP: scf.for
// ROUNDTRIP: tile.call @merge_splits
// PRIMS-LABEL: tile.kernel @mla_combine(
// PRIMS: scf.for
// PRIMS: scf.for
// PRIMS: tile.load {{.*}} -> tensor<16x512xf32>
// PRIMS: math.exp
// PRIMS: tile.reduce sum {{.*}} dim 0 : tensor<16x512xf32> -> tensor<512xf32>
// PRIMS: arith.truncf {{.*}} : tensor<512xf32> to tensor<512xbf16>
tile.kernel @mla_combine<BLOCK_M: i64 = 16, SPLITS: i64 = 16, WAVES: i64 = 4>(
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %combine: !tile.ptr<i32>,
    %out: !tile.ptr<bf16>)
    attributes {tile.target_instances = {sm_90 = [{BLOCK_M = [1]}]},
                tile.launch = {role = "mla.combine", block_rows = #tile.param<"BLOCK_M">,
                               waves = #tile.param<"WAVES">,
                               grid = ["combine_items", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %splits_step = tile.param "SPLITS" : index
  %i = tile.program_id x
  %part_row, %out_row, %rows, %num_splits, %split_stride, %pad:3 =
      tile.call @item(%combine, %i) : (!tile.ptr<i32>, index)
      -> (index, index, index, index, index, index, index, index)

  // Each row is a running log-sum-exp over its splits, SPLITS of them at a
  // time: their loads are issued together instead of one split's latency
  // after another's. The partial kernel's split cap (16 unless its launch
  // sets max_splits) makes that one step with the default SPLITS. Splits
  // past %num_splits load lse = -inf and add nothing.
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : !o_row
  %w0 = tile.splat %zero : !o_row
  %o_stride = arith.muli %split_stride, %c512 : index
  scf.for %r = %c0 to %rows step %c1 {
    %row = arith.addi %part_row, %r : index
    %lse_splits = tile.view %part_lse[%row] sizes [%num_splits] strides [%split_stride]
        : !tile.ptr<f32> -> !tile.view<?xf32>
    %o_off = arith.muli %row, %c512 : index
    %o_splits = tile.view %part_out[%o_off] sizes [%num_splits, 512] strides [%o_stride, 1]
        : !tile.ptr<f32> -> !tile.view<?x512xf32>
    %m, %w, %acc = scf.for %s = %c0 to %num_splits step %splits_step
        iter_args(%m_s = %m0, %w_s = %w0, %acc_s = %w0) -> (!o_row, !o_row, !o_row) {
      %lse = tile.load %lse_splits[%s] pad %neg_inf : !tile.view<?xf32> -> !split_lse
      %o = tile.load %o_splits[%s, %c0] : !tile.view<?x512xf32> -> !split_o
      %m2, %w2, %acc2 = tile.call @merge_splits(%m_s, %w_s, %acc_s, %lse, %o)
          : (!o_row, !o_row, !o_row, !split_lse, !split_o) -> (!o_row, !o_row, !o_row)
      scf.yield %m2, %w2, %acc2 : !o_row, !o_row, !o_row
    }
    // acc / w; 0 for a row whose splits saw no key (w = 0).
    %zeros = tile.splat %zero : !o_row
    %o_unit = arith.divf %acc, %w : !o_row
    %no_keys = arith.cmpf oeq, %w, %zeros : !o_row
    %merged = arith.select %no_keys, %zeros, %o_unit : tensor<512xi1>, !o_row
    %out_at = arith.addi %out_row, %r : index
    %out_off = arith.muli %out_at, %c512 : index
    %out_view = tile.view %out[%out_off] sizes [512] strides [1]
        : !tile.ptr<bf16> -> !tile.view<512xbf16>
    %merged16 = arith.truncf %merged : !o_row to tensor<512xbf16>
    tile.store %merged16, %out_view[%c0] : tensor<512xbf16>, !tile.view<512xbf16>
  }
  tile.return
}

//===----------------------------------------------------------------------===//
// Helpers (inlined into each instance)
//===----------------------------------------------------------------------===//

/// Element %i of an i32 array, as an index.
tile.func @load_index(%array: !tile.ptr<i32>, %i: index) -> index {
  %v = tile.load_scalar %array[%i] : !tile.ptr<i32>
  %x = arith.index_cast %v : i32 to index
  tile.return %x : index
}

/// Row %i of an [items, 8] i32 table (work items, combine items).
tile.func @item(%table: !tile.ptr<i32>, %i: index)
    -> (index, index, index, index, index, index, index, index) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a0 = arith.muli %i, %c8 : index
  %a1 = arith.addi %a0, %c1 : index
  %a2 = arith.addi %a1, %c1 : index
  %a3 = arith.addi %a2, %c1 : index
  %a4 = arith.addi %a3, %c1 : index
  %a5 = arith.addi %a4, %c1 : index
  %a6 = arith.addi %a5, %c1 : index
  %a7 = arith.addi %a6, %c1 : index
  %f0 = tile.call @load_index(%table, %a0) : (!tile.ptr<i32>, index) -> index
  %f1 = tile.call @load_index(%table, %a1) : (!tile.ptr<i32>, index) -> index
  %f2 = tile.call @load_index(%table, %a2) : (!tile.ptr<i32>, index) -> index
  %f3 = tile.call @load_index(%table, %a3) : (!tile.ptr<i32>, index) -> index
  %f4 = tile.call @load_index(%table, %a4) : (!tile.ptr<i32>, index) -> index
  %f5 = tile.call @load_index(%table, %a5) : (!tile.ptr<i32>, index) -> index
  %f6 = tile.call @load_index(%table, %a6) : (!tile.ptr<i32>, index) -> index
  %f7 = tile.call @load_index(%table, %a7) : (!tile.ptr<i32>, index) -> index
  tile.return %f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7
      : index, index, index, index, index, index, index, index
}

/// The causal rule for the block's rows r = j * %heads + h of a sequence
/// with %q_len queries whose keys end at %kv_stop: token j sees the keys
/// before %kv_stop - %q_len + 1 + j, and the work item's keys end at
/// %kv_end.
tile.func @visible_end(%row_begin: index, %heads: index, %q_len: index,
                       %kv_stop: index, %kv_end: index) -> !row_ids {
  %c1 = arith.constant 1 : index
  %rows = tile.range from %row_begin : !row_ids
  %heads_r = tile.splat %heads : !row_ids
  %token = arith.divui %rows, %heads_r : !row_ids
  %hidden = arith.subi %q_len, %c1 : index
  %visible0 = arith.subi %kv_stop, %hidden : index
  %visible0_r = tile.splat %visible0 : !row_ids
  %visible = arith.addi %token, %visible0_r : !row_ids
  %kv_end_r = tile.splat %kv_end : !row_ids
  %row_end = arith.minsi %visible, %kv_end_r : !row_ids
  tile.return %row_end : !row_ids
}

/// The per-tensor scale of an fp8 cache, 1 for the other formats.
tile.func @tensor_scale(%kv_scale: !tile.ptr<!scale>) -> f32 {
  %s = tile.static_switch "KV" -> f32 {
  case "fp8" {
    %c0 = arith.constant 0 : index
    %fp8_scale = tile.load_scalar %kv_scale[%c0] : !tile.ptr<!scale>
    tile.yield %fp8_scale : !scale
  }
  case "fp8_fnuz" {
    %c0 = arith.constant 0 : index
    %fp8_scale = tile.load_scalar %kv_scale[%c0] : !tile.ptr<!scale>
    tile.yield %fp8_scale : !scale
  }
  default {
    %one = arith.constant 1.0 : f32
    tile.yield %one : f32
  }
  }
  tile.return %s : f32
}

/// Tile %t of the KV rows [%begin, %end) as bf16; rows past %end are zero.
/// fp8 and E2M1 values times E8M0 scales are exact in bf16; the fp8 tensor
/// scale is left to the scores and the output (@tensor_scale).
tile.func @load_kv(%kv: !tile.ptr<!kv>, %kv_scale: !tile.ptr<!scale>,
                   %scale_stride: !stride, %begin: index, %end: index,
                   %t: index) -> !kv_tile {
  %c0 = arith.constant 0 : index
  %c288 = arith.constant 288 : index
  %c576 = arith.constant 576 : index
  %n = arith.subi %end, %begin : index
  %kvt = tile.static_switch "KV" -> !kv_tile {
  case "bf16" {
    %off = arith.muli %begin, %c576 : index
    %kv_rows = tile.view %kv[%off] sizes [%n, 576] strides [576, 1]
        : !tile.ptr<!kv> -> !tile.view<?x576x!kv>
    %k = tile.load %kv_rows[%t, %c0] : !tile.view<?x576x!kv> -> !kv_raw
    tile.yield %k : !kv_raw
  }
  case "fp8" {
    %off = arith.muli %begin, %c576 : index
    %kv_rows = tile.view %kv[%off] sizes [%n, 576] strides [576, 1]
        : !tile.ptr<!kv> -> !tile.view<?x576x!kv>
    %k8 = tile.load %kv_rows[%t, %c0] : !tile.view<?x576x!kv> -> !kv_raw
    %one = arith.constant 1.0 : f32
    %k = tile.dequant_fp8 %k8, %one : !kv_raw -> !kv_tile
    tile.yield %k : !kv_tile
  }  case "fp8_fnuz" {
    %off = arith.muli %begin, %c576 : index
    %kv_rows = tile.view %kv[%off] sizes [%n, 576] strides [576, 1]
        : !tile.ptr<!kv> -> !tile.view<?x576x!kv>
    %k8 = tile.load %kv_rows[%t, %c0] : !tile.view<?x576x!kv> -> !kv_raw
    %one = arith.constant 1.0 : f32
    %k = tile.dequant_fp8 %k8, %one : !kv_raw -> !kv_tile
    tile.yield %k : !kv_tile
  }
  case "mxfp4" {
    %off = arith.muli %begin, %c288 : index
    %kv_rows = tile.view %kv[%off] sizes [%n, 288] strides [288, 1]
        : !tile.ptr<!kv> -> !tile.view<?x288x!kv>
    %stride_i = tile.resolve %scale_stride : !stride -> i32
    %stride = arith.index_cast %stride_i : i32 to index
    %scale_off = arith.muli %begin, %stride : index
    %scale_rows = tile.view %kv_scale[%scale_off] sizes [%n, 18] strides [%stride, 1]
        : !tile.ptr<!scale> -> !tile.view<?x18x!scale>
    %packed = tile.load %kv_rows[%t, %c0] : !tile.view<?x288x!kv> -> !kv_packed
    %scales = tile.load %scale_rows[%t, %c0] : !tile.view<?x18x!scale> -> !kv_scales
    %k = tile.dequant_mx %packed, %scales : !kv_packed, !kv_scales -> !kv_tile
    tile.yield %k : !kv_tile
  }
  }
  tile.return %kvt : !kv_tile
}

/// o = acc / l per row; 0 for a row with l = 0 (it saw no key).
tile.func @normalize(%acc: !o_tile, %l: !rows) -> !o_tile {
  %zero = arith.constant 0.0 : f32
  %zeros = tile.splat %zero : !o_tile
  %l_t = tile.broadcast %l dims [1] : !rows -> !o_tile
  %o = arith.divf %acc, %l_t : !o_tile
  %no_keys = arith.cmpf oeq, %l_t, %zeros : !o_tile
  %o0 = arith.select %no_keys, %zeros, %o
      : tensor<?x512xi1, #tile.dims<[BLOCK_M, 512]>>, !o_tile
  tile.return %o0 : !o_tile
}

/// One step of the combine's running log-sum-exp over a row's splits:
/// (m, w, acc) is the merge so far, scaled by exp(-m), each held once per
/// output column; a split with lse = -inf adds nothing.
tile.func @merge_splits(%m: !o_row, %w: !o_row, %acc: !o_row, %lse: !split_lse,
                        %o: !split_o) -> (!o_row, !o_row, !o_row) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %neg_infs = tile.splat %neg_inf : !o_row
  %zeros = tile.splat %zero : !o_row
  %lse_t = tile.broadcast %lse dims [1] : !split_lse -> !split_o
  %top = tile.reduce max %lse_t dim 0 : !split_o -> !o_row
  // A row still at -inf uses 0 as reference, so exp never sees -inf - -inf.
  %m2 = arith.maximumf %m, %top : !o_row
  %empty = arith.cmpf oeq, %m2, %neg_infs : !o_row
  %ref = arith.select %empty, %zeros, %m2 : tensor<512xi1>, !o_row
  %old = arith.subf %m, %ref : !o_row
  %alpha = math.exp %old : !o_row
  %ref_t = tile.broadcast %ref dims [0] : !o_row -> !split_o
  %new = arith.subf %lse_t, %ref_t : !split_o
  %beta = math.exp %new : !split_o
  %beta_sum = tile.reduce sum %beta dim 0 : !split_o -> !o_row
  %w_old = arith.mulf %w, %alpha : !o_row
  %w2 = arith.addf %w_old, %beta_sum : !o_row
  %o_new = arith.mulf %o, %beta : !split_o
  %o_sum = tile.reduce sum %o_new dim 0 : !split_o -> !o_row
  %acc_old = arith.mulf %acc, %alpha : !o_row
  %acc2 = arith.addf %acc_old, %o_sum : !o_row
  tile.return %m2, %w2, %acc2 : !o_row, !o_row, !o_row
}

/// Rows [%first, %first + %count) of out viewed as [total_q * H, 512] get
/// the block's rows as bf16; rows of the block past %count are dropped.
tile.func @store_out(%out: !tile.ptr<bf16>, %o: !o_tile, %first: index, %count: index) {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %off = arith.muli %first, %c512 : index
  %out_rows = tile.view %out[%off] sizes [%count, 512] strides [512, 1]
      : !tile.ptr<bf16> -> !tile.view<?x512xbf16>
  %o16 = arith.truncf %o : !o_tile to !out_tile
  tile.store %o16, %out_rows[%c0, %c0] : !out_tile, !tile.view<?x512xbf16>
  tile.return
}

/// A split's normalized output and its log-sum-exp m + log l (-inf where
/// l = 0) to part rows [%first, %first + %count).
tile.func @store_part(%part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %o: !o_tile,
                      %m: !rows, %l: !rows, %first: index, %count: index) {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %log_l = math.log %l : !rows
  %lse = arith.addf %m, %log_l : !rows
  %off = arith.muli %first, %c512 : index
  %o_rows = tile.view %part_out[%off] sizes [%count, 512] strides [512, 1]
      : !tile.ptr<f32> -> !tile.view<?x512xf32>
  tile.store %o, %o_rows[%c0, %c0] : !o_tile, !tile.view<?x512xf32>
  %lse_rows = tile.view %part_lse[%first] sizes [%count] strides [1]
      : !tile.ptr<f32> -> !tile.view<?xf32>
  tile.store %lse, %lse_rows[%c0] : !rows, !tile.view<?xf32>
  tile.return
}


//===----------------------------------------------------------------------===//
// The launch plan on the device
//===----------------------------------------------------------------------===//

// Sequences are read 64 at a time (one per lane of a wave), table rows
// written 8 fields at a time.
!seqs = tensor<1x64xi32>
!seq_ids = tensor<1x64xindex>
!seq_flags = tensor<1x64xi1>
!sum = tensor<1xi32>
!entry = tensor<1x8xi32>
!entry_ids = tensor<1x8xindex>
!entry_flags = tensor<1x8xi1>
!blank = tensor<32x8xi32>

// The launch plan on the device: the reproducible plan of the host planner
// (lib/Decode/LaunchPlan.cpp) from the indptrs where they live, so that a
// call needs no host synchronization (docs/ABI.md, "The plan on the
// device"). Program b < batch writes sequence b's work items and combine
// items at their places in the host plan's order; program `batch` writes
// work_indptr, one work item per program, padded with empty programs up
// to the capacity the caller launches, and zeroes the combine rows past
// the plan's, which the combine kernel then skips. Each program reads all
// indptrs, 64 sequences at a time, to count the items placed before its
// own.
tile.kernel @mla_plan(
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %work_indptr: !tile.ptr<i32>, %combine: !tile.ptr<i32>, %batch: i32,
    %heads: i32, %kv_tile: i32, %block_rows: i32, %combine_block_rows: i32,
    %max_splits: i32, %parallelism: i32, %work_capacity: i32, %combine_capacity: i32)
    attributes {tile.launch = {role = "mla.plan", waves = 1, grid = ["batch + 1", 1, 1],
                               requires = ["batch >= 0", "heads >= 1", "kv_tile >= 1",
                                           "block_rows >= 1", "combine_block_rows >= 1",
                                           "max_splits >= 1", "parallelism >= 0",
                                           "work_capacity >= 0",
                                           "combine_capacity >= 0"]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %b = tile.program_id x
  %n_seqs = arith.index_cast %batch : i32 to index
  %h = arith.index_cast %heads : i32 to index
  %tile = arith.index_cast %kv_tile : i32 to index
  %br = arith.index_cast %block_rows : i32 to index
  %cbr = arith.index_cast %combine_block_rows : i32 to index
  %split_cap = arith.index_cast %max_splits : i32 to index
  %work_cap = arith.index_cast %work_capacity : i32 to index
  %combine_cap = arith.index_cast %combine_capacity : i32 to index
  %work_rows = tile.view %work sizes [%work_cap, 8] strides [8, 1]
      : !tile.ptr<i32> -> !tile.view<?x8xi32>
  %combine_rows = tile.view %combine sizes [%combine_cap, 8] strides [8, 1]
      : !tile.ptr<i32> -> !tile.view<?x8xi32>
  %chunk, %round = tile.call @chunk_tiles(%qo_indptr, %kv_indptr, %n_seqs, %h, %tile,
                                          %br, %parallelism)
      : (!tile.ptr<i32>, !tile.ptr<i32>, index, index, index, index, i32) -> (index, index)
  %last = arith.cmpi eq, %b, %n_seqs : index
  scf.if %last {
    // Totals over all sequences.
    %t:3 = tile.call @count_earlier(%qo_indptr, %kv_indptr, %n_seqs, %b, %h, %tile,
                                    %br, %cbr, %split_cap, %chunk, %round)
        : (!tile.ptr<i32>, !tile.ptr<i32>, index, index, index, index, index, index,
           index, index, index) -> (index, index, index)
    %items = arith.index_cast %t#2 : index to i32
    %entries = arith.addi %work_cap, %c1 : index
    %indptr = tile.view %work_indptr sizes [1, %entries] strides [%entries, 1]
        : !tile.ptr<i32> -> !tile.view<1x?xi32>
    %items_t = tile.splat %items : !seqs
    scf.for %p = %c0 to %entries step %c64 {
      %ids = tile.range from %p : tensor<64xindex>
      %ids_2 = tile.broadcast %ids dims [0] : tensor<64xindex> -> !seq_ids
      %ids_i = arith.index_cast %ids_2 : !seq_ids to !seqs
      %firsts = arith.minsi %ids_i, %items_t : !seqs
      tile.store %firsts, %indptr[%c0, %p] : !seqs, !tile.view<1x?xi32>
    }
    %zero_i = arith.constant 0 : i32
    %blank = tile.splat %zero_i : !blank
    scf.for %r = %t#1 to %combine_cap step %c32 {
      tile.store %blank, %combine_rows[%r, %c0] : !blank, !tile.view<?x8xi32>
    }
  } else {
    // Sequence %b: q_begin, kv_begin, kv_len, rows, blocks, splits, and
    // how its keys split: the first %f#6 ranges %f#7 keys long, the next
    // ones %f#8, the last what is left (%final).
    %f:9 = tile.call @sequence(%qo_indptr, %kv_indptr, %b, %h, %tile, %br, %split_cap,
                               %chunk, %round)
        : (!tile.ptr<i32>, !tile.ptr<i32>, index, index, index, index, index, index, index)
        -> (index, index, index, index, index, index, index, index, index)
    %has = arith.cmpi sgt, %f#5, %c0 : index
    scf.if %has {
      %final = tile.call @last_length(%f#2, %f#7, %f#8, %f#5, %f#6, %tile)
          : (index, index, index, index, index, index) -> index
      %before:3 = tile.call @count_earlier(%qo_indptr, %kv_indptr, %n_seqs, %b, %h, %tile,
                                      %br, %cbr, %split_cap, %chunk, %round)
          : (!tile.ptr<i32>, !tile.ptr<i32>, index, index, index, index, index, index,
             index, index, index) -> (index, index, index)
      // A range's work items come after those of longer ranges and of
      // ranges as long in earlier sequences.
      %gl, %el = tile.call @count_longer(%qo_indptr, %kv_indptr, %n_seqs, %b, %h, %tile,
                                         %br, %split_cap, %chunk, %round, %f#7)
          : (!tile.ptr<i32>, !tile.ptr<i32>, index, index, index, index, index, index,
             index, index, index) -> (index, index)
      %gs, %es = tile.call @count_longer(%qo_indptr, %kv_indptr, %n_seqs, %b, %h, %tile,
                                         %br, %split_cap, %chunk, %round, %f#8)
          : (!tile.ptr<i32>, !tile.ptr<i32>, index, index, index, index, index, index,
             index, index, index) -> (index, index)
      %gf, %ef = tile.call @count_longer(%qo_indptr, %kv_indptr, %n_seqs, %b, %h, %tile,
                                         %br, %split_cap, %chunk, %round, %final)
          : (!tile.ptr<i32>, !tile.ptr<i32>, index, index, index, index, index, index,
             index, index, index) -> (index, index)
      %before_long = arith.addi %gl, %el : index
      %before_short = arith.addi %gs, %es : index
      %before_final = arith.addi %gf, %ef : index
      %split_seq = arith.cmpi sgt, %f#5, %c1 : index
      %minus1 = arith.constant -1 : index
      %part_base = arith.select %split_seq, %before#0, %minus1 : index
      scf.for %s = %c0 to %f#5 step %c1 {
        %pos = tile.call @position(%before_long, %before_short, %before_final, %s, %f#5,
                                   %f#6, %f#7, %f#8, %final, %f#4)
            : (index, index, index, index, index, index, index, index, index, index)
            -> index
        %begin, %end = tile.call @range_keys(%s, %f#5, %f#6, %f#7, %f#2, %tile)
            : (index, index, index, index, index, index) -> (index, index)
        %kv_b = arith.addi %f#1, %begin : index
        %kv_e = arith.addi %f#1, %end : index
        %skip = arith.muli %s, %f#3 : index
        %part_s = arith.addi %part_base, %skip : index
        %part_row = arith.select %split_seq, %part_s, %minus1 : index
        scf.for %r = %c0 to %f#4 step %c1 {
          %row = arith.addi %pos, %r : index
          %row_begin = arith.muli %r, %br : index
          %e = tile.call @entry(%b, %kv_b, %kv_e, %s, %f#5, %row_begin, %part_row, %c0)
              : (index, index, index, index, index, index, index, index) -> !entry
          tile.store %e, %work_rows[%row, %c0] : !entry, !tile.view<?x8xi32>
        }
      }
      scf.if %split_seq {
        %out_base = arith.muli %f#0, %h : index
        %rows = arith.addi %f#3, %c0 : index
        %items = tile.call @cdiv(%rows, %cbr) : (index, index) -> index
        scf.for %j = %c0 to %items step %c1 {
          %row = arith.addi %before#1, %j : index
          %first = arith.muli %j, %cbr : index
          %part = arith.addi %before#0, %first : index
          %out = arith.addi %out_base, %first : index
          %left = arith.subi %rows, %first : index
          %n = arith.minsi %left, %cbr : index
          %e = tile.call @entry(%part, %out, %n, %f#5, %rows, %c0, %c0, %c0)
              : (index, index, index, index, index, index, index, index) -> !entry
          tile.store %e, %combine_rows[%row, %c0] : !entry, !tile.view<?x8xi32>
        }
      }
    }
  }
  tile.return
}

/// The KV tiles per range the plan aims at (LaunchPlan.h, chunkTilesFor),
/// and what a sequence's tiles get added before they are divided by it
/// into ranges: 1024 keys' worth rounding up when %parallelism is 0 (the
/// reproducible plan), else the batch's tile reads (each tile once per row
/// block of its sequence) over %parallelism, rounded up, rounding down
/// (the balanced plan, which then needs at most %parallelism programs but
/// for sequences shorter than a chunk).
tile.func @chunk_tiles(%qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>,
                       %n_seqs: index, %h: index, %tile: index, %br: index,
                       %parallelism: i32) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %par = arith.index_cast %parallelism : i32 to index
  %balanced = arith.cmpi sgt, %par, %c0 : index
  %chunk:2 = scf.if %balanced -> (index, index) {
    %qo = tile.call @indptr_rows(%qo_indptr, %n_seqs) : (!tile.ptr<i32>, index) -> !tile.view<1x?xi32>
    %kv = tile.call @indptr_rows(%kv_indptr, %n_seqs) : (!tile.ptr<i32>, index) -> !tile.view<1x?xi32>
    %zero = arith.constant 0 : i32
    %zeros = tile.splat %zero : !seqs
    %sum = scf.for %s0 = %c0 to %n_seqs step %c64 iter_args(%acc = %zeros) -> !seqs {
      %has, %has_before, %n, %blocks, %rows, %extra, %long, %shorts, %short, %final =
          tile.call @chunk_facts(%qo, %kv, %s0, %n_seqs, %c0, %h, %tile, %br, %c1, %c1,
                                 %c0)
          : (!tile.view<1x?xi32>, !tile.view<1x?xi32>, index, index, index, index, index,
             index, index, index, index)
          -> (!seq_flags, !seq_flags, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs)
      // Capped at one split, a sequence's final range is all its keys.
      %tile_t = tile.call @splat_i32(%tile) : (index) -> !seqs
      %tiles = tile.call @cdiv_t(%final, %tile_t) : (!seqs, !seqs) -> !seqs
      %reads = arith.muli %tiles, %blocks : !seqs
      %m_reads = tile.call @masked(%has, %reads) : (!seq_flags, !seqs) -> !seqs
      %acc2 = arith.addi %acc, %m_reads : !seqs
      scf.yield %acc2 : !seqs
    }
    %reads = tile.call @total(%sum) : (!seqs) -> index
    %per = tile.call @cdiv(%reads, %par) : (index, index) -> index
    %at_least_one = arith.maxsi %per, %c1 : index
    scf.yield %at_least_one, %c0 : index, index
  } else {
    %fixed = tile.call @cdiv(%c1024, %tile) : (index, index) -> index
    %up = arith.subi %fixed, %c1 : index
    scf.yield %fixed, %up : index, index
  }
  tile.return %chunk#0, %chunk#1 : index, index
}

/// ceil(a / b) for a >= 0, b >= 1.
tile.func @cdiv(%a: index, %b: index) -> index {
  %c1 = arith.constant 1 : index
  %bm1 = arith.subi %b, %c1 : index
  %s = arith.addi %a, %bm1 : index
  %q = arith.divui %s, %b : index
  tile.return %q : index
}

/// What the plan makes of sequence %b: where its queries and keys start,
/// its keys, query rows, row blocks and ranges, and how its keys split:
/// the first %extra ranges have %long keys, the others but the last
/// %short (one tile fewer).
tile.func @sequence(%qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %b: index,
                    %h: index, %tile: index, %br: index, %split_cap: index,
                    %chunk: index, %round: index)
    -> (index, index, index, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b1 = arith.addi %b, %c1 : index
  %q0 = tile.load_scalar %qo_indptr[%b] : !tile.ptr<i32>
  %q1 = tile.load_scalar %qo_indptr[%b1] : !tile.ptr<i32>
  %k0 = tile.load_scalar %kv_indptr[%b] : !tile.ptr<i32>
  %k1 = tile.load_scalar %kv_indptr[%b1] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q0 : i32 to index
  %q_end = arith.index_cast %q1 : i32 to index
  %kv_begin = arith.index_cast %k0 : i32 to index
  %kv_end = arith.index_cast %k1 : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index
  %kv_len = arith.subi %kv_end, %kv_begin : index
  %rows = arith.muli %q_len, %h : index
  %blocks = tile.call @cdiv(%rows, %br) : (index, index) -> index
  %tiles = tile.call @cdiv(%kv_len, %tile) : (index, index) -> index
  %rounded = arith.addi %tiles, %round : index
  %wanted = arith.divui %rounded, %chunk : index
  %capped = arith.minsi %wanted, %split_cap : index
  %one_at_least = arith.maxsi %capped, %c1 : index
  %has_rows = arith.cmpi sgt, %rows, %c0 : index
  %splits = arith.select %has_rows, %one_at_least, %c0 : index
  %n = arith.maxsi %splits, %c1 : index
  %base = arith.divui %tiles, %n : index
  %extra = arith.remui %tiles, %n : index
  %base1 = arith.addi %base, %c1 : index
  %long = arith.muli %base1, %tile : index
  %short = arith.muli %base, %tile : index
  tile.return %q_begin, %kv_begin, %kv_len, %rows, %blocks, %splits, %extra, %long, %short
      : index, index, index, index, index, index, index, index, index
}

/// The keys of the last of %splits ranges: what the others leave.
tile.func @last_length(%kv_len: index, %long: index, %short: index, %splits: index,
                       %extra: index, %tile: index) -> index {
  %c1 = arith.constant 1 : index
  %n1 = arith.subi %splits, %c1 : index
  %shorts = arith.subi %n1, %extra : index
  %a = arith.muli %extra, %long : index
  %b = arith.muli %shorts, %short : index
  %before = arith.addi %a, %b : index
  %final = arith.subi %kv_len, %before : index
  tile.return %final : index
}

/// Keys [begin, end) of range %s of a sequence's %splits, from its first key.
tile.func @range_keys(%s: index, %splits: index, %extra: index, %long: index,
                      %kv_len: index, %tile: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %short = arith.subi %long, %tile : index
  %s1 = arith.addi %s, %c1 : index
  %begin = tile.call @range_start(%s, %extra, %long, %short) : (index, index, index, index) -> index
  %end0 = tile.call @range_start(%s1, %extra, %long, %short) : (index, index, index, index) -> index
  %end = arith.minsi %end0, %kv_len : index
  tile.return %begin, %end : index, index
}

/// The first key of range %s: %s ranges before it, the first %extra long.
tile.func @range_start(%s: index, %extra: index, %long: index, %short: index) -> index {
  %longs = arith.minsi %s, %extra : index
  %shorts = arith.subi %s, %longs : index
  %a = arith.muli %longs, %long : index
  %b = arith.muli %shorts, %short : index
  %start = arith.addi %a, %b : index
  tile.return %start : index
}

/// The place of range %s's first work item in the plan's order (longest
/// range first, then sequence, split, row block): after the %before_*
/// items of other sequences that precede a range of its length, and the
/// items of this sequence's earlier ranges as long.
tile.func @position(%before_long: index, %before_short: index, %before_final: index,
                    %s: index, %splits: index, %extra: index, %long: index,
                    %short: index, %final: index, %blocks: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n1 = arith.subi %splits, %c1 : index
  %is_final = arith.cmpi eq, %s, %n1 : index
  %is_long = arith.cmpi ult, %s, %extra : index
  %before_mid = arith.select %is_long, %before_long, %before_short : index
  %before = arith.select %is_final, %before_final, %before_mid : index
  %mid = arith.select %is_long, %long, %short : index
  %len = arith.select %is_final, %final, %mid : index
  // This sequence's earlier ranges of the same length: long ones among
  // the first %extra, short ones after them (the final range is last).
  %longs = arith.minsi %s, %extra : index
  %upto = arith.minsi %s, %n1 : index
  %shorts0 = arith.subi %upto, %extra : index
  %shorts = arith.maxsi %shorts0, %c0 : index
  %same_long = arith.cmpi eq, %len, %long : index
  %same_short = arith.cmpi eq, %len, %short : index
  %l = arith.select %same_long, %longs, %c0 : index
  %sh = arith.select %same_short, %shorts, %c0 : index
  %own0 = arith.addi %l, %sh : index
  %own = arith.muli %own0, %blocks : index
  %pos = arith.addi %before, %own : index
  tile.return %pos : index
}

/// A table row of eight fields.
tile.func @entry(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index,
                 %a5: index, %a6: index, %a7: index) -> !entry {
  %c0 = arith.constant 0 : index
  %ids = tile.range from %c0 : tensor<8xindex>
  %fields = tile.broadcast %ids dims [0] : tensor<8xindex> -> !entry_ids
  %last = arith.index_cast %a7 : index to i32
  %row7 = tile.splat %last : !entry
  %c6_ = arith.constant 6 : index
  %k6 = tile.splat %c6_ : !entry_ids
  %is6 = arith.cmpi eq, %fields, %k6 : !entry_ids
  %x6 = arith.index_cast %a6 : index to i32
  %v6 = tile.splat %x6 : !entry
  %row6 = arith.select %is6, %v6, %row7 : !entry_flags, !entry
  %c5_ = arith.constant 5 : index
  %k5 = tile.splat %c5_ : !entry_ids
  %is5 = arith.cmpi eq, %fields, %k5 : !entry_ids
  %x5 = arith.index_cast %a5 : index to i32
  %v5 = tile.splat %x5 : !entry
  %row5 = arith.select %is5, %v5, %row6 : !entry_flags, !entry
  %c4_ = arith.constant 4 : index
  %k4 = tile.splat %c4_ : !entry_ids
  %is4 = arith.cmpi eq, %fields, %k4 : !entry_ids
  %x4 = arith.index_cast %a4 : index to i32
  %v4 = tile.splat %x4 : !entry
  %row4 = arith.select %is4, %v4, %row5 : !entry_flags, !entry
  %c3_ = arith.constant 3 : index
  %k3 = tile.splat %c3_ : !entry_ids
  %is3 = arith.cmpi eq, %fields, %k3 : !entry_ids
  %x3 = arith.index_cast %a3 : index to i32
  %v3 = tile.splat %x3 : !entry
  %row3 = arith.select %is3, %v3, %row4 : !entry_flags, !entry
  %c2_ = arith.constant 2 : index
  %k2 = tile.splat %c2_ : !entry_ids
  %is2 = arith.cmpi eq, %fields, %k2 : !entry_ids
  %x2 = arith.index_cast %a2 : index to i32
  %v2 = tile.splat %x2 : !entry
  %row2 = arith.select %is2, %v2, %row3 : !entry_flags, !entry
  %c1_ = arith.constant 1 : index
  %k1 = tile.splat %c1_ : !entry_ids
  %is1 = arith.cmpi eq, %fields, %k1 : !entry_ids
  %x1 = arith.index_cast %a1 : index to i32
  %v1 = tile.splat %x1 : !entry
  %row1 = arith.select %is1, %v1, %row2 : !entry_flags, !entry
  %c0_ = arith.constant 0 : index
  %k0 = tile.splat %c0_ : !entry_ids
  %is0 = arith.cmpi eq, %fields, %k0 : !entry_ids
  %x0 = arith.index_cast %a0 : index to i32
  %v0 = tile.splat %x0 : !entry
  %row0 = arith.select %is0, %v0, %row1 : !entry_flags, !entry
  tile.return %row0 : !entry
}

/// %x as a [1, 64] tile of i32.
tile.func @splat_i32(%x: index) -> !seqs {
  %i = arith.index_cast %x : index to i32
  %t = tile.splat %i : !seqs
  tile.return %t : !seqs
}

/// %count where %flags holds, else 0.
tile.func @masked(%flags: !seq_flags, %count: !seqs) -> !seqs {
  %zero = arith.constant 0 : i32
  %zeros = tile.splat %zero : !seqs
  %r = arith.select %flags, %count, %zeros : !seq_flags, !seqs
  tile.return %r : !seqs
}

/// How many of a sequence's ranges are longer than %x (predicate sgt) or
/// as long (eq): %extra of %long keys, %shorts of %short, one of %final.
tile.func @ranges_longer(%x: !seqs, %extra: !seqs, %long: !seqs, %shorts: !seqs,
                         %short: !seqs, %final: !seqs) -> (!seqs, !seqs) {
  %gl = arith.cmpi sgt, %long, %x : !seqs
  %gs = arith.cmpi sgt, %short, %x : !seqs
  %gf = arith.cmpi sgt, %final, %x : !seqs
  %el = arith.cmpi eq, %long, %x : !seqs
  %es = arith.cmpi eq, %short, %x : !seqs
  %ef = arith.cmpi eq, %final, %x : !seqs
  %gt = tile.call @weigh(%gl, %gs, %gf, %extra, %shorts) : (!seq_flags, !seq_flags, !seq_flags, !seqs, !seqs) -> !seqs
  %eq = tile.call @weigh(%el, %es, %ef, %extra, %shorts) : (!seq_flags, !seq_flags, !seq_flags, !seqs, !seqs) -> !seqs
  tile.return %gt, %eq : !seqs, !seqs
}

/// %extra where %l, plus %shorts where %s, plus 1 where %f.
tile.func @weigh(%l: !seq_flags, %s: !seq_flags, %f: !seq_flags, %extra: !seqs,
                 %shorts: !seqs) -> !seqs {
  %a = tile.call @masked(%l, %extra) : (!seq_flags, !seqs) -> !seqs
  %b = tile.call @masked(%s, %shorts) : (!seq_flags, !seqs) -> !seqs
  %c = arith.extui %f : !seq_flags to !seqs
  %ab = arith.addi %a, %b : !seqs
  %abc = arith.addi %ab, %c : !seqs
  tile.return %abc : !seqs
}

/// The plan's facts for sequences [%s0, %s0 + 64): where each has query
/// rows (and is before %b), its ranges, row blocks and query rows, and how
/// its keys split: %extra ranges of %long keys, %shorts of %short, and a
/// final one of %final.
tile.func @chunk_facts(%qo: !tile.view<1x?xi32>, %kv: !tile.view<1x?xi32>, %s0: index,
                       %n_seqs: index, %b: index, %h: index, %tile: index, %br: index,
                       %split_cap: index, %chunk: index, %round: index)
    -> (!seq_flags, !seq_flags, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s1 = arith.addi %s0, %c1 : index
  %q0 = tile.load %qo[%c0, %s0] : !tile.view<1x?xi32> -> !seqs
  %q1 = tile.load %qo[%c0, %s1] : !tile.view<1x?xi32> -> !seqs
  %k0 = tile.load %kv[%c0, %s0] : !tile.view<1x?xi32> -> !seqs
  %k1 = tile.load %kv[%c0, %s1] : !tile.view<1x?xi32> -> !seqs
  %ids1 = tile.range from %s0 : tensor<64xindex>
  %ids = tile.broadcast %ids1 dims [0] : tensor<64xindex> -> !seq_ids
  %n_t = tile.splat %n_seqs : !seq_ids
  %b_t = tile.splat %b : !seq_ids
  %valid = arith.cmpi slt, %ids, %n_t : !seq_ids
  %earlier = arith.cmpi slt, %ids, %b_t : !seq_ids
  %h_t = tile.call @splat_i32(%h) : (index) -> !seqs
  %tile_t = tile.call @splat_i32(%tile) : (index) -> !seqs
  %br_t = tile.call @splat_i32(%br) : (index) -> !seqs
  %cap_t = tile.call @splat_i32(%split_cap) : (index) -> !seqs
  %chunk_t = tile.call @splat_i32(%chunk) : (index) -> !seqs
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %zeros = tile.splat %zero : !seqs
  %ones = tile.splat %one : !seqs
  %q_len = arith.subi %q1, %q0 : !seqs
  %rows = arith.muli %q_len, %h_t : !seqs
  %kv_len = arith.subi %k1, %k0 : !seqs
  %tiles = tile.call @cdiv_t(%kv_len, %tile_t) : (!seqs, !seqs) -> !seqs
  %blocks = tile.call @cdiv_t(%rows, %br_t) : (!seqs, !seqs) -> !seqs
  %round_t = tile.call @splat_i32(%round) : (index) -> !seqs
  %rounded = arith.addi %tiles, %round_t : !seqs
  %wanted = arith.divui %rounded, %chunk_t : !seqs
  %capped = arith.minsi %wanted, %cap_t : !seqs
  %n = arith.maxsi %capped, %ones : !seqs
  %some_rows = arith.cmpi sgt, %rows, %zeros : !seqs
  %has = arith.andi %valid, %some_rows : !seq_flags
  %has_before = arith.andi %has, %earlier : !seq_flags
  %base = arith.divui %tiles, %n : !seqs
  %extra = arith.remui %tiles, %n : !seqs
  %base1 = arith.addi %base, %ones : !seqs
  %long = arith.muli %base1, %tile_t : !seqs
  %short = arith.muli %base, %tile_t : !seqs
  %n1 = arith.subi %n, %ones : !seqs
  %shorts = arith.subi %n1, %extra : !seqs
  %el = arith.muli %extra, %long : !seqs
  %es = arith.muli %shorts, %short : !seqs
  %before_final = arith.addi %el, %es : !seqs
  %final = arith.subi %kv_len, %before_final : !seqs
  tile.return %has, %has_before, %n, %blocks, %rows, %extra, %long, %shorts, %short, %final
      : !seq_flags, !seq_flags, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs
}

/// The views of the indptrs of %n_seqs sequences as [1, %n_seqs + 1].
tile.func @indptr_rows(%indptr: !tile.ptr<i32>, %n_seqs: index) -> !tile.view<1x?xi32> {
  %c1 = arith.constant 1 : index
  %entries = arith.addi %n_seqs, %c1 : index
  %v = tile.view %indptr sizes [1, %entries] strides [%entries, 1]
      : !tile.ptr<i32> -> !tile.view<1x?xi32>
  tile.return %v : !tile.view<1x?xi32>
}

/// The work items of all sequences' ranges longer than %x, and of the
/// ranges as long of the sequences before %b.
tile.func @count_longer(%qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>,
                        %n_seqs: index, %b: index, %h: index, %tile: index,
                        %br: index, %split_cap: index, %chunk: index, %round: index,
                        %x: index)
    -> (index, index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %qo = tile.call @indptr_rows(%qo_indptr, %n_seqs) : (!tile.ptr<i32>, index) -> !tile.view<1x?xi32>
  %kv = tile.call @indptr_rows(%kv_indptr, %n_seqs) : (!tile.ptr<i32>, index) -> !tile.view<1x?xi32>
  %x_t = tile.call @splat_i32(%x) : (index) -> !seqs
  %zero = arith.constant 0 : i32
  %zeros = tile.splat %zero : !seqs
  %r:2 = scf.for %s0 = %c0 to %n_seqs step %c64
      iter_args(%gt_sum = %zeros, %eq_sum = %zeros) -> (!seqs, !seqs) {
    %has, %has_before, %n, %blocks, %rows, %extra, %long, %shorts, %short, %final =
        tile.call @chunk_facts(%qo, %kv, %s0, %n_seqs, %b, %h, %tile, %br, %split_cap,
                               %chunk, %round)
        : (!tile.view<1x?xi32>, !tile.view<1x?xi32>, index, index, index, index, index,
           index, index, index, index)
        -> (!seq_flags, !seq_flags, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs)
    %gt, %eq = tile.call @ranges_longer(%x_t, %extra, %long, %shorts, %short, %final)
        : (!seqs, !seqs, !seqs, !seqs, !seqs, !seqs) -> (!seqs, !seqs)
    %w_gt = arith.muli %gt, %blocks : !seqs
    %w_eq = arith.muli %eq, %blocks : !seqs
    %m_gt = tile.call @masked(%has, %w_gt) : (!seq_flags, !seqs) -> !seqs
    %m_eq = tile.call @masked(%has_before, %w_eq) : (!seq_flags, !seqs) -> !seqs
    %gt2 = arith.addi %gt_sum, %m_gt : !seqs
    %eq2 = arith.addi %eq_sum, %m_eq : !seqs
    scf.yield %gt2, %eq2 : !seqs, !seqs
  }
  %gt = tile.call @total(%r#0) : (!seqs) -> index
  %eq = tile.call @total(%r#1) : (!seqs) -> index
  tile.return %gt, %eq : index, index
}

/// Over the sequences before %b: their part rows, combine items and work
/// items.
tile.func @count_earlier(%qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>,
                         %n_seqs: index, %b: index, %h: index, %tile: index,
                         %br: index, %cbr: index, %split_cap: index, %chunk: index,
                         %round: index)
    -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %qo = tile.call @indptr_rows(%qo_indptr, %n_seqs) : (!tile.ptr<i32>, index) -> !tile.view<1x?xi32>
  %kv = tile.call @indptr_rows(%kv_indptr, %n_seqs) : (!tile.ptr<i32>, index) -> !tile.view<1x?xi32>
  %cbr_t = tile.call @splat_i32(%cbr) : (index) -> !seqs
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %zeros = tile.splat %zero : !seqs
  %ones = tile.splat %one : !seqs
  %r:3 = scf.for %s0 = %c0 to %n_seqs step %c64
      iter_args(%part_sum = %zeros, %comb_sum = %zeros, %item_sum = %zeros)
      -> (!seqs, !seqs, !seqs) {
    %has, %has_before, %n, %blocks, %rows, %extra, %long, %shorts, %short, %final =
        tile.call @chunk_facts(%qo, %kv, %s0, %n_seqs, %b, %h, %tile, %br, %split_cap,
                               %chunk, %round)
        : (!tile.view<1x?xi32>, !tile.view<1x?xi32>, index, index, index, index, index,
           index, index, index, index)
        -> (!seq_flags, !seq_flags, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs, !seqs)
    %several = arith.cmpi sgt, %n, %ones : !seqs
    %split_before = arith.andi %has_before, %several : !seq_flags
    %part = arith.muli %n, %rows : !seqs
    %m_part = tile.call @masked(%split_before, %part) : (!seq_flags, !seqs) -> !seqs
    %comb = tile.call @cdiv_t(%rows, %cbr_t) : (!seqs, !seqs) -> !seqs
    %m_comb = tile.call @masked(%split_before, %comb) : (!seq_flags, !seqs) -> !seqs
    %items = arith.muli %n, %blocks : !seqs
    %m_items = tile.call @masked(%has_before, %items) : (!seq_flags, !seqs) -> !seqs
    %p2 = arith.addi %part_sum, %m_part : !seqs
    %c2 = arith.addi %comb_sum, %m_comb : !seqs
    %i2 = arith.addi %item_sum, %m_items : !seqs
    scf.yield %p2, %c2, %i2 : !seqs, !seqs, !seqs
  }
  %part = tile.call @total(%r#0) : (!seqs) -> index
  %comb = tile.call @total(%r#1) : (!seqs) -> index
  %items = tile.call @total(%r#2) : (!seqs) -> index
  tile.return %part, %comb, %items : index, index, index
}

/// ceil(a / b) elementwise, for a >= 0 and b >= 1.
tile.func @cdiv_t(%a: !seqs, %b: !seqs) -> !seqs {
  %one = arith.constant 1 : i32
  %ones = tile.splat %one : !seqs
  %bm1 = arith.subi %b, %ones : !seqs
  %s = arith.addi %a, %bm1 : !seqs
  %q = arith.divui %s, %b : !seqs
  tile.return %q : !seqs
}

/// The sum of a tile, as an index.
tile.func @total(%t: !seqs) -> index {
  %c0 = arith.constant 0 : index
  %s = tile.reduce sum %t dim 1 : !seqs -> !sum
  %v = tensor.extract %s[%c0] : !sum
  %x = arith.index_cast %v : i32 to index
  tile.return %x : index
}


// Checked host runs (float64 reference, poisoned outputs) of the plan the
// device makes: in each KV format, with heads 16 to 128 and q_len 1 and 3,
// batches with empty sequences and sequences longer than the 1024-key
// chunk of the reproducible plan, which are split (SPLIT). @mla_plan's
// tables equal the host's (DEVICE), and their padded form runs as a
// PyTorch call launches it. test/Integration runs the flagship's formats,
// head counts, q_lens and plans on host-planned batches.
// DEFINE: %{run} = mla-run --target host --module %t.so --check
// DEVICE: plan: mla_plan matches the host plan
// SPLIT: plan=reproducible programs={{[0-9]+}} work_items={{[0-9]+}} combine_items={{[1-9][0-9]*}} max_splits={{[2-9]}}
// HOST: check: rel_fro={{.*}} outside_tol=0/{{[0-9]+}} nan=0 PASS
//
// RUN: %{run} --kv-dtype bf16 --heads 16 --q-len 1 --kv-lens 100,0,1100 --seed 101 --plan-on-device | FileCheck %s --check-prefixes=DEVICE,HOST,SPLIT
// RUN: %{run} --kv-dtype bf16 --heads 64 --q-len 1 --kv-lens 0,1030 --seed 109 --plan-on-device | FileCheck %s --check-prefixes=DEVICE,HOST,SPLIT
// RUN: %{run} --kv-dtype fp8 --heads 32 --q-len 1 --kv-lens 1030,0,9 --seed 205 --plan-on-device | FileCheck %s --check-prefixes=DEVICE,HOST,SPLIT
// RUN: %{run} --kv-dtype fp8 --heads 64 --q-len 3 --kv-lens 1100,0,10 --seed 211 --plan-on-device | FileCheck %s --check-prefixes=DEVICE,HOST,SPLIT
// RUN: %{run} --kv-dtype mxfp4 --heads 16 --q-len 1 --kv-lens 1,0,2100 --seed 301 --plan-on-device | FileCheck %s --check-prefixes=DEVICE,HOST,SPLIT
// RUN: %{run} --kv-dtype mxfp4 --heads 32 --q-len 3 --kv-lens 70,1300,0 --seed 307 --plan-on-device | FileCheck %s --check-prefixes=DEVICE,HOST,SPLIT
// RUN: %{run} --kv-dtype mxfp4 --heads 64 --q-len 1 --kv-lens 1100,0 --seed 309 --plan-on-device | FileCheck %s --check-prefixes=DEVICE,HOST,SPLIT
// RUN: %{run} --kv-dtype mxfp4 --heads 128 --q-len 3 --kv-lens 1030,0 --seed 315 --plan-on-device | FileCheck %s --check-prefixes=DEVICE,HOST,SPLIT
//
// fp8_fnuz (MI300X's e4m3fnuz bytes, scaled to +-240) is in gfx942's set
// only; the host runs its instances on request, each byte decoded with
// bias 8 (0x80 is the only NaN).
// RUN: mla-compile %s --target=host -o %t.fnuz.so --instances=mla_partial:KV=fp8_fnuz
// RUN: mla-run --target host --module %t.fnuz.so --check --kv-dtype fp8_fnuz --heads 16 --q-len 1 --kv-lens 1,0,2100 --kv-spare-rows 5 --seed 401 | FileCheck %s --check-prefixes=HOST,SPLIT
// RUN: mla-run --target host --module %t.fnuz.so --check --kv-dtype fp8_fnuz --heads 32 --q-len 4 --kv-lens 95,0,3 --seed 402 | FileCheck %s --check-prefix=HOST
