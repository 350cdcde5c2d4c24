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
//
// The same for the flagship's MXFP4 instance for 16 heads and its combine
// kernel, specialized from examples/mla_decode.mlir and every tile type
// given the encoding.
// RUN: mla-opt %examples/mla_decode.mlir -tile-specialize='instances=mla_partial:KV=mxfp4' \
// RUN:   | sed -e 's/tensor<\([^>]*\)>/tensor<\1, "L">/g' > %t.flagship.mlir
// RUN: mla-opt %t.flagship.mlir \
// RUN:   | FileCheck %s --check-prefix=MLA-VERIFY --implicit-check-not='tensor<{{[^,>]+}}>'
// RUN: mla-opt %t.flagship.mlir -canonicalize \
// RUN:   | FileCheck %s --check-prefix=MLA-CANON --implicit-check-not='tensor<{{[^,>]+}}>'
// RUN: mla-opt %t.flagship.mlir -tile-decompose -canonicalize \
// RUN:   | FileCheck %s --check-prefix=MLA-DECOMP --implicit-check-not='tensor<{{[^,>]+}}>' \
// RUN:     --implicit-check-not=tile.qk_softmax_acc
// RUN: mla-opt %t.flagship.mlir --tile-to-primitives \
// RUN:   | FileCheck %s --check-prefix=MLA-PRIMS --implicit-check-not='tensor<{{[^,>]+}}>'

// VERIFY-LABEL: tile.kernel @attention_step
// CANON-LABEL: tile.kernel @attention_step
// The all-true mask folds away; the load keeps its encoded type.
// CANON: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<?x64xbf16> -> tensor<64x64xbf16, "L">
// CANON: tile.qk_softmax_acc
// DECOMP-LABEL: tile.kernel @attention_step
// DECOMP: tile.trans %{{.*}} : tensor<64x64xbf16, "L"> -> tensor<64x64xbf16, "L">
// DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xbf16, "L">, tensor<64x64xbf16, "L"> -> tensor<16x64xf32, "L">
// DECOMP: tile.broadcast %{{.*}} dims [0] : tensor<64xi1, "L"> -> tensor<16x64xi1, "L">
// DECOMP: tile.reduce maxnum %{{.*}} dim 1 : tensor<16x64xf32, "L"> -> tensor<16xf32, "L">
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
// DECOMP: tile.dequant_mx %{{.*}}, %{{.*}} : tensor<16x32xi8, "L">, tensor<16x2xf8E8M0FNU, "L"> -> tensor<16x64xbf16, "L">
// DECOMP: tile.trans %{{.*}} : tensor<16x64xbf16, "L"> -> tensor<64x16xbf16, "L">
// DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xbf16, "L">, tensor<64x16xbf16, "L"> -> tensor<16x16xf32, "L">
// DECOMP: tile.dequant_fp8 %{{.*}}, %{{.*}} : tensor<16x64xf8E4M3FN, "L"> -> tensor<16x64xbf16, "L">
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

// MLA-VERIFY-LABEL: tile.kernel @mla_partial_mxfp4(
// MLA-VERIFY: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<64x64xi1, "L"> : tensor<64x576xbf16, "L">, tensor<64x576xbf16, "L"> -> tensor<64x512xf32, "L">
// MLA-VERIFY-LABEL: tile.kernel @mla_combine(
// MLA-VERIFY: scf.for {{.*}} -> (tensor<512xf32, "L">, tensor<512xf32, "L">, tensor<512xf32, "L">)
// MLA-CANON-LABEL: tile.kernel @mla_partial_mxfp4(
// MLA-CANON: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<?x288xi8> -> tensor<64x288xi8, "L">
// MLA-CANON: tile.qk_softmax_acc
// MLA-CANON-LABEL: tile.kernel @mla_combine(
// MLA-DECOMP-LABEL: tile.kernel @mla_partial_mxfp4(
// MLA-DECOMP: tile.dequant_mx %{{.*}}, %{{.*}} : tensor<64x288xi8, "L">, tensor<64x18xf8E8M0FNU, "L"> -> tensor<64x576xbf16, "L">
// MLA-DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x576xbf16, "L">, tensor<576x64xbf16, "L"> -> tensor<64x64xf32, "L">
// MLA-DECOMP: tensor.extract_slice %{{.*}}[0, 0] [64, 512] [1, 1] : tensor<64x576xbf16, "L"> to tensor<64x512xbf16, "L">
// MLA-DECOMP: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xbf16, "L">, tensor<64x512xbf16, "L"> -> tensor<64x512xf32, "L">
// MLA-DECOMP: tile.store %{{.*}} : tensor<64xf32, "L">, !tile.view<?xf32>
// MLA-DECOMP-LABEL: tile.kernel @mla_combine(
// MLA-DECOMP: math.exp %{{.*}} : tensor<16x512xf32, "L">
// MLA-DECOMP: tile.store %{{.*}} : tensor<512xbf16, "L">, !tile.view<512xbf16>
// MLA-PRIMS-LABEL: tile.kernel @mla_partial_mxfp4(
// MLA-PRIMS: scf.for {{.*}} -> (tensor<64xf32, "L">, tensor<64xf32, "L">, tensor<64x512xf32, "L">)
// MLA-PRIMS-LABEL: tile.kernel @mla_combine(
// MLA-PRIMS: tile.reduce sum %{{.*}} dim 0 : tensor<16x512xf32, "L"> -> tensor<512xf32, "L">
// MLA-PRIMS: tile.store %{{.*}} : tensor<512xbf16, "L">, !tile.view<512xbf16>
