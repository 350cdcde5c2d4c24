// The DeepSeek-R1 MLA decode kernel (GPU MODE "amd-mixed-mla") in the tile
// language.
//
// Problem: q [total_q, H, 576] bf16; one latent KV head [total_kv, 576] stored
// as bf16, fp8 (+ one f32 scale) or MXFP4 ([total_kv, 288] packed bytes + E8M0
// scales per 32); keys use all 576 dims, values the first 512; out
// [total_q, H, 512] bf16. Sequences are ragged (qo_indptr, kv_indptr), q_len
// 1..4 with the bottom-right causal rule: query j of Q sees the first
// L - Q + 1 + j keys.
//
// Split-KV in two kernels (docs/ABI.md, "MLA decode kernels"). A sequence's
// query rows are its flattened (token, head) pairs; the host's launch plan
// cuts its KV rows into splits and its rows into blocks of 64:
//  - @mla_partial_<kv>_h<H>: one program per work item (sequence, KV range,
//    block of 64 rows): online softmax over 64-key tiles, each tile loaded
//    once for all the block's tokens, under an [M, N] causal mask. A
//    sequence with one split gets its bf16 output here; otherwise the
//    normalized partial output and its log-sum-exp go to the split's part
//    rows.
//  - @mla_combine: one program per combine item (16 rows of a sequence with
//    several splits): merges the rows' splits with a running log-sum-exp.
// Tile sizes (64 keys, 64 and 16 rows) are program constants, announced to
// the runtime by the launch keys kv_tile and block_rows.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mla-opt %s --tile-to-primitives | FileCheck %s --check-prefix=PRIMS --implicit-check-not=tile.qk_softmax_acc
// RUN: mla-compile %s --target=host -o %t.so
// RUN: mla-run --target host --module %t.so --kv-dtype bf16 --heads 16 --q-len 1 --kv-lens 100,7,1100 --seed 1 --check | FileCheck %s --check-prefixes=HOST,SPLIT
// RUN: mla-run --target host --module %t.so --kv-dtype fp8 --heads 32 --q-len 2 --kv-lens 65,0 --seed 2 --check | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target host --module %t.so --kv-dtype mxfp4 --heads 16 --q-len 4 --kv-lens 130,1300 --seed 3 --check | FileCheck %s --check-prefixes=HOST,SPLIT
//
// SPLIT: plan=reproducible work_items={{[0-9]+}} combine_items={{[1-9][0-9]*}} max_splits=2
// HOST: check: {{.*}} outside_tol=0/{{[0-9]+}} nan=0 PASS

// ROUNDTRIP-LABEL: tile.kernel @mla_partial_bf16_h16(
// ROUNDTRIP: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<64x64xi1> : tensor<64x576xbf16>
// PRIMS-LABEL: tile.kernel @mla_partial_bf16_h16(
// PRIMS: tile.dot {{.*}} : tensor<64x576xbf16>, tensor<576x64xbf16> -> tensor<64x64xf32>
// PRIMS: math.exp
// PRIMS: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x512xbf16> -> tensor<64x512xf32>
tile.kernel @mla_partial_bf16_h16(%q: !tile.ptr<bf16>, %kv: !tile.ptr<bf16>,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>,
    %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "bf16", heads = 16 : i64,
                               kv_tile = 64 : i64, block_rows = 64 : i64,
                               grid = ["work_items", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c576 = arith.constant 576 : index
  %heads = arith.constant 16 : index
  %q_row_elems = arith.constant 9216 : index
  %out_row_elems = arith.constant 8192 : index
  %c512 = arith.constant 512 : index
  %w = tile.program_id x

  // Work item {seq, kv_begin, kv_end, split, num_splits, row_begin, part_row, 0}.
  %w0 = arith.muli %w, %c8 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w4 = arith.addi %w0, %c4 : index
  %w5 = arith.addi %w0, %c5 : index
  %w6 = arith.addi %w0, %c6 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %num_splits_i = tile.load_scalar %work[%w4] : !tile.ptr<i32>
  %row_begin_i = tile.load_scalar %work[%w5] : !tile.ptr<i32>
  %part_row_i = tile.load_scalar %work[%w6] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %num_splits = arith.index_cast %num_splits_i : i32 to index
  %row_begin = arith.index_cast %row_begin_i : i32 to index
  %part_row = arith.index_cast %part_row_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_stop_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_stop = arith.index_cast %kv_stop_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index
  %rows = arith.muli %q_len, %heads : index

  // The block's query rows r = j * 16 + h of the sequence, all tokens at once.
  %q_off = arith.muli %q_begin, %q_row_elems : index
  %q_seq = tile.view %q[%q_off] sizes [%rows, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  %qt = tile.load %q_seq[%row_begin, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>

  // Causal: token j sees the keys before kv_stop - q_len + 1 + j; the
  // work item's keys end at kv_end.
  %rows_r = tile.range from %row_begin : tensor<64xindex>
  %heads_r = tile.splat %heads : tensor<64xindex>
  %token = arith.divui %rows_r, %heads_r : tensor<64xindex>
  %hidden = arith.subi %q_len, %c1 : index
  %visible0 = arith.subi %kv_stop, %hidden : index
  %visible0_r = tile.splat %visible0 : tensor<64xindex>
  %visible = arith.addi %token, %visible0_r : tensor<64xindex>
  %end_r = tile.splat %end : tensor<64xindex>
  %row_end = arith.minsi %visible, %end_r : tensor<64xindex>
  %row_end_t = tile.broadcast %row_end dims [1] : tensor<64xindex> -> tensor<64x64xindex>

  %n = arith.subi %end, %begin : index
  %kv_off = arith.muli %begin, %c576 : index
  %kv_range = tile.view %kv[%kv_off] sizes [%n, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>

  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : tensor<64xf32>
  %l0 = tile.splat %zero : tensor<64xf32>
  %acc0 = tile.splat %zero : tensor<64x512xf32>
  %r:3 = scf.for %t = %c0 to %n step %c64
      iter_args(%m = %m0, %l = %l0, %acc = %acc0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>) {
    // One load of the KV tile: K is all 576 columns, V the first 512.
    // Rows past the range load as zero; the mask keeps them out.
    %kvt = tile.load %kv_range[%t, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
    %v = tensor.extract_slice %kvt[0, 0] [64, 512] [1, 1]
        : tensor<64x576xbf16> to tensor<64x512xbf16>
    %key0 = arith.addi %begin, %t : index
    %keys = tile.range from %key0 : tensor<64xindex>
    %keys_t = tile.broadcast %keys dims [0] : tensor<64xindex> -> tensor<64x64xindex>
    %mask = arith.cmpi slt, %keys_t, %row_end_t : tensor<64x64xindex>
    %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kvt, %v, %m, %l, %acc
        scale %sm_scale mask %mask : tensor<64x64xi1>
        : tensor<64x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<64x512xf32>
    scf.yield %m2, %l2, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>
  }

  // o = acc / l; a row that saw no key stores o = 0 and lse = -inf.
  %zeros = tile.splat %zero : tensor<64x512xf32>
  %l_rows = tile.broadcast %r#1 dims [1] : tensor<64xf32> -> tensor<64x512xf32>
  %o_raw = arith.divf %r#2, %l_rows : tensor<64x512xf32>
  %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<64x512xf32>
  %o = arith.select %no_keys, %zeros, %o_raw : tensor<64x512xi1>, tensor<64x512xf32>

  // A sequence with one split writes its output here; otherwise the split
  // goes to its part rows for the combine kernel.
  %single = arith.cmpi eq, %num_splits, %c1 : index
  scf.if %single {
    %out_off = arith.muli %q_begin, %out_row_elems : index
    %out_seq = tile.view %out[%out_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<bf16> -> !tile.view<?x512xbf16>
    %o16 = arith.truncf %o : tensor<64x512xf32> to tensor<64x512xbf16>
    tile.store %o16, %out_seq[%row_begin, %c0] : tensor<64x512xbf16>, !tile.view<?x512xbf16>
  } else {
    %log_l = math.log %r#1 : tensor<64xf32>
    %lse = arith.addf %r#0, %log_l : tensor<64xf32>
    %part_off = arith.muli %part_row, %c512 : index
    %part_seq = tile.view %part_out[%part_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<?x512xf32>
    tile.store %o, %part_seq[%row_begin, %c0] : tensor<64x512xf32>, !tile.view<?x512xf32>
    %lse_seq = tile.view %part_lse[%part_row] sizes [%rows] strides [1]
        : !tile.ptr<f32> -> !tile.view<?xf32>
    tile.store %lse, %lse_seq[%row_begin] : tensor<64xf32>, !tile.view<?xf32>
  }
  tile.return
}

// ROUNDTRIP-LABEL: tile.kernel @mla_partial_bf16_h32(
// ROUNDTRIP: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<64x64xi1> : tensor<64x576xbf16>
// PRIMS-LABEL: tile.kernel @mla_partial_bf16_h32(
// PRIMS: tile.dot {{.*}} : tensor<64x576xbf16>, tensor<576x64xbf16> -> tensor<64x64xf32>
// PRIMS: math.exp
// PRIMS: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x512xbf16> -> tensor<64x512xf32>
tile.kernel @mla_partial_bf16_h32(%q: !tile.ptr<bf16>, %kv: !tile.ptr<bf16>,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>,
    %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "bf16", heads = 32 : i64,
                               kv_tile = 64 : i64, block_rows = 64 : i64,
                               grid = ["work_items", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c576 = arith.constant 576 : index
  %heads = arith.constant 32 : index
  %q_row_elems = arith.constant 18432 : index
  %out_row_elems = arith.constant 16384 : index
  %c512 = arith.constant 512 : index
  %w = tile.program_id x

  // Work item {seq, kv_begin, kv_end, split, num_splits, row_begin, part_row, 0}.
  %w0 = arith.muli %w, %c8 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w4 = arith.addi %w0, %c4 : index
  %w5 = arith.addi %w0, %c5 : index
  %w6 = arith.addi %w0, %c6 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %num_splits_i = tile.load_scalar %work[%w4] : !tile.ptr<i32>
  %row_begin_i = tile.load_scalar %work[%w5] : !tile.ptr<i32>
  %part_row_i = tile.load_scalar %work[%w6] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %num_splits = arith.index_cast %num_splits_i : i32 to index
  %row_begin = arith.index_cast %row_begin_i : i32 to index
  %part_row = arith.index_cast %part_row_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_stop_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_stop = arith.index_cast %kv_stop_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index
  %rows = arith.muli %q_len, %heads : index

  // The block's query rows r = j * 32 + h of the sequence, all tokens at once.
  %q_off = arith.muli %q_begin, %q_row_elems : index
  %q_seq = tile.view %q[%q_off] sizes [%rows, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  %qt = tile.load %q_seq[%row_begin, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>

  // Causal: token j sees the keys before kv_stop - q_len + 1 + j; the
  // work item's keys end at kv_end.
  %rows_r = tile.range from %row_begin : tensor<64xindex>
  %heads_r = tile.splat %heads : tensor<64xindex>
  %token = arith.divui %rows_r, %heads_r : tensor<64xindex>
  %hidden = arith.subi %q_len, %c1 : index
  %visible0 = arith.subi %kv_stop, %hidden : index
  %visible0_r = tile.splat %visible0 : tensor<64xindex>
  %visible = arith.addi %token, %visible0_r : tensor<64xindex>
  %end_r = tile.splat %end : tensor<64xindex>
  %row_end = arith.minsi %visible, %end_r : tensor<64xindex>
  %row_end_t = tile.broadcast %row_end dims [1] : tensor<64xindex> -> tensor<64x64xindex>

  %n = arith.subi %end, %begin : index
  %kv_off = arith.muli %begin, %c576 : index
  %kv_range = tile.view %kv[%kv_off] sizes [%n, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>

  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : tensor<64xf32>
  %l0 = tile.splat %zero : tensor<64xf32>
  %acc0 = tile.splat %zero : tensor<64x512xf32>
  %r:3 = scf.for %t = %c0 to %n step %c64
      iter_args(%m = %m0, %l = %l0, %acc = %acc0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>) {
    // One load of the KV tile: K is all 576 columns, V the first 512.
    // Rows past the range load as zero; the mask keeps them out.
    %kvt = tile.load %kv_range[%t, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
    %v = tensor.extract_slice %kvt[0, 0] [64, 512] [1, 1]
        : tensor<64x576xbf16> to tensor<64x512xbf16>
    %key0 = arith.addi %begin, %t : index
    %keys = tile.range from %key0 : tensor<64xindex>
    %keys_t = tile.broadcast %keys dims [0] : tensor<64xindex> -> tensor<64x64xindex>
    %mask = arith.cmpi slt, %keys_t, %row_end_t : tensor<64x64xindex>
    %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kvt, %v, %m, %l, %acc
        scale %sm_scale mask %mask : tensor<64x64xi1>
        : tensor<64x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<64x512xf32>
    scf.yield %m2, %l2, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>
  }

  // o = acc / l; a row that saw no key stores o = 0 and lse = -inf.
  %zeros = tile.splat %zero : tensor<64x512xf32>
  %l_rows = tile.broadcast %r#1 dims [1] : tensor<64xf32> -> tensor<64x512xf32>
  %o_raw = arith.divf %r#2, %l_rows : tensor<64x512xf32>
  %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<64x512xf32>
  %o = arith.select %no_keys, %zeros, %o_raw : tensor<64x512xi1>, tensor<64x512xf32>

  // A sequence with one split writes its output here; otherwise the split
  // goes to its part rows for the combine kernel.
  %single = arith.cmpi eq, %num_splits, %c1 : index
  scf.if %single {
    %out_off = arith.muli %q_begin, %out_row_elems : index
    %out_seq = tile.view %out[%out_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<bf16> -> !tile.view<?x512xbf16>
    %o16 = arith.truncf %o : tensor<64x512xf32> to tensor<64x512xbf16>
    tile.store %o16, %out_seq[%row_begin, %c0] : tensor<64x512xbf16>, !tile.view<?x512xbf16>
  } else {
    %log_l = math.log %r#1 : tensor<64xf32>
    %lse = arith.addf %r#0, %log_l : tensor<64xf32>
    %part_off = arith.muli %part_row, %c512 : index
    %part_seq = tile.view %part_out[%part_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<?x512xf32>
    tile.store %o, %part_seq[%row_begin, %c0] : tensor<64x512xf32>, !tile.view<?x512xf32>
    %lse_seq = tile.view %part_lse[%part_row] sizes [%rows] strides [1]
        : !tile.ptr<f32> -> !tile.view<?xf32>
    tile.store %lse, %lse_seq[%row_begin] : tensor<64xf32>, !tile.view<?xf32>
  }
  tile.return
}

// ROUNDTRIP-LABEL: tile.kernel @mla_partial_fp8_h16(
// ROUNDTRIP: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<64x64xi1> : tensor<64x576xbf16>
// PRIMS-LABEL: tile.kernel @mla_partial_fp8_h16(
// PRIMS: tile.dot {{.*}} : tensor<64x576xbf16>, tensor<576x64xbf16> -> tensor<64x64xf32>
// PRIMS: math.exp
// PRIMS: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x512xbf16> -> tensor<64x512xf32>
tile.kernel @mla_partial_fp8_h16(%q: !tile.ptr<bf16>, %kv: !tile.ptr<f8E4M3FN>, %kv_scale: !tile.ptr<f32>,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>,
    %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "fp8", heads = 16 : i64,
                               kv_tile = 64 : i64, block_rows = 64 : i64,
                               grid = ["work_items", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c576 = arith.constant 576 : index
  %heads = arith.constant 16 : index
  %q_row_elems = arith.constant 9216 : index
  %out_row_elems = arith.constant 8192 : index
  %c512 = arith.constant 512 : index
  %w = tile.program_id x

  // Work item {seq, kv_begin, kv_end, split, num_splits, row_begin, part_row, 0}.
  %w0 = arith.muli %w, %c8 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w4 = arith.addi %w0, %c4 : index
  %w5 = arith.addi %w0, %c5 : index
  %w6 = arith.addi %w0, %c6 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %num_splits_i = tile.load_scalar %work[%w4] : !tile.ptr<i32>
  %row_begin_i = tile.load_scalar %work[%w5] : !tile.ptr<i32>
  %part_row_i = tile.load_scalar %work[%w6] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %num_splits = arith.index_cast %num_splits_i : i32 to index
  %row_begin = arith.index_cast %row_begin_i : i32 to index
  %part_row = arith.index_cast %part_row_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_stop_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_stop = arith.index_cast %kv_stop_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index
  %rows = arith.muli %q_len, %heads : index

  // The block's query rows r = j * 16 + h of the sequence, all tokens at once.
  %q_off = arith.muli %q_begin, %q_row_elems : index
  %q_seq = tile.view %q[%q_off] sizes [%rows, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  %qt = tile.load %q_seq[%row_begin, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>

  // Causal: token j sees the keys before kv_stop - q_len + 1 + j; the
  // work item's keys end at kv_end.
  %rows_r = tile.range from %row_begin : tensor<64xindex>
  %heads_r = tile.splat %heads : tensor<64xindex>
  %token = arith.divui %rows_r, %heads_r : tensor<64xindex>
  %hidden = arith.subi %q_len, %c1 : index
  %visible0 = arith.subi %kv_stop, %hidden : index
  %visible0_r = tile.splat %visible0 : tensor<64xindex>
  %visible = arith.addi %token, %visible0_r : tensor<64xindex>
  %end_r = tile.splat %end : tensor<64xindex>
  %row_end = arith.minsi %visible, %end_r : tensor<64xindex>
  %row_end_t = tile.broadcast %row_end dims [1] : tensor<64xindex> -> tensor<64x64xindex>
  // fp8 e4m3 values are exact in bf16: dequantize with a unit scale and
  // apply the tensor scale to the scores and the output instead.
  %kv_scale0 = tile.load_scalar %kv_scale[%c0] : !tile.ptr<f32>
  %unit = arith.constant 1.0 : f32
  %score_scale = arith.mulf %sm_scale, %kv_scale0 : f32

  %n = arith.subi %end, %begin : index
  %kv_off = arith.muli %begin, %c576 : index
  %kv_range = tile.view %kv[%kv_off] sizes [%n, 576] strides [576, 1]
      : !tile.ptr<f8E4M3FN> -> !tile.view<?x576xf8E4M3FN>

  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : tensor<64xf32>
  %l0 = tile.splat %zero : tensor<64xf32>
  %acc0 = tile.splat %zero : tensor<64x512xf32>
  %r:3 = scf.for %t = %c0 to %n step %c64
      iter_args(%m = %m0, %l = %l0, %acc = %acc0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>) {
    // One load of the KV tile: K is all 576 columns, V the first 512.
    // Rows past the range load as zero; the mask keeps them out.
    %kvt8 = tile.load %kv_range[%t, %c0]
        : !tile.view<?x576xf8E4M3FN> -> tensor<64x576xf8E4M3FN>
    %kvt = tile.dequant_fp8 %kvt8, %unit : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
    %v = tensor.extract_slice %kvt[0, 0] [64, 512] [1, 1]
        : tensor<64x576xbf16> to tensor<64x512xbf16>
    %key0 = arith.addi %begin, %t : index
    %keys = tile.range from %key0 : tensor<64xindex>
    %keys_t = tile.broadcast %keys dims [0] : tensor<64xindex> -> tensor<64x64xindex>
    %mask = arith.cmpi slt, %keys_t, %row_end_t : tensor<64x64xindex>
    %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kvt, %v, %m, %l, %acc
        scale %score_scale mask %mask : tensor<64x64xi1>
        : tensor<64x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<64x512xf32>
    scf.yield %m2, %l2, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>
  }

  // o = acc / l; a row that saw no key stores o = 0 and lse = -inf.
  %zeros = tile.splat %zero : tensor<64x512xf32>
  %l_rows = tile.broadcast %r#1 dims [1] : tensor<64xf32> -> tensor<64x512xf32>
  %v_scale = tile.splat %kv_scale0 : tensor<64x512xf32>
  %acc_scaled = arith.mulf %r#2, %v_scale : tensor<64x512xf32>
  %o_raw = arith.divf %acc_scaled, %l_rows : tensor<64x512xf32>
  %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<64x512xf32>
  %o = arith.select %no_keys, %zeros, %o_raw : tensor<64x512xi1>, tensor<64x512xf32>

  // A sequence with one split writes its output here; otherwise the split
  // goes to its part rows for the combine kernel.
  %single = arith.cmpi eq, %num_splits, %c1 : index
  scf.if %single {
    %out_off = arith.muli %q_begin, %out_row_elems : index
    %out_seq = tile.view %out[%out_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<bf16> -> !tile.view<?x512xbf16>
    %o16 = arith.truncf %o : tensor<64x512xf32> to tensor<64x512xbf16>
    tile.store %o16, %out_seq[%row_begin, %c0] : tensor<64x512xbf16>, !tile.view<?x512xbf16>
  } else {
    %log_l = math.log %r#1 : tensor<64xf32>
    %lse = arith.addf %r#0, %log_l : tensor<64xf32>
    %part_off = arith.muli %part_row, %c512 : index
    %part_seq = tile.view %part_out[%part_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<?x512xf32>
    tile.store %o, %part_seq[%row_begin, %c0] : tensor<64x512xf32>, !tile.view<?x512xf32>
    %lse_seq = tile.view %part_lse[%part_row] sizes [%rows] strides [1]
        : !tile.ptr<f32> -> !tile.view<?xf32>
    tile.store %lse, %lse_seq[%row_begin] : tensor<64xf32>, !tile.view<?xf32>
  }
  tile.return
}

// ROUNDTRIP-LABEL: tile.kernel @mla_partial_fp8_h32(
// ROUNDTRIP: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<64x64xi1> : tensor<64x576xbf16>
// PRIMS-LABEL: tile.kernel @mla_partial_fp8_h32(
// PRIMS: tile.dot {{.*}} : tensor<64x576xbf16>, tensor<576x64xbf16> -> tensor<64x64xf32>
// PRIMS: math.exp
// PRIMS: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x512xbf16> -> tensor<64x512xf32>
tile.kernel @mla_partial_fp8_h32(%q: !tile.ptr<bf16>, %kv: !tile.ptr<f8E4M3FN>, %kv_scale: !tile.ptr<f32>,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>,
    %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "fp8", heads = 32 : i64,
                               kv_tile = 64 : i64, block_rows = 64 : i64,
                               grid = ["work_items", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c576 = arith.constant 576 : index
  %heads = arith.constant 32 : index
  %q_row_elems = arith.constant 18432 : index
  %out_row_elems = arith.constant 16384 : index
  %c512 = arith.constant 512 : index
  %w = tile.program_id x

  // Work item {seq, kv_begin, kv_end, split, num_splits, row_begin, part_row, 0}.
  %w0 = arith.muli %w, %c8 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w4 = arith.addi %w0, %c4 : index
  %w5 = arith.addi %w0, %c5 : index
  %w6 = arith.addi %w0, %c6 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %num_splits_i = tile.load_scalar %work[%w4] : !tile.ptr<i32>
  %row_begin_i = tile.load_scalar %work[%w5] : !tile.ptr<i32>
  %part_row_i = tile.load_scalar %work[%w6] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %num_splits = arith.index_cast %num_splits_i : i32 to index
  %row_begin = arith.index_cast %row_begin_i : i32 to index
  %part_row = arith.index_cast %part_row_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_stop_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_stop = arith.index_cast %kv_stop_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index
  %rows = arith.muli %q_len, %heads : index

  // The block's query rows r = j * 32 + h of the sequence, all tokens at once.
  %q_off = arith.muli %q_begin, %q_row_elems : index
  %q_seq = tile.view %q[%q_off] sizes [%rows, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  %qt = tile.load %q_seq[%row_begin, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>

  // Causal: token j sees the keys before kv_stop - q_len + 1 + j; the
  // work item's keys end at kv_end.
  %rows_r = tile.range from %row_begin : tensor<64xindex>
  %heads_r = tile.splat %heads : tensor<64xindex>
  %token = arith.divui %rows_r, %heads_r : tensor<64xindex>
  %hidden = arith.subi %q_len, %c1 : index
  %visible0 = arith.subi %kv_stop, %hidden : index
  %visible0_r = tile.splat %visible0 : tensor<64xindex>
  %visible = arith.addi %token, %visible0_r : tensor<64xindex>
  %end_r = tile.splat %end : tensor<64xindex>
  %row_end = arith.minsi %visible, %end_r : tensor<64xindex>
  %row_end_t = tile.broadcast %row_end dims [1] : tensor<64xindex> -> tensor<64x64xindex>
  // fp8 e4m3 values are exact in bf16: dequantize with a unit scale and
  // apply the tensor scale to the scores and the output instead.
  %kv_scale0 = tile.load_scalar %kv_scale[%c0] : !tile.ptr<f32>
  %unit = arith.constant 1.0 : f32
  %score_scale = arith.mulf %sm_scale, %kv_scale0 : f32

  %n = arith.subi %end, %begin : index
  %kv_off = arith.muli %begin, %c576 : index
  %kv_range = tile.view %kv[%kv_off] sizes [%n, 576] strides [576, 1]
      : !tile.ptr<f8E4M3FN> -> !tile.view<?x576xf8E4M3FN>

  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : tensor<64xf32>
  %l0 = tile.splat %zero : tensor<64xf32>
  %acc0 = tile.splat %zero : tensor<64x512xf32>
  %r:3 = scf.for %t = %c0 to %n step %c64
      iter_args(%m = %m0, %l = %l0, %acc = %acc0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>) {
    // One load of the KV tile: K is all 576 columns, V the first 512.
    // Rows past the range load as zero; the mask keeps them out.
    %kvt8 = tile.load %kv_range[%t, %c0]
        : !tile.view<?x576xf8E4M3FN> -> tensor<64x576xf8E4M3FN>
    %kvt = tile.dequant_fp8 %kvt8, %unit : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
    %v = tensor.extract_slice %kvt[0, 0] [64, 512] [1, 1]
        : tensor<64x576xbf16> to tensor<64x512xbf16>
    %key0 = arith.addi %begin, %t : index
    %keys = tile.range from %key0 : tensor<64xindex>
    %keys_t = tile.broadcast %keys dims [0] : tensor<64xindex> -> tensor<64x64xindex>
    %mask = arith.cmpi slt, %keys_t, %row_end_t : tensor<64x64xindex>
    %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kvt, %v, %m, %l, %acc
        scale %score_scale mask %mask : tensor<64x64xi1>
        : tensor<64x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<64x512xf32>
    scf.yield %m2, %l2, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>
  }

  // o = acc / l; a row that saw no key stores o = 0 and lse = -inf.
  %zeros = tile.splat %zero : tensor<64x512xf32>
  %l_rows = tile.broadcast %r#1 dims [1] : tensor<64xf32> -> tensor<64x512xf32>
  %v_scale = tile.splat %kv_scale0 : tensor<64x512xf32>
  %acc_scaled = arith.mulf %r#2, %v_scale : tensor<64x512xf32>
  %o_raw = arith.divf %acc_scaled, %l_rows : tensor<64x512xf32>
  %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<64x512xf32>
  %o = arith.select %no_keys, %zeros, %o_raw : tensor<64x512xi1>, tensor<64x512xf32>

  // A sequence with one split writes its output here; otherwise the split
  // goes to its part rows for the combine kernel.
  %single = arith.cmpi eq, %num_splits, %c1 : index
  scf.if %single {
    %out_off = arith.muli %q_begin, %out_row_elems : index
    %out_seq = tile.view %out[%out_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<bf16> -> !tile.view<?x512xbf16>
    %o16 = arith.truncf %o : tensor<64x512xf32> to tensor<64x512xbf16>
    tile.store %o16, %out_seq[%row_begin, %c0] : tensor<64x512xbf16>, !tile.view<?x512xbf16>
  } else {
    %log_l = math.log %r#1 : tensor<64xf32>
    %lse = arith.addf %r#0, %log_l : tensor<64xf32>
    %part_off = arith.muli %part_row, %c512 : index
    %part_seq = tile.view %part_out[%part_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<?x512xf32>
    tile.store %o, %part_seq[%row_begin, %c0] : tensor<64x512xf32>, !tile.view<?x512xf32>
    %lse_seq = tile.view %part_lse[%part_row] sizes [%rows] strides [1]
        : !tile.ptr<f32> -> !tile.view<?xf32>
    tile.store %lse, %lse_seq[%row_begin] : tensor<64xf32>, !tile.view<?xf32>
  }
  tile.return
}

// ROUNDTRIP-LABEL: tile.kernel @mla_partial_mxfp4_h16(
// ROUNDTRIP: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<64x64xi1> : tensor<64x576xbf16>
// PRIMS-LABEL: tile.kernel @mla_partial_mxfp4_h16(
// PRIMS: tile.dot {{.*}} : tensor<64x576xbf16>, tensor<576x64xbf16> -> tensor<64x64xf32>
// PRIMS: math.exp
// PRIMS: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x512xbf16> -> tensor<64x512xf32>
tile.kernel @mla_partial_mxfp4_h16(%q: !tile.ptr<bf16>, %kv: !tile.ptr<i8>, %kv_scale: !tile.ptr<f8E8M0FNU>,
    %scale_stride: i32,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>,
    %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "mxfp4", heads = 16 : i64,
                               kv_tile = 64 : i64, block_rows = 64 : i64,
                               grid = ["work_items", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c288 = arith.constant 288 : index
  %heads = arith.constant 16 : index
  %q_row_elems = arith.constant 9216 : index
  %out_row_elems = arith.constant 8192 : index
  %c512 = arith.constant 512 : index
  %w = tile.program_id x

  // Work item {seq, kv_begin, kv_end, split, num_splits, row_begin, part_row, 0}.
  %w0 = arith.muli %w, %c8 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w4 = arith.addi %w0, %c4 : index
  %w5 = arith.addi %w0, %c5 : index
  %w6 = arith.addi %w0, %c6 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %num_splits_i = tile.load_scalar %work[%w4] : !tile.ptr<i32>
  %row_begin_i = tile.load_scalar %work[%w5] : !tile.ptr<i32>
  %part_row_i = tile.load_scalar %work[%w6] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %num_splits = arith.index_cast %num_splits_i : i32 to index
  %row_begin = arith.index_cast %row_begin_i : i32 to index
  %part_row = arith.index_cast %part_row_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_stop_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_stop = arith.index_cast %kv_stop_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index
  %rows = arith.muli %q_len, %heads : index

  // The block's query rows r = j * 16 + h of the sequence, all tokens at once.
  %q_off = arith.muli %q_begin, %q_row_elems : index
  %q_seq = tile.view %q[%q_off] sizes [%rows, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  %qt = tile.load %q_seq[%row_begin, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>

  // Causal: token j sees the keys before kv_stop - q_len + 1 + j; the
  // work item's keys end at kv_end.
  %rows_r = tile.range from %row_begin : tensor<64xindex>
  %heads_r = tile.splat %heads : tensor<64xindex>
  %token = arith.divui %rows_r, %heads_r : tensor<64xindex>
  %hidden = arith.subi %q_len, %c1 : index
  %visible0 = arith.subi %kv_stop, %hidden : index
  %visible0_r = tile.splat %visible0 : tensor<64xindex>
  %visible = arith.addi %token, %visible0_r : tensor<64xindex>
  %end_r = tile.splat %end : tensor<64xindex>
  %row_end = arith.minsi %visible, %end_r : tensor<64xindex>
  %row_end_t = tile.broadcast %row_end dims [1] : tensor<64xindex> -> tensor<64x64xindex>

  %n = arith.subi %end, %begin : index
  %kv_off = arith.muli %begin, %c288 : index
  %kv_range = tile.view %kv[%kv_off] sizes [%n, 288] strides [288, 1]
      : !tile.ptr<i8> -> !tile.view<?x288xi8>
  %stride = arith.index_cast %scale_stride : i32 to index
  %scale_off = arith.muli %begin, %stride : index
  %scale_range = tile.view %kv_scale[%scale_off] sizes [%n, 18] strides [%stride, 1]
      : !tile.ptr<f8E8M0FNU> -> !tile.view<?x18xf8E8M0FNU>

  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : tensor<64xf32>
  %l0 = tile.splat %zero : tensor<64xf32>
  %acc0 = tile.splat %zero : tensor<64x512xf32>
  %r:3 = scf.for %t = %c0 to %n step %c64
      iter_args(%m = %m0, %l = %l0, %acc = %acc0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>) {
    // One load of the KV tile (packed values and their scales): K is all
    // 576 columns, V the first 512. Rows past the range load as zero; the
    // mask keeps them out.
    %kvp = tile.load %kv_range[%t, %c0] : !tile.view<?x288xi8> -> tensor<64x288xi8>
    %kvs = tile.load %scale_range[%t, %c0]
        : !tile.view<?x18xf8E8M0FNU> -> tensor<64x18xf8E8M0FNU>
    %kvt = tile.dequant_mx %kvp, %kvs
        : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
    %v = tensor.extract_slice %kvt[0, 0] [64, 512] [1, 1]
        : tensor<64x576xbf16> to tensor<64x512xbf16>
    %key0 = arith.addi %begin, %t : index
    %keys = tile.range from %key0 : tensor<64xindex>
    %keys_t = tile.broadcast %keys dims [0] : tensor<64xindex> -> tensor<64x64xindex>
    %mask = arith.cmpi slt, %keys_t, %row_end_t : tensor<64x64xindex>
    %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kvt, %v, %m, %l, %acc
        scale %sm_scale mask %mask : tensor<64x64xi1>
        : tensor<64x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<64x512xf32>
    scf.yield %m2, %l2, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>
  }

  // o = acc / l; a row that saw no key stores o = 0 and lse = -inf.
  %zeros = tile.splat %zero : tensor<64x512xf32>
  %l_rows = tile.broadcast %r#1 dims [1] : tensor<64xf32> -> tensor<64x512xf32>
  %o_raw = arith.divf %r#2, %l_rows : tensor<64x512xf32>
  %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<64x512xf32>
  %o = arith.select %no_keys, %zeros, %o_raw : tensor<64x512xi1>, tensor<64x512xf32>

  // A sequence with one split writes its output here; otherwise the split
  // goes to its part rows for the combine kernel.
  %single = arith.cmpi eq, %num_splits, %c1 : index
  scf.if %single {
    %out_off = arith.muli %q_begin, %out_row_elems : index
    %out_seq = tile.view %out[%out_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<bf16> -> !tile.view<?x512xbf16>
    %o16 = arith.truncf %o : tensor<64x512xf32> to tensor<64x512xbf16>
    tile.store %o16, %out_seq[%row_begin, %c0] : tensor<64x512xbf16>, !tile.view<?x512xbf16>
  } else {
    %log_l = math.log %r#1 : tensor<64xf32>
    %lse = arith.addf %r#0, %log_l : tensor<64xf32>
    %part_off = arith.muli %part_row, %c512 : index
    %part_seq = tile.view %part_out[%part_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<?x512xf32>
    tile.store %o, %part_seq[%row_begin, %c0] : tensor<64x512xf32>, !tile.view<?x512xf32>
    %lse_seq = tile.view %part_lse[%part_row] sizes [%rows] strides [1]
        : !tile.ptr<f32> -> !tile.view<?xf32>
    tile.store %lse, %lse_seq[%row_begin] : tensor<64xf32>, !tile.view<?xf32>
  }
  tile.return
}

// ROUNDTRIP-LABEL: tile.kernel @mla_partial_mxfp4_h32(
// ROUNDTRIP: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<64x64xi1> : tensor<64x576xbf16>
// PRIMS-LABEL: tile.kernel @mla_partial_mxfp4_h32(
// PRIMS: tile.dot {{.*}} : tensor<64x576xbf16>, tensor<576x64xbf16> -> tensor<64x64xf32>
// PRIMS: math.exp
// PRIMS: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x512xbf16> -> tensor<64x512xf32>
tile.kernel @mla_partial_mxfp4_h32(%q: !tile.ptr<bf16>, %kv: !tile.ptr<i8>, %kv_scale: !tile.ptr<f8E8M0FNU>,
    %scale_stride: i32,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>,
    %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "mxfp4", heads = 32 : i64,
                               kv_tile = 64 : i64, block_rows = 64 : i64,
                               grid = ["work_items", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c288 = arith.constant 288 : index
  %heads = arith.constant 32 : index
  %q_row_elems = arith.constant 18432 : index
  %out_row_elems = arith.constant 16384 : index
  %c512 = arith.constant 512 : index
  %w = tile.program_id x

  // Work item {seq, kv_begin, kv_end, split, num_splits, row_begin, part_row, 0}.
  %w0 = arith.muli %w, %c8 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w4 = arith.addi %w0, %c4 : index
  %w5 = arith.addi %w0, %c5 : index
  %w6 = arith.addi %w0, %c6 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %num_splits_i = tile.load_scalar %work[%w4] : !tile.ptr<i32>
  %row_begin_i = tile.load_scalar %work[%w5] : !tile.ptr<i32>
  %part_row_i = tile.load_scalar %work[%w6] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %num_splits = arith.index_cast %num_splits_i : i32 to index
  %row_begin = arith.index_cast %row_begin_i : i32 to index
  %part_row = arith.index_cast %part_row_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_stop_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_stop = arith.index_cast %kv_stop_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index
  %rows = arith.muli %q_len, %heads : index

  // The block's query rows r = j * 32 + h of the sequence, all tokens at once.
  %q_off = arith.muli %q_begin, %q_row_elems : index
  %q_seq = tile.view %q[%q_off] sizes [%rows, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  %qt = tile.load %q_seq[%row_begin, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>

  // Causal: token j sees the keys before kv_stop - q_len + 1 + j; the
  // work item's keys end at kv_end.
  %rows_r = tile.range from %row_begin : tensor<64xindex>
  %heads_r = tile.splat %heads : tensor<64xindex>
  %token = arith.divui %rows_r, %heads_r : tensor<64xindex>
  %hidden = arith.subi %q_len, %c1 : index
  %visible0 = arith.subi %kv_stop, %hidden : index
  %visible0_r = tile.splat %visible0 : tensor<64xindex>
  %visible = arith.addi %token, %visible0_r : tensor<64xindex>
  %end_r = tile.splat %end : tensor<64xindex>
  %row_end = arith.minsi %visible, %end_r : tensor<64xindex>
  %row_end_t = tile.broadcast %row_end dims [1] : tensor<64xindex> -> tensor<64x64xindex>

  %n = arith.subi %end, %begin : index
  %kv_off = arith.muli %begin, %c288 : index
  %kv_range = tile.view %kv[%kv_off] sizes [%n, 288] strides [288, 1]
      : !tile.ptr<i8> -> !tile.view<?x288xi8>
  %stride = arith.index_cast %scale_stride : i32 to index
  %scale_off = arith.muli %begin, %stride : index
  %scale_range = tile.view %kv_scale[%scale_off] sizes [%n, 18] strides [%stride, 1]
      : !tile.ptr<f8E8M0FNU> -> !tile.view<?x18xf8E8M0FNU>

  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : tensor<64xf32>
  %l0 = tile.splat %zero : tensor<64xf32>
  %acc0 = tile.splat %zero : tensor<64x512xf32>
  %r:3 = scf.for %t = %c0 to %n step %c64
      iter_args(%m = %m0, %l = %l0, %acc = %acc0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>) {
    // One load of the KV tile (packed values and their scales): K is all
    // 576 columns, V the first 512. Rows past the range load as zero; the
    // mask keeps them out.
    %kvp = tile.load %kv_range[%t, %c0] : !tile.view<?x288xi8> -> tensor<64x288xi8>
    %kvs = tile.load %scale_range[%t, %c0]
        : !tile.view<?x18xf8E8M0FNU> -> tensor<64x18xf8E8M0FNU>
    %kvt = tile.dequant_mx %kvp, %kvs
        : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
    %v = tensor.extract_slice %kvt[0, 0] [64, 512] [1, 1]
        : tensor<64x576xbf16> to tensor<64x512xbf16>
    %key0 = arith.addi %begin, %t : index
    %keys = tile.range from %key0 : tensor<64xindex>
    %keys_t = tile.broadcast %keys dims [0] : tensor<64xindex> -> tensor<64x64xindex>
    %mask = arith.cmpi slt, %keys_t, %row_end_t : tensor<64x64xindex>
    %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %kvt, %v, %m, %l, %acc
        scale %sm_scale mask %mask : tensor<64x64xi1>
        : tensor<64x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
        -> tensor<64x512xf32>
    scf.yield %m2, %l2, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x512xf32>
  }

  // o = acc / l; a row that saw no key stores o = 0 and lse = -inf.
  %zeros = tile.splat %zero : tensor<64x512xf32>
  %l_rows = tile.broadcast %r#1 dims [1] : tensor<64xf32> -> tensor<64x512xf32>
  %o_raw = arith.divf %r#2, %l_rows : tensor<64x512xf32>
  %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<64x512xf32>
  %o = arith.select %no_keys, %zeros, %o_raw : tensor<64x512xi1>, tensor<64x512xf32>

  // A sequence with one split writes its output here; otherwise the split
  // goes to its part rows for the combine kernel.
  %single = arith.cmpi eq, %num_splits, %c1 : index
  scf.if %single {
    %out_off = arith.muli %q_begin, %out_row_elems : index
    %out_seq = tile.view %out[%out_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<bf16> -> !tile.view<?x512xbf16>
    %o16 = arith.truncf %o : tensor<64x512xf32> to tensor<64x512xbf16>
    tile.store %o16, %out_seq[%row_begin, %c0] : tensor<64x512xbf16>, !tile.view<?x512xbf16>
  } else {
    %log_l = math.log %r#1 : tensor<64xf32>
    %lse = arith.addf %r#0, %log_l : tensor<64xf32>
    %part_off = arith.muli %part_row, %c512 : index
    %part_seq = tile.view %part_out[%part_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<?x512xf32>
    tile.store %o, %part_seq[%row_begin, %c0] : tensor<64x512xf32>, !tile.view<?x512xf32>
    %lse_seq = tile.view %part_lse[%part_row] sizes [%rows] strides [1]
        : !tile.ptr<f32> -> !tile.view<?xf32>
    tile.store %lse, %lse_seq[%row_begin] : tensor<64xf32>, !tile.view<?xf32>
  }
  tile.return
}

// ROUNDTRIP-LABEL: tile.kernel @mla_combine(
// ROUNDTRIP: scf.for
// ROUNDTRIP: arith.maximumf
// PRIMS-LABEL: tile.kernel @mla_combine(
// PRIMS: scf.for
// PRIMS: math.exp
tile.kernel @mla_combine(%part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>,
    %combine: !tile.ptr<i32>, %out: !tile.ptr<bf16>)
    attributes {tile.launch = {role = "mla.combine", block_rows = 16 : i64,
                               grid = ["combine_items", 1, 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %i = tile.program_id x

  // Combine item {part_row, out_row, rows, num_splits, split_stride, 0, 0, 0}.
  %i0 = arith.muli %i, %c8 : index
  %i1 = arith.addi %i0, %c1 : index
  %i2 = arith.addi %i0, %c2 : index
  %i3 = arith.addi %i0, %c3 : index
  %i4 = arith.addi %i0, %c4 : index
  %part_row_i = tile.load_scalar %combine[%i0] : !tile.ptr<i32>
  %out_row_i = tile.load_scalar %combine[%i1] : !tile.ptr<i32>
  %rows_i = tile.load_scalar %combine[%i2] : !tile.ptr<i32>
  %num_splits_i = tile.load_scalar %combine[%i3] : !tile.ptr<i32>
  %stride_i = tile.load_scalar %combine[%i4] : !tile.ptr<i32>
  %part_row = arith.index_cast %part_row_i : i32 to index
  %out_row = arith.index_cast %out_row_i : i32 to index
  %rows = arith.index_cast %rows_i : i32 to index
  %num_splits = arith.index_cast %num_splits_i : i32 to index
  %stride = arith.index_cast %stride_i : i32 to index

  // A running log-sum-exp over the rows' actual splits: (m, w, acc) is the
  // merge so far, scaled by exp(-m).
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %neg_infs = tile.splat %neg_inf : tensor<16xf32>
  %zero_rows = tile.splat %zero : tensor<16xf32>
  %zeros = tile.splat %zero : tensor<16x512xf32>
  %r:3 = scf.for %s = %c0 to %num_splits step %c1
      iter_args(%m = %neg_infs, %w = %zero_rows, %acc = %zeros)
      -> (tensor<16xf32>, tensor<16xf32>, tensor<16x512xf32>) {
    %skip = arith.muli %s, %stride : index
    %row0 = arith.addi %part_row, %skip : index
    %lse_v = tile.view %part_lse[%row0] sizes [%rows] strides [1]
        : !tile.ptr<f32> -> !tile.view<?xf32>
    %lse = tile.load %lse_v[%c0] pad %neg_inf : !tile.view<?xf32> -> tensor<16xf32>
    %o_off = arith.muli %row0, %c512 : index
    %o_v = tile.view %part_out[%o_off] sizes [%rows, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<?x512xf32>
    %o = tile.load %o_v[%c0, %c0] : !tile.view<?x512xf32> -> tensor<16x512xf32>
    // Rows still at -inf use 0 as reference, so exp never sees -inf - -inf;
    // an empty split (lse = -inf) gets weight 0.
    %m2 = arith.maximumf %m, %lse : tensor<16xf32>
    %empty = arith.cmpf oeq, %m2, %neg_infs : tensor<16xf32>
    %ref = arith.select %empty, %zero_rows, %m2 : tensor<16xi1>, tensor<16xf32>
    %old = arith.subf %m, %ref : tensor<16xf32>
    %alpha = math.exp %old : tensor<16xf32>
    %new = arith.subf %lse, %ref : tensor<16xf32>
    %beta = math.exp %new : tensor<16xf32>
    %w_old = arith.mulf %w, %alpha : tensor<16xf32>
    %w2 = arith.addf %w_old, %beta : tensor<16xf32>
    %alpha_t = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x512xf32>
    %beta_t = tile.broadcast %beta dims [1] : tensor<16xf32> -> tensor<16x512xf32>
    %acc_old = arith.mulf %acc, %alpha_t : tensor<16x512xf32>
    %o_new = arith.mulf %o, %beta_t : tensor<16x512xf32>
    %acc2 = arith.addf %acc_old, %o_new : tensor<16x512xf32>
    scf.yield %m2, %w2, %acc2 : tensor<16xf32>, tensor<16xf32>, tensor<16x512xf32>
  }

  // Rows whose splits are all empty are zero.
  %w_t = tile.broadcast %r#1 dims [1] : tensor<16xf32> -> tensor<16x512xf32>
  %merged = arith.divf %r#2, %w_t : tensor<16x512xf32>
  %none = arith.cmpf oeq, %w_t, %zeros : tensor<16x512xf32>
  %result = arith.select %none, %zeros, %merged : tensor<16x512xi1>, tensor<16x512xf32>
  %result16 = arith.truncf %result : tensor<16x512xf32> to tensor<16x512xbf16>
  %out_off = arith.muli %out_row, %c512 : index
  %out_v = tile.view %out[%out_off] sizes [%rows, 512] strides [512, 1]
      : !tile.ptr<bf16> -> !tile.view<?x512xbf16>
  tile.store %result16, %out_v[%c0, %c0] : tensor<16x512xbf16>, !tile.view<?x512xbf16>
  tile.return
}
