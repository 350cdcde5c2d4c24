// Layouts are encodings on the tile types. Every verifier, fold and rewrite
// derives result types from operand types, so an encoding attached to every
// tile of a program is accepted and kept through verification,
// canonicalization and tile-decompose. "L" stands for a layout that does
// not implement TileEncodingAttrInterface: derived types keep it unchanged.
//
// RUN: mla-opt %s -split-input-file \
// RUN:   | FileCheck %s --check-prefix=VERIFY --implicit-check-not='tensor<{{[^,>]+}}>'
// RUN: mla-opt %s -split-input-file -canonicalize \
// RUN:   | FileCheck %s --check-prefix=CANON --implicit-check-not='tensor<{{[^,>]+}}>'
// RUN: mla-opt %s -split-input-file -tile-decompose -canonicalize \
// RUN:   | FileCheck %s --check-prefix=DECOMP --implicit-check-not='tensor<{{[^,>]+}}>' \
// RUN:     --implicit-check-not=tile.qk_softmax_acc --implicit-check-not=tile.split_reduce \
// RUN:     --implicit-check-not=tile.dot_scaled
// RUN: mla-opt %s -split-input-file --tile-to-primitives \
// RUN:   | FileCheck %s --check-prefix=PRIMS --implicit-check-not='tensor<{{[^,>]+}}>'

// VERIFY-LABEL: tile.kernel @attention_step
// CANON-LABEL: tile.kernel @attention_step
// The all-true mask folds away; the load keeps its encoded type.
// CANON: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<?x64xbf16> -> tensor<64x64xbf16, "L">
// CANON: tile.qk_softmax_acc
// DECOMP-LABEL: tile.kernel @attention_step
// DECOMP: tile.trans %{{.*}} : tensor<64x64xbf16, "L"> -> tensor<64x64xbf16, "L">
// DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xbf16, "L">, tensor<64x64xbf16, "L"> -> tensor<16x64xf32, "L">
// DECOMP: tile.broadcast %{{.*}} dims [0] : tensor<64xi1, "L"> -> tensor<16x64xi1, "L">
// DECOMP: tile.reduce max %{{.*}} dim 1 : tensor<16x64xf32, "L"> -> tensor<16xf32, "L">
// DECOMP: tile.broadcast %{{.*}} dims [1] : tensor<16xf32, "L"> -> tensor<16x64xf32, "L">
// DECOMP: tile.reduce sum %{{.*}} dim 1 : tensor<16x64xf32, "L"> -> tensor<16xf32, "L">
// DECOMP: tensor.extract_slice %{{.*}}[0, 0] [64, 32] [1, 1] : tensor<64x64xbf16, "L"> to tensor<64x32xbf16, "L">
// DECOMP: arith.truncf %{{.*}} : tensor<16x64xf32, "L"> to tensor<16x64xbf16, "L">
// DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xbf16, "L">, tensor<64x32xbf16, "L"> -> tensor<16x32xf32, "L">
// DECOMP: tile.store %{{.*}} mask %{{.*}} : tensor<16x32xi1, "L"> : tensor<16x32xf32, "L">
// PRIMS-LABEL: tile.kernel @attention_step
// PRIMS: tile.dot {{.*}} -> tensor<16x32xf32, "L">
tile.kernel @attention_step(%q: !tile.ptr<bf16>, %kv: !tile.ptr<bf16>, %o: !tile.ptr<f32>,
                            %s: f32, %n: i32) {
  %c0 = arith.constant 0 : index
  %all = arith.constant dense<true> : tensor<64xi1, "L">
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %len = arith.index_cast %n : i32 to index
  %qv = tile.view %q sizes [16, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<16x64xbf16>
  %kvv = tile.view %kv sizes [%len, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %ov = tile.view %o sizes [16, 32] strides [32, 1] : !tile.ptr<f32> -> !tile.view<16x32xf32>
  %qt = tile.load %qv[%c0, %c0] : !tile.view<16x64xbf16> -> tensor<16x64xbf16, "L">
  %keys = tile.range : tensor<64xindex, "L">
  %n_t = tile.splat %len : tensor<64xindex, "L">
  %valid = arith.cmpi slt, %keys, %n_t : tensor<64xindex, "L">
  %k = tile.load %kvv[%c0, %c0] mask %all : tensor<64xi1, "L">
      : !tile.view<?x64xbf16> -> tensor<64x64xbf16, "L">
  %m0 = tile.splat %neg_inf : tensor<16xf32, "L">
  %l0 = tile.splat %zero : tensor<16xf32, "L">
  %acc0 = tile.splat %zero : tensor<16x32xf32, "L">
  %m, %l, %acc = tile.qk_softmax_acc %qt, %k, %m0, %l0, %acc0
      scale %s mask %valid : tensor<64xi1, "L">
      : tensor<16x64xbf16, "L">, tensor<64x64xbf16, "L"> -> tensor<16x32xf32, "L">
  %l_rows = tile.broadcast %l dims [1] : tensor<16xf32, "L"> -> tensor<16x32xf32, "L">
  %o_t = arith.divf %acc, %l_rows : tensor<16x32xf32, "L">
  %zeros = tile.splat %zero : tensor<16x32xf32, "L">
  %written = arith.cmpf one, %l_rows, %zeros : tensor<16x32xf32, "L">
  tile.store %o_t, %ov[%c0, %c0] mask %written : tensor<16x32xi1, "L">
      : tensor<16x32xf32, "L">, !tile.view<16x32xf32>
  tile.return
}

// -----

// VERIFY-LABEL: tile.kernel @combine
// CANON-LABEL: tile.kernel @combine
// CANON: tile.split_reduce %{{.*}} lse %{{.*}} : tensor<8x16x128xf32, "L"> -> tensor<16x128xf32, "L">
// DECOMP-LABEL: tile.kernel @combine
// DECOMP: tile.reduce max %{{.*}} dim 0 : tensor<8x16xf32, "L"> -> tensor<16xf32, "L">
// DECOMP: tile.broadcast %{{.*}} dims [2] : tensor<8x16xf32, "L"> -> tensor<8x16x128xf32, "L">
// DECOMP: tile.reduce sum %{{.*}} dim 0 : tensor<8x16x128xf32, "L"> -> tensor<16x128xf32, "L">
// DECOMP: arith.truncf %{{.*}} : tensor<16x128xf32, "L"> to tensor<16x128xbf16, "L">
// PRIMS-LABEL: tile.kernel @combine
// PRIMS: tile.store %{{.*}} : tensor<16x128xbf16, "L">
tile.kernel @combine(%part_out: !tile.ptr<f32>, %part_lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>,
                     %splits_i: i32) {
  %c0 = arith.constant 0 : index
  %neg_inf = arith.constant 0xFF800000 : f32
  %splits = arith.index_cast %splits_i : i32 to index
  %lse_v = tile.view %part_lse sizes [%splits, 16] strides [16, 1]
      : !tile.ptr<f32> -> !tile.view<?x16xf32>
  %lse = tile.load %lse_v[%c0, %c0] pad %neg_inf : !tile.view<?x16xf32> -> tensor<8x16xf32, "L">
  %o_v = tile.view %part_out sizes [%splits, 16, 128] strides [2048, 128, 1]
      : !tile.ptr<f32> -> !tile.view<?x16x128xf32>
  %o = tile.load %o_v[%c0, %c0, %c0] : !tile.view<?x16x128xf32> -> tensor<8x16x128xf32, "L">
  %merged = tile.split_reduce %o lse %lse : tensor<8x16x128xf32, "L"> -> tensor<16x128xf32, "L">
  %result = arith.truncf %merged : tensor<16x128xf32, "L"> to tensor<16x128xbf16, "L">
  %out_v = tile.view %out sizes [16, 128] strides [128, 1]
      : !tile.ptr<bf16> -> !tile.view<16x128xbf16>
  tile.store %result, %out_v[%c0, %c0] : tensor<16x128xbf16, "L">, !tile.view<16x128xbf16>
  tile.return
}

// -----

// VERIFY-LABEL: tile.kernel @scaled_product
// CANON-LABEL: tile.kernel @scaled_product
// DECOMP-LABEL: tile.kernel @scaled_product
// DECOMP: tile.trans %{{.*}} : tensor<32x16xi8, "L"> -> tensor<16x32xi8, "L">
// DECOMP: tile.dequant_mx %{{.*}}, %{{.*}} : tensor<16x32xi8, "L">, tensor<16x2xf8E8M0FNU, "L"> -> tensor<16x64xf32, "L">
// DECOMP: tile.trans %{{.*}} : tensor<16x64xf32, "L"> -> tensor<64x16xf32, "L">
// DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xf32, "L">, tensor<64x16xf32, "L"> -> tensor<16x16xf32, "L">
// DECOMP: tile.dequant_fp8 %{{.*}}, %{{.*}} : tensor<16x64xf8E4M3FN, "L"> -> tensor<16x64xf32, "L">
// PRIMS-LABEL: tile.kernel @scaled_product
// PRIMS: tile.dequant_mx
tile.kernel @scaled_product(%a: !tile.ptr<bf16>, %b: !tile.ptr<i8>, %bs: !tile.ptr<f8E8M0FNU>,
                            %f: !tile.ptr<f8E4M3FN>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %av = tile.view %a sizes [16, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<16x64xbf16>
  %bv = tile.view %b sizes [32, 16] strides [16, 1] : !tile.ptr<i8> -> !tile.view<32x16xi8>
  %sv = tile.view %bs sizes [16, 2] strides [2, 1]
      : !tile.ptr<f8E8M0FNU> -> !tile.view<16x2xf8E8M0FNU>
  %fv = tile.view %f sizes [16, 64] strides [64, 1]
      : !tile.ptr<f8E4M3FN> -> !tile.view<16x64xf8E4M3FN>
  %cv = tile.view %c sizes [16, 16] strides [16, 1] : !tile.ptr<f32> -> !tile.view<16x16xf32>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x64xbf16> -> tensor<16x64xbf16, "L">
  %bt = tile.load %bv[%c0, %c0] : !tile.view<32x16xi8> -> tensor<32x16xi8, "L">
  %st = tile.load %sv[%c0, %c0] : !tile.view<16x2xf8E8M0FNU> -> tensor<16x2xf8E8M0FNU, "L">
  %ft = tile.load %fv[%c0, %c0] : !tile.view<16x64xf8E4M3FN> -> tensor<16x64xf8E4M3FN, "L">
  %acc = tile.splat %zero : tensor<16x16xf32, "L">
  %p = tile.dot_scaled %at, %bt scale %st : tensor<16x2xf8E8M0FNU, "L">, %acc
      : tensor<16x64xbf16, "L">, tensor<32x16xi8, "L"> -> tensor<16x16xf32, "L">
  %r = tile.dot_scaled %ft, %bt scale %st : tensor<16x2xf8E8M0FNU, "L">, %p
      : tensor<16x64xf8E4M3FN, "L">, tensor<32x16xi8, "L"> -> tensor<16x16xf32, "L">
  tile.store %r, %cv[%c0, %c0] : tensor<16x16xf32, "L">, !tile.view<16x16xf32>
  tile.return
}

// -----

// The flagship's MXFP4 partial kernel for 16 heads, every tile encoded.
// VERIFY-LABEL: tile.kernel @mla_partial_mxfp4_h16
// VERIFY: tile.qk_softmax_acc
// CANON-LABEL: tile.kernel @mla_partial_mxfp4_h16
// DECOMP-LABEL: tile.kernel @mla_partial_mxfp4_h16
// DECOMP: tile.dequant_mx %{{.*}}, %{{.*}} : tensor<64x288xi8, "L">, tensor<64x18xf8E8M0FNU, "L"> -> tensor<64x576xbf16, "L">
// DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x576xbf16, "L">, tensor<576x64xbf16, "L"> -> tensor<16x64xf32, "L">
// DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xbf16, "L">, tensor<64x512xbf16, "L"> -> tensor<16x512xf32, "L">
// DECOMP: tile.store %{{.*}} : tensor<16xf32, "L">, !tile.view<16xf32>
// PRIMS-LABEL: tile.kernel @mla_partial_mxfp4_h16
// PRIMS: scf.for {{.*}} -> (tensor<16xf32, "L">, tensor<16xf32, "L">, tensor<16x512xf32, "L">)
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
    %qt = tile.load %q_row[%c0, %c0] : !tile.view<16x576xbf16> -> tensor<16x576xbf16, "L">
    %kv_off = arith.muli %begin, %c288 : index
    %kv_seq = tile.view %kv[%kv_off] sizes [%n, 288] strides [288, 1]
        : !tile.ptr<i8> -> !tile.view<?x288xi8>
    %stride = arith.index_cast %scale_stride : i32 to index
    %scale_off = arith.muli %begin, %stride : index
    %scale_seq = tile.view %kv_scale[%scale_off] sizes [%n, 18] strides [%stride, 1]
        : !tile.ptr<f8E8M0FNU> -> !tile.view<?x18xf8E8M0FNU>

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m0 = tile.splat %neg_inf : tensor<16xf32, "L">
    %l0 = tile.splat %zero : tensor<16xf32, "L">
    %acc0 = tile.splat %zero : tensor<16x512xf32, "L">
    %n_tile = tile.splat %n : tensor<64xindex, "L">
    %r:3 = scf.for %t = %c0 to %n step %c64
        iter_args(%m = %m0, %l = %l0, %acc = %acc0)
        -> (tensor<16xf32, "L">, tensor<16xf32, "L">, tensor<16x512xf32, "L">) {
      // Rows past the view's end load as zero; the mask keeps them out of
      // the softmax.
      %keys = tile.range from %t : tensor<64xindex, "L">
      %valid = arith.cmpi slt, %keys, %n_tile : tensor<64xindex, "L">
      %kp = tile.load %kv_seq[%t, %c0] : !tile.view<?x288xi8> -> tensor<64x288xi8, "L">
      %ks = tile.load %scale_seq[%t, %c0]
          : !tile.view<?x18xf8E8M0FNU> -> tensor<64x18xf8E8M0FNU, "L">
      %k = tile.dequant_mx %kp, %ks
          : tensor<64x288xi8, "L">, tensor<64x18xf8E8M0FNU, "L"> -> tensor<64x576xbf16, "L">
      %v = tensor.extract_slice %k[0, 0] [64, 512] [1, 1]
          : tensor<64x576xbf16, "L"> to tensor<64x512xbf16, "L">
      %m2, %l2, %acc2 = tile.qk_softmax_acc %qt, %k, %v, %m, %l, %acc
          scale %sm_scale mask %valid : tensor<64xi1, "L">
          : tensor<16x576xbf16, "L">, tensor<64x576xbf16, "L">, tensor<64x512xbf16, "L">
          -> tensor<16x512xf32, "L">
      scf.yield %m2, %l2, %acc2 : tensor<16xf32, "L">, tensor<16xf32, "L">, tensor<16x512xf32, "L">
    }

    // Normalize; a split that saw no key stores o = 0 and lse = -inf.
    %zeros = tile.splat %zero : tensor<16x512xf32, "L">
    %l_rows = tile.broadcast %r#1 dims [1] : tensor<16xf32, "L"> -> tensor<16x512xf32, "L">
    %o_raw = arith.divf %r#2, %l_rows : tensor<16x512xf32, "L">
    %no_keys = arith.cmpf oeq, %l_rows, %zeros : tensor<16x512xf32, "L">
    %o = arith.select %no_keys, %zeros, %o_raw : tensor<16x512xi1, "L">, tensor<16x512xf32, "L">
    %log_l = math.log %r#1 : tensor<16xf32, "L">
    %lse = arith.addf %r#0, %log_l : tensor<16xf32, "L">

    // Slot (row, split) of the partial buffers.
    %slot_row = arith.muli %row, %max_splits : index
    %slot = arith.addi %slot_row, %split : index
    %o_off = arith.muli %slot, %o_row_elems : index
    %o_slot = tile.view %part_out[%o_off] sizes [16, 512] strides [512, 1]
        : !tile.ptr<f32> -> !tile.view<16x512xf32>
    tile.store %o, %o_slot[%c0, %c0] : tensor<16x512xf32, "L">, !tile.view<16x512xf32>
    %lse_off = arith.muli %slot, %heads : index
    %lse_slot = tile.view %part_lse[%lse_off] sizes [16] strides [1]
        : !tile.ptr<f32> -> !tile.view<16xf32>
    tile.store %lse, %lse_slot[%c0] : tensor<16xf32, "L">, !tile.view<16xf32>
  }
  tile.return
}
