// RUN: mla-opt %s --convert-tile-to-host -split-input-file | FileCheck %s

// MXFP4 tiles: element c is the low (even c) or high nibble of byte c/2, scaled
// by the E8M0 scale of block c/32, decoded with integer arithmetic.
// CHECK-LABEL: func.func @mxfp4
// CHECK: tensor.generate
// CHECK-NEXT: ^bb0(%[[ROW:.*]]: index, %[[COL:.*]]: index):
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[BYTEIDX:.*]] = arith.divui %[[COL]], %[[C2]] : index
// CHECK: %[[BYTE:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[BYTEIDX]]] : tensor<4x32xi8>
// CHECK: %[[ODD:.*]] = arith.remui %[[COL]], %[[C2]] : index
// CHECK: %[[ODD8:.*]] = arith.index_cast %[[ODD]] : index to i8
// CHECK: %[[SHIFT:.*]] = arith.muli %[[ODD8]], %{{.*}} : i8
// CHECK: %[[NIBBLE:.*]] = arith.shrui %[[BYTE]], %[[SHIFT]] : i8
// CHECK: arith.extui %[[NIBBLE]] : i8 to i32
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[BLOCK:.*]] = arith.divui %[[COL]], %[[C32]] : index
// CHECK: %[[SC:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[BLOCK]]] : tensor<4x2xf8E8M0FNU>
// CHECK: arith.bitcast %[[SC]] : f8E8M0FNU to i8
// 0x00 is 2^-127 (a subnormal f32), 0xFF is NaN.
// CHECK: arith.constant 4194304 : i32
// CHECK: arith.constant 255 : i32
// CHECK: arith.constant 0x7FC00000 : f32
// CHECK: %[[PROD:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[R:.*]] = arith.truncf %[[PROD]] : f32 to bf16
// CHECK: tensor.yield %[[R]] : bf16
// CHECK: } : tensor<4x64xbf16>
tile.kernel @mxfp4(%p: !tile.ptr<i8>, %s: !tile.ptr<f8E8M0FNU>) {
  %c0 = arith.constant 0 : index
  %pv = tile.view %p sizes [4, 32] strides [32, 1] : !tile.ptr<i8> -> !tile.view<4x32xi8>
  %sv = tile.view %s sizes [4, 2] strides [2, 1] : !tile.ptr<f8E8M0FNU> -> !tile.view<4x2xf8E8M0FNU>
  %packed = tile.load %pv[%c0, %c0] : !tile.view<4x32xi8> -> tensor<4x32xi8>
  %scales = tile.load %sv[%c0, %c0] : !tile.view<4x2xf8E8M0FNU> -> tensor<4x2xf8E8M0FNU>
  %k = tile.dequant_mx %packed, %scales : tensor<4x32xi8>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xbf16>
  tile.return
}

// -----

// fp8 e4m3fn: S.1111.111 is NaN; the f32 result needs no rounding.
// CHECK-LABEL: func.func @fp8
// CHECK: %[[SCALE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: tensor.generate
// CHECK: %[[E:.*]] = tensor.extract %{{.*}} : tensor<8x32xf8E4M3FN>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[E]] : f8E4M3FN to i8
// CHECK: arith.extui %[[BITS]] : i8 to i32
// CHECK: arith.constant 127 : i32
// CHECK: %[[V:.*]] = arith.select
// CHECK: %[[SCALED:.*]] = arith.mulf %[[V]], %[[SCALE]] : f32
// CHECK-NEXT: tensor.yield %[[SCALED]] : f32
tile.kernel @fp8(%p: !tile.ptr<f8E4M3FN>, %scale: f32) {
  %c0 = arith.constant 0 : index
  %pv = tile.view %p sizes [8, 32] strides [32, 1] : !tile.ptr<f8E4M3FN> -> !tile.view<8x32xf8E4M3FN>
  %x = tile.load %pv[%c0, %c0] : !tile.view<8x32xf8E4M3FN> -> tensor<8x32xf8E4M3FN>
  %k = tile.dequant_fp8 %x, %scale : tensor<8x32xf8E4M3FN> -> tensor<8x32xf32>
  tile.return
}
