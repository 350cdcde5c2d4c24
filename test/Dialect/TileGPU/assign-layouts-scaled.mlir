// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 -split-input-file | FileCheck %s
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx942 -split-input-file -verify-diagnostics
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=sm_90 -split-input-file -verify-diagnostics

// A product of two MXFP4 operands stays a tile.dot_scaled on gfx950
// (tile-decompose keep-scaled-fp4) and takes the scaled MFMA, 32 values of
// K a lane: A's lanes hold 16 bytes of a row each and the scale of those 32
// values, B's (loaded as [N, K/2] and transposed) the same of a column. The
// loads produce those layouts themselves: no conversion.
// CHECK-DAG: #[[$MMA:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 128], warpsPerCTA = [2, 2]>
// CHECK-DAG: #[[$A:.*]] = #tilegpu.linear<[reg 16 -> d1 x1, lane 16 -> d0 x1, lane 4 -> d1 x16, warp 2 -> *, warp 2 -> d0 x16, reg 2 -> d0 x32]>
// CHECK-DAG: #[[$AS:.*]] = #tilegpu.linear<[lane 16 -> d0 x1, lane 4 -> d1 x1, warp 2 -> *, warp 2 -> d0 x16, reg 2 -> d0 x32]>
// CHECK-DAG: #[[$B:.*]] = #tilegpu.linear<[reg 16 -> d1 x1, lane 16 -> d0 x1, lane 4 -> d1 x16, warp 2 -> d0 x16, warp 2 -> *, reg 2 -> d0 x32]>
// CHECK-DAG: #[[$BT:.*]] = #tilegpu.linear<[reg 16 -> d0 x1, lane 16 -> d1 x1, lane 4 -> d0 x16, warp 2 -> d1 x16, warp 2 -> *, reg 2 -> d1 x32]>
// CHECK-DAG: #[[$BS:.*]] = #tilegpu.linear<[lane 16 -> d0 x1, lane 4 -> d1 x1, warp 2 -> d0 x16, warp 2 -> *, reg 2 -> d0 x32]>
// CHECK-LABEL: tile.kernel @mxfp4_product
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.load {{.*}} -> tensor<64x64xi8, #[[$A]]>
// CHECK: tile.load {{.*}} -> tensor<64x4xf8E8M0FNU, #[[$AS]]>
// CHECK: tile.load {{.*}} -> tensor<64x64xi8, #[[$B]]>
// CHECK: tile.load {{.*}} -> tensor<64x4xf8E8M0FNU, #[[$BS]]>
// CHECK: tile.trans {{.*}} -> tensor<64x64xi8, #[[$BT]]>
// CHECK: tile.dot_scaled {{.*}} -> tensor<64x64xf32, #[[$MMA]]>
// CHECK-NOT: tilegpu.convert_layout
// Elsewhere such a product reaches layout assignment only when
// tile-decompose did not run.
tile.kernel @mxfp4_product(%a: !tile.ptr<i8>, %as: !tile.ptr<f8E8M0FNU>,
                           %b: !tile.ptr<i8>, %bs: !tile.ptr<f8E8M0FNU>,
                           %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [64, 64] strides [64, 1] : !tile.ptr<i8> -> !tile.view<64x64xi8>
  %asv = tile.view %as sizes [64, 4] strides [4, 1] : !tile.ptr<f8E8M0FNU> -> !tile.view<64x4xf8E8M0FNU>
  %bv = tile.view %b sizes [64, 64] strides [64, 1] : !tile.ptr<i8> -> !tile.view<64x64xi8>
  %bsv = tile.view %bs sizes [64, 4] strides [4, 1] : !tile.ptr<f8E8M0FNU> -> !tile.view<64x4xf8E8M0FNU>
  %at = tile.load %av[%c0, %c0] : !tile.view<64x64xi8> -> tensor<64x64xi8>
  %ast = tile.load %asv[%c0, %c0] : !tile.view<64x4xf8E8M0FNU> -> tensor<64x4xf8E8M0FNU>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<64x64xi8> -> tensor<64x64xi8>
  %bst = tile.load %bsv[%c0, %c0] : !tile.view<64x4xf8E8M0FNU> -> tensor<64x4xf8E8M0FNU>
  %btt = tile.trans %bt : tensor<64x64xi8> -> tensor<64x64xi8>
  %zero = arith.constant 0.0 : f32
  %acc = tile.splat %zero : tensor<64x64xf32>
  // expected-error @below {{reaches the GPU lowering only as a product of two block-scaled fp4 operands on a chip with scaled MFMA}}
  %r = tile.dot_scaled %at scale %ast : tensor<64x4xf8E8M0FNU>, %btt scale %bst : tensor<64x4xf8E8M0FNU>, %acc
      : tensor<64x64xi8>, tensor<64x64xi8> -> tensor<64x64xf32>
  %cv = tile.view %c sizes [64, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<64x64xf32>
  tile.store %r, %cv[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// -----

// The accumulator comes from a bf16 product of one instruction row over a
// long K, whose warps split K: the scaled product lays out its own result
// with those warps on columns (it never splits K) and converts the
// accumulator to it.
// CHECK-DAG: #[[$SPLIT:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [1, 1, 4]>
// CHECK-DAG: #[[$COLS:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 128], warpsPerCTA = [1, 4]>
// CHECK-LABEL: tile.kernel @after_split_k
// CHECK: %[[P:.*]] = tile.dot {{.*}} -> tensor<16x64xf32, #[[$SPLIT]]>
// CHECK: %[[ACC:.*]] = tilegpu.convert_layout %[[P]] : tensor<16x64xf32, #[[$SPLIT]]> -> tensor<16x64xf32, #[[$COLS]]>
// CHECK: %[[R:.*]] = tile.dot_scaled {{.*}}, %[[ACC]] : {{.*}} -> tensor<16x64xf32, #[[$COLS]]>
// CHECK: tilegpu.convert_layout %[[R]] : tensor<16x64xf32, #[[$COLS]]> -> tensor<16x64xf32, #[[$SPLIT]]>
tile.kernel @after_split_k(%x: !tile.ptr<bf16>, %y: !tile.ptr<bf16>,
                           %a: !tile.ptr<i8>, %as: !tile.ptr<f8E8M0FNU>,
                           %b: !tile.ptr<i8>, %bs: !tile.ptr<f8E8M0FNU>,
                           %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %xv = tile.view %x sizes [16, 512] strides [512, 1] : !tile.ptr<bf16> -> !tile.view<16x512xbf16>
  %yv = tile.view %y sizes [512, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<512x64xbf16>
  %xt = tile.load %xv[%c0, %c0] : !tile.view<16x512xbf16> -> tensor<16x512xbf16>
  %yt = tile.load %yv[%c0, %c0] : !tile.view<512x64xbf16> -> tensor<512x64xbf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<16x64xf32>
  %p = tile.dot %xt, %yt, %acc0 : tensor<16x512xbf16>, tensor<512x64xbf16> -> tensor<16x64xf32>
  %av = tile.view %a sizes [16, 64] strides [64, 1] : !tile.ptr<i8> -> !tile.view<16x64xi8>
  %asv = tile.view %as sizes [16, 4] strides [4, 1] : !tile.ptr<f8E8M0FNU> -> !tile.view<16x4xf8E8M0FNU>
  %bv = tile.view %b sizes [64, 64] strides [64, 1] : !tile.ptr<i8> -> !tile.view<64x64xi8>
  %bsv = tile.view %bs sizes [64, 4] strides [4, 1] : !tile.ptr<f8E8M0FNU> -> !tile.view<64x4xf8E8M0FNU>
  %at = tile.load %av[%c0, %c0] : !tile.view<16x64xi8> -> tensor<16x64xi8>
  %ast = tile.load %asv[%c0, %c0] : !tile.view<16x4xf8E8M0FNU> -> tensor<16x4xf8E8M0FNU>
  %bt = tile.load %bv[%c0, %c0] : !tile.view<64x64xi8> -> tensor<64x64xi8>
  %bst = tile.load %bsv[%c0, %c0] : !tile.view<64x4xf8E8M0FNU> -> tensor<64x4xf8E8M0FNU>
  %btt = tile.trans %bt : tensor<64x64xi8> -> tensor<64x64xi8>
  // expected-error @below {{reaches the GPU lowering only as a product of two block-scaled fp4 operands on a chip with scaled MFMA}}
  %r = tile.dot_scaled %at scale %ast : tensor<16x4xf8E8M0FNU>, %btt scale %bst : tensor<64x4xf8E8M0FNU>, %p
      : tensor<16x64xi8>, tensor<64x64xi8> -> tensor<16x64xf32>
  %cv = tile.view %c sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  tile.store %r, %cv[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}
