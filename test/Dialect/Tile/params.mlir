// Compile-time parameters, symbolic tile types, parameter-dependent types,
// static switches and helpers print as they parse, also through the
// generic form.
// RUN: mla-opt %s | FileCheck %s
// RUN: mla-opt %s | mla-opt | FileCheck %s
// RUN: mla-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mla-opt %s --mlir-print-op-generic | mla-opt | FileCheck %s

!kv = !tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, mxfp4 = i8}>
!scale = !tile.switch<KV, {fp8 = f32, mxfp4 = f8E8M0FNU}>
!q_tile = tensor<?x64xbf16, #tile.dims<[BLOCK_M, 64]>>
!acc_tile = tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>
!row = tensor<?xf32, #tile.dims<[BLOCK_M]>>

// CHECK-LABEL: tile.func @normalize
// CHECK-SAME: (%{{.*}}: tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>, %{{.*}}: tensor<?xf32, #tile.dims<[BLOCK_M]>>) -> tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>
// CHECK: tile.broadcast %{{.*}} dims [1] : tensor<?xf32, #tile.dims<[BLOCK_M]>> -> tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>
// CHECK: tile.return %{{.*}} : tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>
// GENERIC: "tile.func"() <{function_type = (tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>, tensor<?xf32, #tile.dims<[BLOCK_M]>>) -> tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>, sym_name = "normalize"}>
tile.func @normalize(%acc: !acc_tile, %l: !row) -> !acc_tile {
  %lb = tile.broadcast %l dims [1] : !row -> !acc_tile
  %o = arith.divf %acc, %lb : !acc_tile
  tile.return %o : !acc_tile
}

// CHECK-LABEL: tile.kernel @attend<KV: str, H: i64, BLOCK_M: i64 = 16, MODE: str = "exact">
// CHECK-SAME: (%q: !tile.ptr<bf16>, %kv: !tile.ptr<!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, mxfp4 = i8}>>, %kv_scale: !tile.ptr<!tile.switch<KV, {fp8 = f32, mxfp4 = f8E8M0FNU}>>, %stride: !tile.switch<KV, {mxfp4 = i32}>, %sm_scale: f32)
// CHECK-SAME: attributes {tile.instances = {H = [16, 32], KV = ["bf16", "fp8", "mxfp4"]}, tile.launch = {grid = ["work_items", #tile.param<"H">, 1], heads = #tile.param<"H">, kv_dtype = #tile.param<"KV">, role = "test.attend"}}
// GENERIC: params = [#tile.param_decl<"KV", str>, #tile.param_decl<"H", i64>, #tile.param_decl<"BLOCK_M", i64 = 16 : i64>, #tile.param_decl<"MODE", str = "exact">]
tile.kernel @attend<KV: str, H: i64, BLOCK_M: i64 = 16, MODE: str = "exact">(
    %q: !tile.ptr<bf16>, %kv: !tile.ptr<!kv>, %kv_scale: !tile.ptr<!scale>,
    %stride: !tile.switch<KV, {mxfp4 = i32}>, %sm_scale: f32)
    attributes {tile.instances = {KV = ["bf16", "fp8", "mxfp4"], H = [16, 32]},
                tile.launch = {role = "test.attend", kv_dtype = #tile.param<"KV">,
                               heads = #tile.param<"H">,
                               grid = ["work_items", #tile.param<"H">, 1]}} {
  %c0 = arith.constant 0 : index
  // CHECK: tile.param "BLOCK_M" : index
  // CHECK: tile.param "H" : i32
  // CHECK: tile.param "H" : i64
  %bm = tile.param "BLOCK_M" : index
  %h32 = tile.param "H" : i32
  %h64 = tile.param "H" : i64
  %qv = tile.view %q sizes [%bm, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  // CHECK: tile.load %{{.*}} : !tile.view<?x64xbf16> -> tensor<?x64xbf16, #tile.dims<[BLOCK_M, 64]>>
  %qt = tile.load %qv[%c0, %c0] : !tile.view<?x64xbf16> -> !q_tile
  // CHECK: tile.view %kv sizes [32, 64] strides [64, 1] : !tile.ptr<!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, mxfp4 = i8}>> -> !tile.view<32x64x!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, mxfp4 = i8}>>
  %kvv = tile.view %kv sizes [32, 64] strides [64, 1] : !tile.ptr<!kv> -> !tile.view<32x64x!kv>
  %raw = tile.load %kvv[%c0, %c0] : !tile.view<32x64x!kv> -> tensor<32x64x!kv>
  // The yielded raw tile has the result's type in the bf16 case.
  // CHECK: %[[K:.*]] = tile.static_switch "KV" -> tensor<32x64xbf16> {
  // CHECK-NEXT: case "bf16" {
  // CHECK-NEXT: tile.yield %{{.*}} : tensor<32x64x!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, mxfp4 = i8}>>
  // CHECK-NEXT: }
  // CHECK-NEXT: case "fp8" {
  // CHECK-NEXT: %[[S:.*]] = tile.load_scalar %kv_scale[%{{.*}}] : !tile.ptr<!tile.switch<KV, {fp8 = f32, mxfp4 = f8E8M0FNU}>>
  // CHECK-NEXT: %[[D:.*]] = tile.dequant_fp8 %{{.*}}, %[[S]] : tensor<32x64x!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN, mxfp4 = i8}>>, !tile.switch<KV, {fp8 = f32, mxfp4 = f8E8M0FNU}> -> tensor<32x64xbf16>
  // CHECK-NEXT: tile.yield %[[D]] : tensor<32x64xbf16>
  // CHECK-NEXT: }
  // CHECK-NEXT: default {
  // CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<32x64xbf16>
  // CHECK-NEXT: tile.yield %[[Z]] : tensor<32x64xbf16>
  // CHECK-NEXT: }
  // CHECK-NEXT: }
  // GENERIC: "tile.static_switch"() <{cases = ["bf16", "fp8"], param = "KV"}>
  %k = tile.static_switch "KV" -> tensor<32x64xbf16> {
  case "bf16" {
    tile.yield %raw : tensor<32x64x!kv>
  }
  case "fp8" {
    %s = tile.load_scalar %kv_scale[%c0] : !tile.ptr<!scale>
    %d = tile.dequant_fp8 %raw, %s : tensor<32x64x!kv>, !scale -> tensor<32x64xbf16>
    tile.yield %d : tensor<32x64xbf16>
  }
  default {
    %z = arith.constant dense<0.0> : tensor<32x64xbf16>
    tile.yield %z : tensor<32x64xbf16>
  }
  }
  // Integer cases; no results, no terminators printed.
  // CHECK: tile.static_switch "H" {
  // CHECK-NEXT: case 16 {
  // CHECK-NEXT: tile.param "BLOCK_M" : index
  // CHECK-NEXT: }
  // CHECK-NEXT: case 32 {
  // CHECK-NEXT: }
  // CHECK-NEXT: }
  tile.static_switch "H" {
  case 16 {
    %unused = tile.param "BLOCK_M" : index
  }
  case 32 {
  }
  }
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  // CHECK: tile.splat %{{.*}} : tensor<?xf32, #tile.dims<[BLOCK_M]>>
  %m0 = tile.splat %neg_inf : !row
  %acc0 = tile.splat %zero : !acc_tile
  // The row state is derived from the symbolic accumulator.
  // CHECK: tile.qk_softmax_acc %{{.*}} scale %sm_scale : tensor<?x64xbf16, #tile.dims<[BLOCK_M, 64]>>, tensor<32x64xbf16> -> tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>
  %m, %l, %acc = tile.qk_softmax_acc %qt, %k, %m0, %m0, %acc0 scale %sm_scale
      : !q_tile, tensor<32x64xbf16> -> !acc_tile
  // CHECK: tile.reduce max %{{.*}} dim 1 : tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>> -> tensor<?xf32, #tile.dims<[BLOCK_M]>>
  %mx = tile.reduce max %acc dim 1 : !acc_tile -> !row
  // CHECK: tile.trans %{{.*}} : tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>> -> tensor<32x?xf32, #tile.dims<[32, BLOCK_M]>>
  %t = tile.trans %acc : !acc_tile -> tensor<32x?xf32, #tile.dims<[32, BLOCK_M]>>
  // A symbolic product: K is static and agrees, M and N wait for the
  // instance.
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x64xbf16, #tile.dims<[BLOCK_M, 64]>>, tensor<64x?xbf16, #tile.dims<[64, H]>> -> tensor<?x?xf32, #tile.dims<[BLOCK_M, H]>>
  %one = arith.constant 1.0 : bf16
  %rhs = tile.splat %one : tensor<64x?xbf16, #tile.dims<[64, H]>>
  %prod0 = tile.splat %zero : tensor<?x?xf32, #tile.dims<[BLOCK_M, H]>>
  %prod = tile.dot %qt, %rhs, %prod0 : !q_tile, tensor<64x?xbf16, #tile.dims<[64, H]>>
      -> tensor<?x?xf32, #tile.dims<[BLOCK_M, H]>>
  // A new symbolic dimension waits for the instance.
  // CHECK: tile.broadcast %{{.*}} dims [1] : tensor<?xf32, #tile.dims<[BLOCK_M]>> -> tensor<?x?xf32, #tile.dims<[BLOCK_M, H]>>
  %wide = tile.broadcast %l dims [1] : !row -> tensor<?x?xf32, #tile.dims<[BLOCK_M, H]>>
  // CHECK: tile.resolve %stride : !tile.switch<KV, {mxfp4 = i32}> -> i32
  %stride_i = tile.resolve %stride : !tile.switch<KV, {mxfp4 = i32}> -> i32
  // CHECK: tile.call @normalize(%{{.*}}, %{{.*}}) : (tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>, tensor<?xf32, #tile.dims<[BLOCK_M]>>) -> tensor<?x32xf32, #tile.dims<[BLOCK_M, 32]>>
  %o = tile.call @normalize(%acc, %l) : (!acc_tile, !row) -> !acc_tile
  tile.return
}

// Integer keys, and string keys quoted only where they are not identifiers;
// a scalar argument whose type depends on a
// parameter.
// CHECK-LABEL: tile.kernel @keys<N: i64, FMT: str>
// CHECK-SAME: (%x: !tile.switch<N, {16 = i32, -1 = i64}>, %p: !tile.ptr<!tile.switch<FMT, {e4m3 = f8E4M3FN, "4bit" = i8}>>)
tile.kernel @keys<N: i64, FMT: str>(%x: !tile.switch<N, {16 = i32, -1 = i64}>,
                                   %p: !tile.ptr<!tile.switch<FMT, {"e4m3" = f8E4M3FN, "4bit" = i8}>>) {
  tile.return
}
