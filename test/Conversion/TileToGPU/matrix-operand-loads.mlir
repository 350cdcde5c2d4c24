// RUN: mla-opt %s --tilegpu-assign-layouts=chip=sm_90 --tilegpu-stage-operands \
// RUN:   --convert-tile-to-gpu=chip=sm_90 | FileCheck %s
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx950 --tilegpu-stage-operands \
// RUN:   --convert-tile-to-gpu=chip=gfx950 | FileCheck %s --check-prefix=GFX950
// RUN: mla-opt %s --tilegpu-assign-layouts=chip=gfx942 --tilegpu-stage-operands \
// RUN:   --convert-tile-to-gpu=chip=gfx942 | FileCheck %s --check-prefix=GFX942

// One load of a [keys, columns] tile serves as K (its transpose, the B
// operand of Q K^T) and V (the B operand of P V), both read from shared
// memory by ldmatrix, four 8x8 matrices at a time: K's lanes take pairs of
// adjacent columns of a key, as the rows are stored (plain); V's take one
// column of two adjacent keys (transposed). No operand element is read on
// its own.
// CHECK-LABEL: gpu.func @attend
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3> -> bf16
// CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3> -> i16
// CHECK: gpu.return
// On gfx950 a lane's K operand is 8 columns of one key, 16 bytes in a row;
// its V operand is 8 keys of one column, two runs of 4 that
// ds_read_b64_tr_b16 gathers from the 4 lanes of its group (each reads 4
// columns of one key). Again no element is read on its own.
// GFX950-LABEL: gpu.func @attend
// GFX950-NOT: nvvm.ldmatrix
// GFX950-COUNT-3: llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xbf16>
// GFX950-COUNT-2: rocdl.ds.read.tr16.b64 %{{.*}} : <3> -> vector<4xi16>
// GFX950-NOT: llvm.load {{.*}} : !llvm.ptr<3> -> bf16
// GFX950: gpu.return
// gfx942 has neither: V is read element by element.
// GFX942-LABEL: gpu.func @attend
// GFX942-NOT: rocdl.ds.read.tr16.b64
// GFX942: llvm.load {{.*}} : !llvm.ptr<3> -> bf16
tile.kernel @attend(%q: !tile.ptr<bf16>, %k: !tile.ptr<bf16>, %o: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %qv = tile.view %q sizes [16, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<16x64xbf16>
  %kv = tile.view %k sizes [32, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<32x64xbf16>
  %ov = tile.view %o sizes [16, 64] strides [64, 1] : !tile.ptr<f32> -> !tile.view<16x64xf32>
  %qt = tile.load %qv[%c0, %c0] : !tile.view<16x64xbf16> -> tensor<16x64xbf16>
  %kt = tile.load %kv[%c0, %c0] : !tile.view<32x64xbf16> -> tensor<32x64xbf16>
  %ktt = tile.trans %kt : tensor<32x64xbf16> -> tensor<64x32xbf16>
  %z = arith.constant dense<0.0> : tensor<16x32xf32>
  %s = tile.dot %qt, %ktt, %z : tensor<16x64xbf16>, tensor<64x32xbf16> -> tensor<16x32xf32>
  %p = arith.truncf %s : tensor<16x32xf32> to tensor<16x32xbf16>
  %z2 = arith.constant dense<0.0> : tensor<16x64xf32>
  %out = tile.dot %p, %kt, %z2 : tensor<16x32xbf16>, tensor<32x64xbf16> -> tensor<16x64xf32>
  tile.store %out, %ov[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}
