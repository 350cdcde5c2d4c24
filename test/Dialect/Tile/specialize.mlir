// RUN: mla-opt %s -tile-specialize -split-input-file | FileCheck %s

// One kernel per instance, in declaration order of the values (KV major),
// naming the kernel it is an instance of; helpers inlined and gone; the
// generic kernel gone.
// CHECK-NOT: tile.func
// CHECK-LABEL: tile.kernel @attend_bf16_h16_block_n32(
// CHECK-SAME: %q: !tile.ptr<bf16>, %kv: !tile.ptr<bf16>, %sm_scale: f32)
// CHECK-SAME: attributes {tile.instance_of = "attend", tile.launch = {grid = ["work_items", 16, 1], heads = 16 : i64, kv_dtype = "bf16", kv_tile = 32 : i64, role = "test.attend"},
// CHECK-SAME: tile.params = {BLOCK_N = 32 : i64, H = 16 : i64, KV = "bf16"}}
// CHECK: %[[H:.*]] = arith.constant 16 : index
// CHECK: %[[N:.*]] = arith.constant 32 : index
// CHECK: tile.view %q sizes [%[[H]], 64] strides [64, 1]
// CHECK: tile.load %{{.*}} : !tile.view<?x64xbf16> -> tensor<16x64xbf16>
// CHECK: %[[K:.*]] = tile.load %{{.*}} : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
// CHECK-NOT: tile.static_switch
// CHECK-NOT: tile.dequant_fp8
// CHECK: tile.qk_softmax_acc %{{.*}}, %[[K]], {{.*}} : tensor<16x64xbf16>, tensor<32x64xbf16> -> tensor<16x64xf32>
// The helper's body, inlined.
// CHECK: tile.broadcast %{{.*}} dims [1] : tensor<16xf32> -> tensor<16x64xf32>
// CHECK: arith.divf %{{.*}} : tensor<16x64xf32>
// CHECK-NOT: tile.call
// CHECK: tile.return
//
// CHECK-LABEL: tile.kernel @attend_bf16_h32_block_n32(
// CHECK-SAME: tile.params = {BLOCK_N = 32 : i64, H = 32 : i64, KV = "bf16"}
// CHECK: tile.qk_softmax_acc {{.*}} : tensor<32x64xbf16>, tensor<32x64xbf16> -> tensor<32x64xf32>
//
// The fp8 instances have the scale argument and the fp8 case.
// CHECK-LABEL: tile.kernel @attend_fp8_h16_block_n32(
// CHECK-SAME: %q: !tile.ptr<bf16>, %kv: !tile.ptr<f8E4M3FN>, %kv_scale: !tile.ptr<f32>, %sm_scale: f32)
// CHECK-SAME: kv_dtype = "fp8"
// CHECK: %[[RAW:.*]] = tile.load %{{.*}} : !tile.view<?x64xf8E4M3FN> -> tensor<32x64xf8E4M3FN>
// CHECK: %[[S:.*]] = tile.load_scalar %kv_scale[%{{.*}}] : !tile.ptr<f32>
// CHECK: %[[D:.*]] = tile.dequant_fp8 %[[RAW]], %[[S]] : tensor<32x64xf8E4M3FN> -> tensor<32x64xbf16>
// CHECK: tile.qk_softmax_acc %{{.*}}, %[[D]],
// CHECK-LABEL: tile.kernel @attend_fp8_h32_block_n32(
// CHECK-NOT: tile.kernel @attend(
// CHECK-NOT: tile.kernel @attend<
!kv = !tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN}>
!acc = tensor<?x64xf32, #tile.dims<[H, 64]>>
!row = tensor<?xf32, #tile.dims<[H]>>

tile.func @normalize(%acc: !acc, %l: !row) -> !acc {
  %lb = tile.broadcast %l dims [1] : !row -> !acc
  %o = arith.divf %acc, %lb : !acc
  tile.return %o : !acc
}

tile.kernel @attend<KV: str, H: i64, BLOCK_N: i64 = 64>(
    %q: !tile.ptr<bf16>, %kv: !tile.ptr<!kv>,
    %kv_scale: !tile.ptr<!tile.switch<KV, {fp8 = f32}>>, %sm_scale: f32)
    attributes {tile.instances = {KV = ["bf16", "fp8"], H = [16, 32], BLOCK_N = [32]},
                tile.launch = {role = "test.attend", kv_dtype = #tile.param<"KV">,
                               heads = #tile.param<"H">, kv_tile = #tile.param<"BLOCK_N">,
                               grid = ["work_items", #tile.param<"H">, 1]}} {
  %c0 = arith.constant 0 : index
  %h = tile.param "H" : index
  %n = tile.param "BLOCK_N" : index
  %qv = tile.view %q sizes [%h, 64] strides [64, 1] : !tile.ptr<bf16> -> !tile.view<?x64xbf16>
  %qt = tile.load %qv[%c0, %c0] : !tile.view<?x64xbf16> -> tensor<?x64xbf16, #tile.dims<[H, 64]>>
  %kvv = tile.view %kv sizes [%n, 64] strides [64, 1] : !tile.ptr<!kv> -> !tile.view<?x64x!kv>
  %raw = tile.load %kvv[%c0, %c0] : !tile.view<?x64x!kv> -> tensor<?x64x!kv, #tile.dims<[BLOCK_N, 64]>>
  %k = tile.static_switch "KV" -> tensor<?x64xbf16, #tile.dims<[BLOCK_N, 64]>> {
  case "bf16" {
    tile.yield %raw : tensor<?x64x!kv, #tile.dims<[BLOCK_N, 64]>>
  }
  case "fp8" {
    %s = tile.load_scalar %kv_scale[%c0] : !tile.ptr<!tile.switch<KV, {fp8 = f32}>>
    %d = tile.dequant_fp8 %raw, %s : tensor<?x64x!kv, #tile.dims<[BLOCK_N, 64]>>,
        !tile.switch<KV, {fp8 = f32}> -> tensor<?x64xbf16, #tile.dims<[BLOCK_N, 64]>>
    tile.yield %d : tensor<?x64xbf16, #tile.dims<[BLOCK_N, 64]>>
  }
  }
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %neg_inf : !row
  %acc0 = tile.splat %zero : !acc
  %m, %l, %acc = tile.qk_softmax_acc %qt, %k, %m0, %m0, %acc0 scale %sm_scale
      : tensor<?x64xbf16, #tile.dims<[H, 64]>>, tensor<?x64xbf16, #tile.dims<[BLOCK_N, 64]>> -> !acc
  %o = tile.call @normalize(%acc, %l) : (!acc, !row) -> !acc
  tile.return
}

// -----

// Names: a value equal to the default adds nothing; i64 values add the
// lowercase name, str values themselves; a minus sign is 'm'.
// CHECK-LABEL: tile.kernel @named(
// CHECK-SAME: tile.params = {A = 1 : i64, B = "x"}
// CHECK-LABEL: tile.kernel @named_y(
// CHECK-LABEL: tile.kernel @named_a2(
// CHECK-LABEL: tile.kernel @named_a2_y(
// CHECK-LABEL: tile.kernel @named_am3(
// CHECK-SAME: tile.params = {A = -3 : i64, B = "x"}
// CHECK-LABEL: tile.kernel @named_am3_y(
tile.kernel @named<A: i64 = 1, B: str = "x">()
    attributes {tile.instances = {A = [1, 2, -3], B = ["x", "y"]}} {
  tile.return
}

// -----

// Without tile.instances, the defaults make one instance with the
// kernel's name.
// CHECK-LABEL: tile.kernel @defaults()
// CHECK-SAME: attributes {tile.instance_of = "defaults", tile.params = {BLOCK = 64 : i64}}
// CHECK: arith.constant 64 : i32
tile.kernel @defaults<BLOCK: i64 = 64>() {
  %b = tile.param "BLOCK" : i32
  tile.return
}

// -----

// Static switches nest and may sit in helpers; an integer case; the
// default region when no case matches.
// CHECK-LABEL: tile.kernel @nested_bm16(
// CHECK: %[[A:.*]] = arith.constant 1 : i32
// CHECK-NEXT: tile.return
// CHECK-LABEL: tile.kernel @nested_bm32(
// CHECK: %[[B:.*]] = arith.constant 3 : i32
// CHECK-NEXT: tile.return
// CHECK-LABEL: tile.kernel @nested_bm32_hi(
// CHECK: %[[C:.*]] = arith.constant 2 : i32
// CHECK-NEXT: tile.return
tile.func @pick() -> i32 {
  %r = tile.static_switch "BM" -> i32 {
  case 16 {
    %one = arith.constant 1 : i32
    tile.yield %one : i32
  }
  default {
    %v = tile.static_switch "MODE" -> i32 {
    case "hi" {
      %two = arith.constant 2 : i32
      tile.yield %two : i32
    }
    default {
      %three = arith.constant 3 : i32
      tile.yield %three : i32
    }
    }
    tile.yield %v : i32
  }
  }
  tile.return %r : i32
}

tile.kernel @nested<BM: i64, MODE: str = "lo">()
    attributes {tile.instances = {BM = [16, 32], MODE = ["lo", "hi"]}} {
  %r = tile.call @pick() : () -> i32
  tile.return
}

// -----

// An ordinary kernel may call helpers too; they are inlined and erased.
// CHECK-NOT: tile.func
// CHECK-LABEL: tile.kernel @ordinary(%x: f32)
// CHECK-NEXT: %[[S:.*]] = arith.mulf %x, %x : f32
// CHECK-NEXT: arith.mulf %[[S]], %[[S]] : f32
// CHECK-NEXT: tile.return
tile.func @square(%x: f32) -> f32 {
  %s = arith.mulf %x, %x : f32
  tile.return %s : f32
}

tile.func @fourth(%x: f32) -> f32 {
  %s = tile.call @square(%x) : (f32) -> f32
  %f = tile.call @square(%s) : (f32) -> f32
  tile.return %f : f32
}

tile.kernel @ordinary(%x: f32) {
  %f = tile.call @fourth(%x) : (f32) -> f32
  tile.return
}

// -----

// A scalar argument whose type has no case is absent; the names of the
// arguments left follow.
// CHECK-LABEL: tile.kernel @scalars_a(%x: f32, %z: i32)
// CHECK-LABEL: tile.kernel @scalars_b(%x: f32, %y: i64, %z: i32)
tile.kernel @scalars<V: str>(%x: f32, %y: !tile.switch<V, {b = i64}>, %z: i32)
    attributes {tile.instances = {V = ["a", "b"]}} {
  tile.return
}

// -----

// tile.resolve is its input once the switch is resolved.
// CHECK-LABEL: tile.kernel @strided_mxfp4(%stride: i32)
// CHECK-NEXT: %[[S:.*]] = arith.index_cast %stride : i32 to index
// CHECK-LABEL: tile.kernel @strided_bf16()
// CHECK-NEXT: tile.return
tile.kernel @strided<KV: str>(%stride: !tile.switch<KV, {mxfp4 = i32}>)
    attributes {tile.instances = {KV = ["mxfp4", "bf16"]}} {
  tile.static_switch "KV" {
  case "mxfp4" {
    %s = tile.resolve %stride : !tile.switch<KV, {mxfp4 = i32}> -> i32
    %i = arith.index_cast %s : i32 to index
  }
  default {
  }
  }
  tile.return
}
