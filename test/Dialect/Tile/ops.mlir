// RUN: mla-opt %s | mla-opt | FileCheck %s
// RUN: mla-opt %s --mlir-print-op-generic | mla-opt | FileCheck %s

// Every tile op in its custom form; the second RUN line checks the generic
// form reads back to the same IR.

// CHECK-LABEL: tile.kernel @grid
// CHECK-SAME: (%x: !tile.ptr<f32>, %n: i32, %scale: f32, %big: i64)
// CHECK-SAME: attributes {tile.launch = {free_grid = true, grid = ["cdiv(n, 64)", "max(big // 2 - (n + 1) * -3, 1, n)", 2], requires = ["n <= 4096", "big >= 1"]}}
tile.kernel @grid(%x: !tile.ptr<f32>, %n: i32, %scale: f32, %big: i64)
    attributes {tile.launch = {grid = ["cdiv(n, 64)", "max(big // 2 - (n + 1) * -3, 1, n)", 2],
                               requires = ["n <= 4096", "big >= 1"], free_grid = true}} {
  // CHECK: tile.program_id x
  // CHECK: tile.program_id y
  // CHECK: tile.num_programs z
  %0 = tile.program_id x
  %1 = tile.program_id y
  %2 = tile.num_programs z
  // CHECK: tile.return
  tile.return
}

// CHECK-LABEL: tile.kernel @build
tile.kernel @build(%a: i32) {
  %c3 = arith.constant 3 : index
  %f = arith.constant 1.5 : f32
  // CHECK: tile.range : tensor<64xi32>
  %r0 = tile.range : tensor<64xi32>
  // CHECK: tile.range from %{{.*}} : tensor<16xindex>
  %r1 = tile.range from %c3 : tensor<16xindex>
  // CHECK: tile.range from %a : tensor<8xi32>
  %r2 = tile.range from %a : tensor<8xi32>
  // CHECK: %[[S:.*]] = tile.splat %{{.*}} : tensor<16xf32>
  %s = tile.splat %f : tensor<16xf32>
  // CHECK: tile.broadcast %[[S]] dims [1] : tensor<16xf32> -> tensor<16x512xf32>
  %b0 = tile.broadcast %s dims [1] : tensor<16xf32> -> tensor<16x512xf32>
  // CHECK: tile.broadcast %[[S]] dims [0, 2] : tensor<16xf32> -> tensor<4x16x8xf32>
  %b1 = tile.broadcast %s dims [0, 2] : tensor<16xf32> -> tensor<4x16x8xf32>
  // CHECK: tile.trans %{{.*}} : tensor<16x512xf32> -> tensor<512x16xf32>
  %t = tile.trans %b0 : tensor<16x512xf32> -> tensor<512x16xf32>
  tile.return
}

// CHECK-LABEL: tile.kernel @memory
tile.kernel @memory(%src: !tile.ptr<bf16>, %dst: !tile.ptr<bf16>,
                    %idx: !tile.ptr<i32>, %rows: i32) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %n = arith.index_cast %rows : i32 to index
  %pad = arith.constant 2.0 : bf16
  // CHECK: tile.load_scalar %idx[%{{.*}}] : !tile.ptr<i32>
  %i = tile.load_scalar %idx[%c7] : !tile.ptr<i32>
  // CHECK: %[[V:.*]] = tile.view %src[%{{.*}}] sizes [%{{.*}}, 576] strides [576, 1] : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  %v = tile.view %src[%c7] sizes [%n, 576] strides [576, 1]
      : !tile.ptr<bf16> -> !tile.view<?x576xbf16>
  // CHECK: %[[W:.*]] = tile.view %dst sizes [16, %{{.*}}] strides [%{{.*}}, 1] : !tile.ptr<bf16> -> !tile.view<16x?xbf16>
  %w = tile.view %dst sizes [16, %n] strides [%n, 1]
      : !tile.ptr<bf16> -> !tile.view<16x?xbf16>
  // CHECK: tile.load %[[V]][%{{.*}}, %{{.*}}] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
  %t0 = tile.load %v[%c0, %c0] : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
  %rows_t = tile.range : tensor<64xindex>
  %n_t = tile.splat %n : tensor<64xindex>
  %row_ok = arith.cmpi slt, %rows_t, %n_t : tensor<64xindex>
  // CHECK: tile.load %[[V]][%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<64xi1> pad %{{.*}} : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
  %t1 = tile.load %v[%c0, %c0] mask %row_ok : tensor<64xi1> pad %pad
      : !tile.view<?x576xbf16> -> tensor<64x576xbf16>
  %full = arith.constant dense<true> : tensor<16x32xi1>
  // CHECK: %[[T2:.*]] = tile.load %[[W]][%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<16x32xi1> : !tile.view<16x?xbf16> -> tensor<16x32xbf16>
  %t2 = tile.load %w[%c0, %c0] mask %full : tensor<16x32xi1>
      : !tile.view<16x?xbf16> -> tensor<16x32xbf16>
  // CHECK: tile.store %[[T2]], %[[W]][%{{.*}}, %{{.*}}] : tensor<16x32xbf16>, !tile.view<16x?xbf16>
  tile.store %t2, %w[%c0, %c0] : tensor<16x32xbf16>, !tile.view<16x?xbf16>
  // CHECK: tile.store %[[T2]], %[[W]][%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<16x32xi1> : tensor<16x32xbf16>, !tile.view<16x?xbf16>
  tile.store %t2, %w[%c0, %c0] mask %full : tensor<16x32xi1>
      : tensor<16x32xbf16>, !tile.view<16x?xbf16>
  tile.return
}

// CHECK-LABEL: tile.kernel @dequant
tile.kernel @dequant(%s: f32) {
  %p = arith.constant dense<0x21> : tensor<64x288xi8>
  %sc = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  %f8 = arith.constant dense<1.0> : tensor<64x576xf8E4M3FN>
  %f8s = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  %fnuz = arith.constant dense<1.0> : tensor<8x32xf8E4M3FNUZ>
  // CHECK: tile.dequant_mx %{{.*}}, %{{.*}} : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
  %0 = tile.dequant_mx %p, %sc : tensor<64x288xi8>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xbf16>
  // CHECK: tile.dequant_mx %{{.*}}, %{{.*}} : tensor<64x576xf8E4M3FN>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xf32>
  %1 = tile.dequant_mx %f8, %f8s : tensor<64x576xf8E4M3FN>, tensor<64x18xf8E8M0FNU> -> tensor<64x576xf32>
  // CHECK: tile.dequant_fp8 %{{.*}}, %s : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
  %2 = tile.dequant_fp8 %f8, %s : tensor<64x576xf8E4M3FN> -> tensor<64x576xbf16>
  // CHECK: tile.dequant_fp8 %{{.*}}, %s : tensor<8x32xf8E4M3FNUZ> -> tensor<8x32xf16>
  %3 = tile.dequant_fp8 %fnuz, %s : tensor<8x32xf8E4M3FNUZ> -> tensor<8x32xf16>
  tile.return
}

// CHECK-LABEL: tile.kernel @products
tile.kernel @products() {
  %q = arith.constant dense<1.0> : tensor<16x576xbf16>
  %kt = arith.constant dense<1.0> : tensor<576x64xbf16>
  %acc = arith.constant dense<0.0> : tensor<16x64xf32>
  %kp = arith.constant dense<0x22> : tensor<288x64xi8>
  %ks = arith.constant dense<0x7F> : tensor<64x18xf8E8M0FNU>
  %qp = arith.constant dense<0x22> : tensor<16x288xi8>
  %qs = arith.constant dense<0x7F> : tensor<16x18xf8E8M0FNU>
  %k8 = arith.constant dense<1.0> : tensor<576x64xf8E4M3FN>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x576xbf16>, tensor<576x64xbf16> -> tensor<16x64xf32>
  %0 = tile.dot %q, %kt, %acc : tensor<16x576xbf16>, tensor<576x64xbf16> -> tensor<16x64xf32>
  // CHECK: tile.dot_scaled %{{.*}}, %{{.*}} scale %{{.*}} : tensor<64x18xf8E8M0FNU>, %{{.*}} : tensor<16x576xbf16>, tensor<288x64xi8> -> tensor<16x64xf32>
  %1 = tile.dot_scaled %q, %kp scale %ks : tensor<64x18xf8E8M0FNU>, %acc
      : tensor<16x576xbf16>, tensor<288x64xi8> -> tensor<16x64xf32>
  // CHECK: tile.dot_scaled %{{.*}} scale %{{.*}} : tensor<16x18xf8E8M0FNU>, %{{.*}} scale %{{.*}} : tensor<64x18xf8E8M0FNU>, %{{.*}} : tensor<16x288xi8>, tensor<288x64xi8> -> tensor<16x64xf32>
  %2 = tile.dot_scaled %qp scale %qs : tensor<16x18xf8E8M0FNU>, %kp scale %ks : tensor<64x18xf8E8M0FNU>, %acc
      : tensor<16x288xi8>, tensor<288x64xi8> -> tensor<16x64xf32>
  // CHECK: tile.dot_scaled %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x576xbf16>, tensor<576x64xf8E4M3FN> -> tensor<16x64xf32>
  %3 = tile.dot_scaled %q, %k8, %acc : tensor<16x576xbf16>, tensor<576x64xf8E4M3FN> -> tensor<16x64xf32>
  // CHECK: tile.reduce max %{{.*}} dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  %4 = tile.reduce max %0 dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  // CHECK: tile.reduce sum %{{.*}} dim 0 : tensor<16x64xf32> -> tensor<64xf32>
  %5 = tile.reduce sum %0 dim 0 : tensor<16x64xf32> -> tensor<64xf32>
  // CHECK: tile.reduce min %{{.*}} dim 0 : tensor<16xf32> -> tensor<f32>
  %6 = tile.reduce min %4 dim 0 : tensor<16xf32> -> tensor<f32>
  // CHECK: tile.reduce maxnum %{{.*}} dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  %7 = tile.reduce maxnum %0 dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  // CHECK: tile.reduce minnum %{{.*}} dim 0 : tensor<16xf32> -> tensor<f32>
  %8 = tile.reduce minnum %7 dim 0 : tensor<16xf32> -> tensor<f32>
  tile.return
}

// CHECK-LABEL: tile.kernel @attention
tile.kernel @attention(%scale: f32) {
  %q = arith.constant dense<1.0> : tensor<16x576xbf16>
  %k = arith.constant dense<1.0> : tensor<64x576xbf16>
  %v = arith.constant dense<1.0> : tensor<64x512xbf16>
  %m = arith.constant dense<0xFF800000> : tensor<16xf32>
  %l = arith.constant dense<0.0> : tensor<16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x512xf32>
  %keys = arith.constant dense<true> : tensor<64xi1>
  %causal = arith.constant dense<true> : tensor<16x64xi1>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = tile.qk_softmax_acc %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} scale %scale : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16> -> tensor<16x512xf32>
  %0:3 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc scale %scale
      : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16> -> tensor<16x512xf32>
  // CHECK: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<64xi1> :
  %1:3 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc scale %scale mask %keys : tensor<64xi1>
      : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16> -> tensor<16x512xf32>
  // CHECK: tile.qk_softmax_acc {{.*}} mask %{{.*}} : tensor<16x64xi1> :
  %2:3 = tile.qk_softmax_acc %q, %k, %v, %m, %l, %acc scale %scale mask %causal : tensor<16x64xi1>
      : tensor<16x576xbf16>, tensor<64x576xbf16>, tensor<64x512xbf16> -> tensor<16x512xf32>

  // Without v, the values are the first 512 columns of k.
  // CHECK: tile.qk_softmax_acc %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}} scale %scale mask %{{.*}} : tensor<64xi1> : tensor<16x576xbf16>, tensor<64x576xbf16> -> tensor<16x512xf32>
  %5:3 = tile.qk_softmax_acc %q, %k, %m, %l, %acc scale %scale mask %keys : tensor<64xi1>
      : tensor<16x576xbf16>, tensor<64x576xbf16> -> tensor<16x512xf32>

  %parts = arith.constant dense<1.0> : tensor<8x16x128xf32>
  %lse = arith.constant dense<0.0> : tensor<8x16xf32>
  // CHECK: tile.split_reduce %{{.*}} lse %{{.*}} : tensor<8x16x128xf32> -> tensor<16x128xf32>
  %3 = tile.split_reduce %parts lse %lse : tensor<8x16x128xf32> -> tensor<16x128xf32>
  // CHECK: tile.split_reduce %{{.*}} max %{{.*}} sum %{{.*}} : tensor<8x16x128xf32> -> tensor<16x128xf32>
  %4 = tile.split_reduce %parts max %lse sum %lse : tensor<8x16x128xf32> -> tensor<16x128xf32>
  tile.return
}
