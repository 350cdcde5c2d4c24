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
// Split-KV in two kernels. The host's launch plan cuts every sequence's KV
// rows into balanced work items (seq, kv_begin, kv_end, split):
//  - @mla_partial_<kv>_h<H>: one program per (work item, query token); online
//    softmax over 64-key tiles; writes the normalized partial output and its
//    log-sum-exp to slot (query row, split).
//  - @mla_combine_h<H>: one program per (query row, 128-column chunk);
//    merges the row's splits by their log-sum-exp and writes bf16.
// Tile sizes (64 keys, 128 columns, 16 splits) are program constants.
//
// RUN: mla-opt %s | mla-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mla-opt %s --tile-to-primitives | FileCheck %s --check-prefix=PRIMS
// RUN: mla-compile %s --target=host -o %t.so
// RUN: mla-run --target host --module %t.so --kv-dtype bf16 --heads 16 --q-len 1 --kv-lens 100,7 --check | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target host --module %t.so --kv-dtype fp8 --heads 32 --q-len 2 --kv-lens 65 --check | FileCheck %s --check-prefix=HOST
// RUN: mla-run --target host --module %t.so --kv-dtype mxfp4 --heads 16 --q-len 4 --kv-lens 130 --check | FileCheck %s --check-prefix=HOST
//
// ROUNDTRIP-COUNT-6: tile.qk_softmax_acc
// ROUNDTRIP-COUNT-2: tile.split_reduce
// PRIMS-NOT: tile.qk_softmax_acc
// PRIMS-NOT: tile.split_reduce
// HOST: check: {{.*}} PASS

// CHECK-LABEL: tile.kernel @mla_partial_bf16_h16
tile.kernel @mla_partial_bf16_h16(%q: !tile.ptr<bf16>, %kv: !tile.ptr<bf16>,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "bf16", heads = 16 : i64,
                               max_splits = 16 : i64, kv_tile = 64 : i64,
                               grid = ["work_items", "max_q_len", 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c288 = arith.constant 288 : index
  %c576 = arith.constant 576 : index
  %max_splits = arith.constant 16 : index
  %heads = arith.constant 16 : index
  %q_row_elems = arith.constant 9216 : index
  %o_row_elems = arith.constant 8192 : index
  %w = tile.program_id x
  %j = tile.program_id y

  // Work item: sequence, KV rows [begin, end) and split slot.
  %w0 = arith.muli %w, %c4 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w3 = arith.addi %w0, %c3 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %split_i = tile.load_scalar %work[%w3] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %split = arith.index_cast %split_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_end_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_end = arith.index_cast %kv_end_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index

  // Program y is query token j of the sequence; the grid covers the
  // longest q_len, so shorter sequences have idle programs.
  %has_query = arith.cmpi ult, %j, %q_len : index
  scf.if %has_query {
    // Causal: query j sees keys up to kv_end - (q_len - 1 - j).
    %later = arith.subi %q_len, %j : index
    %hidden = arith.subi %later, %c1 : index
    %visible_end = arith.subi %kv_end, %hidden : index
    %hi = arith.minsi %end, %visible_end : index
    %span = arith.subi %hi, %begin : index
    %n = arith.maxsi %span, %c0 : index

    %row = arith.addi %q_begin, %j : index
    %q_off = arith.muli %row, %q_row_elems : index
    %q_row = tile.view %q[%q_off] sizes [16, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<16x576xbf16>
    %qt = tile.load %q_row[%c0, %c0] : !tile.view<16x576xbf16> -> tensor<16x576xbf16>
    %kv_off = arith.muli %begin, %c576 : index
    %kv_seq = tile.view %kv[%kv_off] sizes [%n, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<?x576xbf16>

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m0 = tile.splat %neg_inf : tensor<16xf32>
    %l0 = tile.splat %zero : tensor<16xf32>
    %acc0 = tile.splat %zero : tensor<16x512xf32>
    %n_tile = tile.splat %n : tensor<64xindex>
    %r:3 = scf.for %t = %c0 to %n step %c64
        iter_args(%m = %m0, %l = %l0, %acc = %acc0)
        -> (tensor<16xf32>, tensor<16xf32>, tensor<16x512xf32>) {
      // Rows past the view's end load as zero; the mask keeps them out of
      // the softmax.
      %keys = tile.range from %t : tensor<64xindex>
      %valid = arith.cmpi slt, %keys, %n_tile : tensor<64xindex>
      %k = tile.load %kv_seq[%t, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
      %v = tensor.extract_slice %k[0, 0] [64, 512] [1, 1]
          : tensor<64x576xbf16> to tensor<64x512xbf16>
      %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %k, %v, %m, %l, %acc
          scale %sm_scale mask %valid : tensor<64xi1>
          : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
          -> tensor<16x512xf32>
      scf.yield %m2, %l2, %acc2 : tensor<16xf32>, tensor<16xf32>, tensor<16x512xf32>
    }

    // Normalize; a split that saw no key stores o = 0 and lse = -inf.
    %zeros = tile.splat %zero : tensor<16x512xf32>
    %l_rows = tile.broadcast %r#1 dims [1] : tensor<16xf32> -> tensor<16x512xf32>
    %o_raw = arith.divf %r#2, %l_rows : tensor<16x512xf32>
    %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<16x512xf32>
    %o = arith.select %no_keys, %zeros, %o_raw : tensor<16x512xi1>, tensor<16x512xf32>
    %log_l = math.log %r#1 : tensor<16xf32>
    %lse = arith.addf %r#0, %log_l : tensor<16xf32>

    // Slot (row, split) of the partial buffers.
    %slot_row = arith.muli %row, %max_splits : index
    %slot = arith.addi %slot_row, %split : index
    %o_off = arith.muli %slot, %o_row_elems : index
    %o_slot = tile.view %part_out[%o_off] sizes [16, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<16x512xf32>
    tile.store %o, %o_slot[%c0, %c0] : tensor<16x512xf32>, !tile.view<16x512xf32>
    %lse_off = arith.muli %slot, %heads : index
    %lse_slot = tile.view %part_lse[%lse_off] sizes [16] strides [1]
        : !tile.ptr<f32> -> !tile.view<16xf32>
    tile.store %lse, %lse_slot[%c0] : tensor<16xf32>, !tile.view<16xf32>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @mla_partial_bf16_h32
tile.kernel @mla_partial_bf16_h32(%q: !tile.ptr<bf16>, %kv: !tile.ptr<bf16>,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "bf16", heads = 32 : i64,
                               max_splits = 16 : i64, kv_tile = 64 : i64,
                               grid = ["work_items", "max_q_len", 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c288 = arith.constant 288 : index
  %c576 = arith.constant 576 : index
  %max_splits = arith.constant 16 : index
  %heads = arith.constant 32 : index
  %q_row_elems = arith.constant 18432 : index
  %o_row_elems = arith.constant 16384 : index
  %w = tile.program_id x
  %j = tile.program_id y

  // Work item: sequence, KV rows [begin, end) and split slot.
  %w0 = arith.muli %w, %c4 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w3 = arith.addi %w0, %c3 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %split_i = tile.load_scalar %work[%w3] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %split = arith.index_cast %split_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_end_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_end = arith.index_cast %kv_end_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index

  // Program y is query token j of the sequence; the grid covers the
  // longest q_len, so shorter sequences have idle programs.
  %has_query = arith.cmpi ult, %j, %q_len : index
  scf.if %has_query {
    // Causal: query j sees keys up to kv_end - (q_len - 1 - j).
    %later = arith.subi %q_len, %j : index
    %hidden = arith.subi %later, %c1 : index
    %visible_end = arith.subi %kv_end, %hidden : index
    %hi = arith.minsi %end, %visible_end : index
    %span = arith.subi %hi, %begin : index
    %n = arith.maxsi %span, %c0 : index

    %row = arith.addi %q_begin, %j : index
    %q_off = arith.muli %row, %q_row_elems : index
    %q_row = tile.view %q[%q_off] sizes [32, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<32x576xbf16>
    %qt = tile.load %q_row[%c0, %c0] : !tile.view<32x576xbf16> -> tensor<32x576xbf16>
    %kv_off = arith.muli %begin, %c576 : index
    %kv_seq = tile.view %kv[%kv_off] sizes [%n, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<?x576xbf16>

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m0 = tile.splat %neg_inf : tensor<32xf32>
    %l0 = tile.splat %zero : tensor<32xf32>
    %acc0 = tile.splat %zero : tensor<32x512xf32>
    %n_tile = tile.splat %n : tensor<64xindex>
    %r:3 = scf.for %t = %c0 to %n step %c64
        iter_args(%m = %m0, %l = %l0, %acc = %acc0)
        -> (tensor<32xf32>, tensor<32xf32>, tensor<32x512xf32>) {
      // Rows past the view's end load as zero; the mask keeps them out of
      // the softmax.
      %keys = tile.range from %t : tensor<64xindex>
      %valid = arith.cmpi slt, %keys, %n_tile : tensor<64xindex>
      %k = tile.load %kv_seq[%t, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
      %v = tensor.extract_slice %k[0, 0] [64, 512] [1, 1]
          : tensor<64x576xbf16> to tensor<64x512xbf16>
      %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %k, %v, %m, %l, %acc
          scale %sm_scale mask %valid : tensor<64xi1>
          : tensor<32x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
          -> tensor<32x512xf32>
      scf.yield %m2, %l2, %acc2 : tensor<32xf32>, tensor<32xf32>, tensor<32x512xf32>
    }

    // Normalize; a split that saw no key stores o = 0 and lse = -inf.
    %zeros = tile.splat %zero : tensor<32x512xf32>
    %l_rows = tile.broadcast %r#1 dims [1] : tensor<32xf32> -> tensor<32x512xf32>
    %o_raw = arith.divf %r#2, %l_rows : tensor<32x512xf32>
    %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<32x512xf32>
    %o = arith.select %no_keys, %zeros, %o_raw : tensor<32x512xi1>, tensor<32x512xf32>
    %log_l = math.log %r#1 : tensor<32xf32>
    %lse = arith.addf %r#0, %log_l : tensor<32xf32>

    // Slot (row, split) of the partial buffers.
    %slot_row = arith.muli %row, %max_splits : index
    %slot = arith.addi %slot_row, %split : index
    %o_off = arith.muli %slot, %o_row_elems : index
    %o_slot = tile.view %part_out[%o_off] sizes [32, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<32x512xf32>
    tile.store %o, %o_slot[%c0, %c0] : tensor<32x512xf32>, !tile.view<32x512xf32>
    %lse_off = arith.muli %slot, %heads : index
    %lse_slot = tile.view %part_lse[%lse_off] sizes [32] strides [1]
        : !tile.ptr<f32> -> !tile.view<32xf32>
    tile.store %lse, %lse_slot[%c0] : tensor<32xf32>, !tile.view<32xf32>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @mla_partial_fp8_h16
tile.kernel @mla_partial_fp8_h16(%q: !tile.ptr<bf16>, %kv: !tile.ptr<f8E4M3FN>, %kv_scale: !tile.ptr<f32>,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "fp8", heads = 16 : i64,
                               max_splits = 16 : i64, kv_tile = 64 : i64,
                               grid = ["work_items", "max_q_len", 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c288 = arith.constant 288 : index
  %c576 = arith.constant 576 : index
  %max_splits = arith.constant 16 : index
  %heads = arith.constant 16 : index
  %q_row_elems = arith.constant 9216 : index
  %o_row_elems = arith.constant 8192 : index
  %w = tile.program_id x
  %j = tile.program_id y

  // Work item: sequence, KV rows [begin, end) and split slot.
  %w0 = arith.muli %w, %c4 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w3 = arith.addi %w0, %c3 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %split_i = tile.load_scalar %work[%w3] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %split = arith.index_cast %split_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_end_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_end = arith.index_cast %kv_end_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index

  // Program y is query token j of the sequence; the grid covers the
  // longest q_len, so shorter sequences have idle programs.
  %has_query = arith.cmpi ult, %j, %q_len : index
  scf.if %has_query {
    // Causal: query j sees keys up to kv_end - (q_len - 1 - j).
    %later = arith.subi %q_len, %j : index
    %hidden = arith.subi %later, %c1 : index
    %visible_end = arith.subi %kv_end, %hidden : index
    %hi = arith.minsi %end, %visible_end : index
    %span = arith.subi %hi, %begin : index
    %n = arith.maxsi %span, %c0 : index

    %row = arith.addi %q_begin, %j : index
    %q_off = arith.muli %row, %q_row_elems : index
    %q_row = tile.view %q[%q_off] sizes [16, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<16x576xbf16>
    %qt = tile.load %q_row[%c0, %c0] : !tile.view<16x576xbf16> -> tensor<16x576xbf16>
    // fp8 e4m3 values are exact in bf16: dequantize with a unit scale and
    // apply the tensor scale to the scores and the output instead.
    %kv_scale0 = tile.load_scalar %kv_scale[%c0] : !tile.ptr<f32>
    %unit = arith.constant 1.0 : f32
    %score_scale = arith.mulf %sm_scale, %kv_scale0 : f32
    %kv_off = arith.muli %begin, %c576 : index
    %kv_seq = tile.view %kv[%kv_off] sizes [%n, 576] strides [576, 1]
        : !tile.ptr<f8E4M3FN> -> !tile.view<?x576xf8E4M3FN>

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m0 = tile.splat %neg_inf : tensor<16xf32>
    %l0 = tile.splat %zero : tensor<16xf32>
    %acc0 = tile.splat %zero : tensor<16x512xf32>
    %n_tile = tile.splat %n : tensor<64xindex>
    %r:3 = scf.for %t = %c0 to %n step %c64
        iter_args(%m = %m0, %l = %l0, %acc = %acc0)
        -> (tensor<16xf32>, tensor<16xf32>, tensor<16x512xf32>) {
      // Rows past the view's end load as zero; the mask keeps them out of
      // the softmax.
      %keys = tile.range from %t : tensor<64xindex>
      %valid = arith.cmpi slt, %keys, %n_tile : tensor<64xindex>
      %k8 = tile.load %kv_seq[%t, %c0]
          : !tile.view<?x576xf8E4M3FN> -> tensor<64x576xf8E4M3FN>
      %k = tile.dequant_fp8 %k8, %unit : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
      %v = tensor.extract_slice %k[0, 0] [64, 512] [1, 1]
          : tensor<64x576xbf16> to tensor<64x512xbf16>
      %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %k, %v, %m, %l, %acc
          scale %score_scale mask %valid : tensor<64xi1>
          : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
          -> tensor<16x512xf32>
      scf.yield %m2, %l2, %acc2 : tensor<16xf32>, tensor<16xf32>, tensor<16x512xf32>
    }

    // Normalize; a split that saw no key stores o = 0 and lse = -inf.
    %zeros = tile.splat %zero : tensor<16x512xf32>
    %l_rows = tile.broadcast %r#1 dims [1] : tensor<16xf32> -> tensor<16x512xf32>
    %v_scale = tile.splat %kv_scale0 : tensor<16x512xf32>
    %acc_scaled = arith.mulf %r#2, %v_scale : tensor<16x512xf32>
    %o_raw = arith.divf %acc_scaled, %l_rows : tensor<16x512xf32>
    %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<16x512xf32>
    %o = arith.select %no_keys, %zeros, %o_raw : tensor<16x512xi1>, tensor<16x512xf32>
    %log_l = math.log %r#1 : tensor<16xf32>
    %lse = arith.addf %r#0, %log_l : tensor<16xf32>

    // Slot (row, split) of the partial buffers.
    %slot_row = arith.muli %row, %max_splits : index
    %slot = arith.addi %slot_row, %split : index
    %o_off = arith.muli %slot, %o_row_elems : index
    %o_slot = tile.view %part_out[%o_off] sizes [16, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<16x512xf32>
    tile.store %o, %o_slot[%c0, %c0] : tensor<16x512xf32>, !tile.view<16x512xf32>
    %lse_off = arith.muli %slot, %heads : index
    %lse_slot = tile.view %part_lse[%lse_off] sizes [16] strides [1]
        : !tile.ptr<f32> -> !tile.view<16xf32>
    tile.store %lse, %lse_slot[%c0] : tensor<16xf32>, !tile.view<16xf32>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @mla_partial_fp8_h32
tile.kernel @mla_partial_fp8_h32(%q: !tile.ptr<bf16>, %kv: !tile.ptr<f8E4M3FN>, %kv_scale: !tile.ptr<f32>,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "fp8", heads = 32 : i64,
                               max_splits = 16 : i64, kv_tile = 64 : i64,
                               grid = ["work_items", "max_q_len", 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c288 = arith.constant 288 : index
  %c576 = arith.constant 576 : index
  %max_splits = arith.constant 16 : index
  %heads = arith.constant 32 : index
  %q_row_elems = arith.constant 18432 : index
  %o_row_elems = arith.constant 16384 : index
  %w = tile.program_id x
  %j = tile.program_id y

  // Work item: sequence, KV rows [begin, end) and split slot.
  %w0 = arith.muli %w, %c4 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w3 = arith.addi %w0, %c3 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %split_i = tile.load_scalar %work[%w3] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %split = arith.index_cast %split_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_end_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_end = arith.index_cast %kv_end_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index

  // Program y is query token j of the sequence; the grid covers the
  // longest q_len, so shorter sequences have idle programs.
  %has_query = arith.cmpi ult, %j, %q_len : index
  scf.if %has_query {
    // Causal: query j sees keys up to kv_end - (q_len - 1 - j).
    %later = arith.subi %q_len, %j : index
    %hidden = arith.subi %later, %c1 : index
    %visible_end = arith.subi %kv_end, %hidden : index
    %hi = arith.minsi %end, %visible_end : index
    %span = arith.subi %hi, %begin : index
    %n = arith.maxsi %span, %c0 : index

    %row = arith.addi %q_begin, %j : index
    %q_off = arith.muli %row, %q_row_elems : index
    %q_row = tile.view %q[%q_off] sizes [32, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<32x576xbf16>
    %qt = tile.load %q_row[%c0, %c0] : !tile.view<32x576xbf16> -> tensor<32x576xbf16>
    // fp8 e4m3 values are exact in bf16: dequantize with a unit scale and
    // apply the tensor scale to the scores and the output instead.
    %kv_scale0 = tile.load_scalar %kv_scale[%c0] : !tile.ptr<f32>
    %unit = arith.constant 1.0 : f32
    %score_scale = arith.mulf %sm_scale, %kv_scale0 : f32
    %kv_off = arith.muli %begin, %c576 : index
    %kv_seq = tile.view %kv[%kv_off] sizes [%n, 576] strides [576, 1]
        : !tile.ptr<f8E4M3FN> -> !tile.view<?x576xf8E4M3FN>

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m0 = tile.splat %neg_inf : tensor<32xf32>
    %l0 = tile.splat %zero : tensor<32xf32>
    %acc0 = tile.splat %zero : tensor<32x512xf32>
    %n_tile = tile.splat %n : tensor<64xindex>
    %r:3 = scf.for %t = %c0 to %n step %c64
        iter_args(%m = %m0, %l = %l0, %acc = %acc0)
        -> (tensor<32xf32>, tensor<32xf32>, tensor<32x512xf32>) {
      // Rows past the view's end load as zero; the mask keeps them out of
      // the softmax.
      %keys = tile.range from %t : tensor<64xindex>
      %valid = arith.cmpi slt, %keys, %n_tile : tensor<64xindex>
      %k8 = tile.load %kv_seq[%t, %c0]
          : !tile.view<?x576xf8E4M3FN> -> tensor<64x576xf8E4M3FN>
      %k = tile.dequant_fp8 %k8, %unit : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
      %v = tensor.extract_slice %k[0, 0] [64, 512] [1, 1]
          : tensor<64x576xbf16> to tensor<64x512xbf16>
      %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %k, %v, %m, %l, %acc
          scale %score_scale mask %valid : tensor<64xi1>
          : tensor<32x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
          -> tensor<32x512xf32>
      scf.yield %m2, %l2, %acc2 : tensor<32xf32>, tensor<32xf32>, tensor<32x512xf32>
    }

    // Normalize; a split that saw no key stores o = 0 and lse = -inf.
    %zeros = tile.splat %zero : tensor<32x512xf32>
    %l_rows = tile.broadcast %r#1 dims [1] : tensor<32xf32> -> tensor<32x512xf32>
    %v_scale = tile.splat %kv_scale0 : tensor<32x512xf32>
    %acc_scaled = arith.mulf %r#2, %v_scale : tensor<32x512xf32>
    %o_raw = arith.divf %acc_scaled, %l_rows : tensor<32x512xf32>
    %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<32x512xf32>
    %o = arith.select %no_keys, %zeros, %o_raw : tensor<32x512xi1>, tensor<32x512xf32>
    %log_l = math.log %r#1 : tensor<32xf32>
    %lse = arith.addf %r#0, %log_l : tensor<32xf32>

    // Slot (row, split) of the partial buffers.
    %slot_row = arith.muli %row, %max_splits : index
    %slot = arith.addi %slot_row, %split : index
    %o_off = arith.muli %slot, %o_row_elems : index
    %o_slot = tile.view %part_out[%o_off] sizes [32, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<32x512xf32>
    tile.store %o, %o_slot[%c0, %c0] : tensor<32x512xf32>, !tile.view<32x512xf32>
    %lse_off = arith.muli %slot, %heads : index
    %lse_slot = tile.view %part_lse[%lse_off] sizes [32] strides [1]
        : !tile.ptr<f32> -> !tile.view<32xf32>
    tile.store %lse, %lse_slot[%c0] : tensor<32xf32>, !tile.view<32xf32>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @mla_partial_mxfp4_h16
tile.kernel @mla_partial_mxfp4_h16(%q: !tile.ptr<bf16>, %kv: !tile.ptr<i8>, %kv_scale: !tile.ptr<f8E8M0FNU>,
    %scale_stride: i32,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "mxfp4", heads = 16 : i64,
                               max_splits = 16 : i64, kv_tile = 64 : i64,
                               grid = ["work_items", "max_q_len", 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c288 = arith.constant 288 : index
  %c576 = arith.constant 576 : index
  %max_splits = arith.constant 16 : index
  %heads = arith.constant 16 : index
  %q_row_elems = arith.constant 9216 : index
  %o_row_elems = arith.constant 8192 : index
  %w = tile.program_id x
  %j = tile.program_id y

  // Work item: sequence, KV rows [begin, end) and split slot.
  %w0 = arith.muli %w, %c4 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w3 = arith.addi %w0, %c3 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %split_i = tile.load_scalar %work[%w3] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %split = arith.index_cast %split_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_end_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_end = arith.index_cast %kv_end_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index

  // Program y is query token j of the sequence; the grid covers the
  // longest q_len, so shorter sequences have idle programs.
  %has_query = arith.cmpi ult, %j, %q_len : index
  scf.if %has_query {
    // Causal: query j sees keys up to kv_end - (q_len - 1 - j).
    %later = arith.subi %q_len, %j : index
    %hidden = arith.subi %later, %c1 : index
    %visible_end = arith.subi %kv_end, %hidden : index
    %hi = arith.minsi %end, %visible_end : index
    %span = arith.subi %hi, %begin : index
    %n = arith.maxsi %span, %c0 : index

    %row = arith.addi %q_begin, %j : index
    %q_off = arith.muli %row, %q_row_elems : index
    %q_row = tile.view %q[%q_off] sizes [16, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<16x576xbf16>
    %qt = tile.load %q_row[%c0, %c0] : !tile.view<16x576xbf16> -> tensor<16x576xbf16>
    %kv_off = arith.muli %begin, %c288 : index
    %kv_seq = tile.view %kv[%kv_off] sizes [%n, 288] strides [288, 1]
        : !tile.ptr<i8> -> !tile.view<?x288xi8>
    %stride = arith.index_cast %scale_stride : i32 to index
    %scale_off = arith.muli %begin, %stride : index
    %scale_seq = tile.view %kv_scale[%scale_off] sizes [%n, 18] strides [%stride, 1]
        : !tile.ptr<f8E8M0FNU> -> !tile.view<?x18xf8E8M0FNU>

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m0 = tile.splat %neg_inf : tensor<16xf32>
    %l0 = tile.splat %zero : tensor<16xf32>
    %acc0 = tile.splat %zero : tensor<16x512xf32>
    %n_tile = tile.splat %n : tensor<64xindex>
    %r:3 = scf.for %t = %c0 to %n step %c64
        iter_args(%m = %m0, %l = %l0, %acc = %acc0)
        -> (tensor<16xf32>, tensor<16xf32>, tensor<16x512xf32>) {
      // Rows past the view's end load as zero; the mask keeps them out of
      // the softmax.
      %keys = tile.range from %t : tensor<64xindex>
      %valid = arith.cmpi slt, %keys, %n_tile : tensor<64xindex>
      %kp = tile.load %kv_seq[%t, %c0] : !tile.view<?x288xi8> -> tensor<64x288xi8>
      %ks = tile.load %scale_seq[%t, %c0]
          : !tile.view<?x18xf8E8M0FNU> -> tensor<64x18xf8E8M0FNU>
      %k = tile.dequant_mx %kp, %ks
          : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
      %v = tensor.extract_slice %k[0, 0] [64, 512] [1, 1]
          : tensor<64x576xbf16> to tensor<64x512xbf16>
      %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %k, %v, %m, %l, %acc
          scale %sm_scale mask %valid : tensor<64xi1>
          : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
          -> tensor<16x512xf32>
      scf.yield %m2, %l2, %acc2 : tensor<16xf32>, tensor<16xf32>, tensor<16x512xf32>
    }

    // Normalize; a split that saw no key stores o = 0 and lse = -inf.
    %zeros = tile.splat %zero : tensor<16x512xf32>
    %l_rows = tile.broadcast %r#1 dims [1] : tensor<16xf32> -> tensor<16x512xf32>
    %o_raw = arith.divf %r#2, %l_rows : tensor<16x512xf32>
    %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<16x512xf32>
    %o = arith.select %no_keys, %zeros, %o_raw : tensor<16x512xi1>, tensor<16x512xf32>
    %log_l = math.log %r#1 : tensor<16xf32>
    %lse = arith.addf %r#0, %log_l : tensor<16xf32>

    // Slot (row, split) of the partial buffers.
    %slot_row = arith.muli %row, %max_splits : index
    %slot = arith.addi %slot_row, %split : index
    %o_off = arith.muli %slot, %o_row_elems : index
    %o_slot = tile.view %part_out[%o_off] sizes [16, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<16x512xf32>
    tile.store %o, %o_slot[%c0, %c0] : tensor<16x512xf32>, !tile.view<16x512xf32>
    %lse_off = arith.muli %slot, %heads : index
    %lse_slot = tile.view %part_lse[%lse_off] sizes [16] strides [1]
        : !tile.ptr<f32> -> !tile.view<16xf32>
    tile.store %lse, %lse_slot[%c0] : tensor<16xf32>, !tile.view<16xf32>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @mla_partial_mxfp4_h32
tile.kernel @mla_partial_mxfp4_h32(%q: !tile.ptr<bf16>, %kv: !tile.ptr<i8>, %kv_scale: !tile.ptr<f8E8M0FNU>,
    %scale_stride: i32,
    %qo_indptr: !tile.ptr<i32>, %kv_indptr: !tile.ptr<i32>, %work: !tile.ptr<i32>,
    %part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %sm_scale: f32)
    attributes {tile.launch = {role = "mla.partial", kv_dtype = "mxfp4", heads = 32 : i64,
                               max_splits = 16 : i64, kv_tile = 64 : i64,
                               grid = ["work_items", "max_q_len", 1]}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c288 = arith.constant 288 : index
  %c576 = arith.constant 576 : index
  %max_splits = arith.constant 16 : index
  %heads = arith.constant 32 : index
  %q_row_elems = arith.constant 18432 : index
  %o_row_elems = arith.constant 16384 : index
  %w = tile.program_id x
  %j = tile.program_id y

  // Work item: sequence, KV rows [begin, end) and split slot.
  %w0 = arith.muli %w, %c4 : index
  %w1 = arith.addi %w0, %c1 : index
  %w2 = arith.addi %w0, %c2 : index
  %w3 = arith.addi %w0, %c3 : index
  %seq_i = tile.load_scalar %work[%w0] : !tile.ptr<i32>
  %begin_i = tile.load_scalar %work[%w1] : !tile.ptr<i32>
  %end_i = tile.load_scalar %work[%w2] : !tile.ptr<i32>
  %split_i = tile.load_scalar %work[%w3] : !tile.ptr<i32>
  %seq = arith.index_cast %seq_i : i32 to index
  %begin = arith.index_cast %begin_i : i32 to index
  %end = arith.index_cast %end_i : i32 to index
  %split = arith.index_cast %split_i : i32 to index
  %seq_next = arith.addi %seq, %c1 : index
  %q_begin_i = tile.load_scalar %qo_indptr[%seq] : !tile.ptr<i32>
  %q_end_i = tile.load_scalar %qo_indptr[%seq_next] : !tile.ptr<i32>
  %kv_end_i = tile.load_scalar %kv_indptr[%seq_next] : !tile.ptr<i32>
  %q_begin = arith.index_cast %q_begin_i : i32 to index
  %q_end = arith.index_cast %q_end_i : i32 to index
  %kv_end = arith.index_cast %kv_end_i : i32 to index
  %q_len = arith.subi %q_end, %q_begin : index

  // Program y is query token j of the sequence; the grid covers the
  // longest q_len, so shorter sequences have idle programs.
  %has_query = arith.cmpi ult, %j, %q_len : index
  scf.if %has_query {
    // Causal: query j sees keys up to kv_end - (q_len - 1 - j).
    %later = arith.subi %q_len, %j : index
    %hidden = arith.subi %later, %c1 : index
    %visible_end = arith.subi %kv_end, %hidden : index
    %hi = arith.minsi %end, %visible_end : index
    %span = arith.subi %hi, %begin : index
    %n = arith.maxsi %span, %c0 : index

    %row = arith.addi %q_begin, %j : index
    %q_off = arith.muli %row, %q_row_elems : index
    %q_row = tile.view %q[%q_off] sizes [32, 576] strides [576, 1]
        : !tile.ptr<bf16> -> !tile.view<32x576xbf16>
    %qt = tile.load %q_row[%c0, %c0] : !tile.view<32x576xbf16> -> tensor<32x576xbf16>
    %kv_off = arith.muli %begin, %c288 : index
    %kv_seq = tile.view %kv[%kv_off] sizes [%n, 288] strides [288, 1]
        : !tile.ptr<i8> -> !tile.view<?x288xi8>
    %stride = arith.index_cast %scale_stride : i32 to index
    %scale_off = arith.muli %begin, %stride : index
    %scale_seq = tile.view %kv_scale[%scale_off] sizes [%n, 18] strides [%stride, 1]
        : !tile.ptr<f8E8M0FNU> -> !tile.view<?x18xf8E8M0FNU>

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m0 = tile.splat %neg_inf : tensor<32xf32>
    %l0 = tile.splat %zero : tensor<32xf32>
    %acc0 = tile.splat %zero : tensor<32x512xf32>
    %n_tile = tile.splat %n : tensor<64xindex>
    %r:3 = scf.for %t = %c0 to %n step %c64
        iter_args(%m = %m0, %l = %l0, %acc = %acc0)
        -> (tensor<32xf32>, tensor<32xf32>, tensor<32x512xf32>) {
      // Rows past the view's end load as zero; the mask keeps them out of
      // the softmax.
      %keys = tile.range from %t : tensor<64xindex>
      %valid = arith.cmpi slt, %keys, %n_tile : tensor<64xindex>
      %kp = tile.load %kv_seq[%t, %c0] : !tile.view<?x288xi8> -> tensor<64x288xi8>
      %ks = tile.load %scale_seq[%t, %c0]
          : !tile.view<?x18xf8E8M0FNU> -> tensor<64x18xf8E8M0FNU>
      %k = tile.dequant_mx %kp, %ks
          : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
      %v = tensor.extract_slice %k[0, 0] [64, 512] [1, 1]
          : tensor<64x576xbf16> to tensor<64x512xbf16>
      %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %k, %v, %m, %l, %acc
          scale %sm_scale mask %valid : tensor<64xi1>
          : tensor<32x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16>
          -> tensor<32x512xf32>
      scf.yield %m2, %l2, %acc2 : tensor<32xf32>, tensor<32xf32>, tensor<32x512xf32>
    }

    // Normalize; a split that saw no key stores o = 0 and lse = -inf.
    %zeros = tile.splat %zero : tensor<32x512xf32>
    %l_rows = tile.broadcast %r#1 dims [1] : tensor<32xf32> -> tensor<32x512xf32>
    %o_raw = arith.divf %r#2, %l_rows : tensor<32x512xf32>
    %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<32x512xf32>
    %o = arith.select %no_keys, %zeros, %o_raw : tensor<32x512xi1>, tensor<32x512xf32>
    %log_l = math.log %r#1 : tensor<32xf32>
    %lse = arith.addf %r#0, %log_l : tensor<32xf32>

    // Slot (row, split) of the partial buffers.
    %slot_row = arith.muli %row, %max_splits : index
    %slot = arith.addi %slot_row, %split : index
    %o_off = arith.muli %slot, %o_row_elems : index
    %o_slot = tile.view %part_out[%o_off] sizes [32, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<32x512xf32>
    tile.store %o, %o_slot[%c0, %c0] : tensor<32x512xf32>, !tile.view<32x512xf32>
    %lse_off = arith.muli %slot, %heads : index
    %lse_slot = tile.view %part_lse[%lse_off] sizes [32] strides [1]
        : !tile.ptr<f32> -> !tile.view<32xf32>
    tile.store %lse, %lse_slot[%c0] : tensor<32xf32>, !tile.view<32xf32>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @mla_combine_h16
tile.kernel @mla_combine_h16(%part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>,
    %q_splits: !tile.ptr<i32>, %out: !tile.ptr<bf16>)
    attributes {tile.launch = {role = "mla.combine", heads = 16 : i64,
                               max_splits = 16 : i64, grid = ["total_q", 4, 1]}} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %lse_row_elems = arith.constant 256 : index
  %o_row_elems = arith.constant 131072 : index
  %out_row_elems = arith.constant 8192 : index
  %row = tile.program_id x
  %chunk = tile.program_id y
  %col = arith.muli %chunk, %c128 : index
  %splits_i = tile.load_scalar %q_splits[%row] : !tile.ptr<i32>
  %splits = arith.index_cast %splits_i : i32 to index

  // Splits past the row's count load as lse = -inf and drop out.
  %neg_inf = arith.constant 0xFF800000 : f32
  %lse_off = arith.muli %row, %lse_row_elems : index
  %lse_row = tile.view %part_lse[%lse_off] sizes [%splits, 16] strides [16, 1]
      : !tile.ptr<f32> -> !tile.view<?x16xf32>
  %lse = tile.load %lse_row[%c0, %c0] pad %neg_inf
      : !tile.view<?x16xf32> -> tensor<16x16xf32>
  %o_off = arith.muli %row, %o_row_elems : index
  %o_row = tile.view %part_out[%o_off] sizes [%splits, 16, 512] strides [8192, 512, 1]
      : !tile.ptr<f32> -> !tile.view<?x16x512xf32>
  %o = tile.load %o_row[%c0, %c0, %col]
      : !tile.view<?x16x512xf32> -> tensor<16x16x128xf32>
  %merged = tile.split_reduce %o lse %lse : tensor<16x16x128xf32> -> tensor<16x128xf32>

  %result = arith.truncf %merged : tensor<16x128xf32> to tensor<16x128xbf16>
  %out_off = arith.muli %row, %out_row_elems : index
  %out_row = tile.view %out[%out_off] sizes [16, 512] strides [512, 1]
      : !tile.ptr<bf16> -> !tile.view<16x512xbf16>
  tile.store %result, %out_row[%c0, %col] : tensor<16x128xbf16>, !tile.view<16x512xbf16>
  tile.return
}

// CHECK-LABEL: tile.kernel @mla_combine_h32
tile.kernel @mla_combine_h32(%part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>,
    %q_splits: !tile.ptr<i32>, %out: !tile.ptr<bf16>)
    attributes {tile.launch = {role = "mla.combine", heads = 32 : i64,
                               max_splits = 16 : i64, grid = ["total_q", 4, 1]}} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %lse_row_elems = arith.constant 512 : index
  %o_row_elems = arith.constant 262144 : index
  %out_row_elems = arith.constant 16384 : index
  %row = tile.program_id x
  %chunk = tile.program_id y
  %col = arith.muli %chunk, %c128 : index
  %splits_i = tile.load_scalar %q_splits[%row] : !tile.ptr<i32>
  %splits = arith.index_cast %splits_i : i32 to index

  // Splits past the row's count load as lse = -inf and drop out.
  %neg_inf = arith.constant 0xFF800000 : f32
  %lse_off = arith.muli %row, %lse_row_elems : index
  %lse_row = tile.view %part_lse[%lse_off] sizes [%splits, 32] strides [32, 1]
      : !tile.ptr<f32> -> !tile.view<?x32xf32>
  %lse = tile.load %lse_row[%c0, %c0] pad %neg_inf
      : !tile.view<?x32xf32> -> tensor<16x32xf32>
  %o_off = arith.muli %row, %o_row_elems : index
  %o_row = tile.view %part_out[%o_off] sizes [%splits, 32, 512] strides [16384, 512, 1]
      : !tile.ptr<f32> -> !tile.view<?x32x512xf32>
  %o = tile.load %o_row[%c0, %c0, %col]
      : !tile.view<?x32x512xf32> -> tensor<16x32x128xf32>
  %merged = tile.split_reduce %o lse %lse : tensor<16x32x128xf32> -> tensor<32x128xf32>

  %result = arith.truncf %merged : tensor<32x128xf32> to tensor<32x128xbf16>
  %out_off = arith.muli %row, %out_row_elems : index
  %out_row = tile.view %out[%out_off] sizes [32, 512] strides [512, 1]
      : !tile.ptr<bf16> -> !tile.view<32x512xbf16>
  tile.store %result, %out_row[%c0, %col] : tensor<32x128xbf16>, !tile.view<32x512xbf16>
  tile.return
}
