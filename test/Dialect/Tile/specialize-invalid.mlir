// Errors found while specializing name the instance.
// RUN: mla-opt %s -tile-specialize -split-input-file -verify-diagnostics

// An instance whose shapes do not agree once its values are in.
tile.kernel @product<BLOCK_N: i64 = 64>(%y: f32)
    attributes {tile.instances = {BLOCK_N = [64, 32]}} {
  %x = arith.truncf %y : f32 to bf16
  %zero = arith.constant 0.0 : f32
  %a = tile.splat %x : tensor<16x64xbf16>
  %b = tile.splat %x : tensor<64x?xbf16, #tile.dims<[64, BLOCK_N]>>
  %c = tile.splat %zero : tensor<16x64xf32>
  // expected-error @+1 {{in instance @product_block_n32 (BLOCK_N = 32): 'tile.dot' op accumulator must be 'tensor<16x32xf32>', got 'tensor<16x64xf32>'}}
  %d = tile.dot %a, %b, %c : tensor<16x64xbf16>, tensor<64x?xbf16, #tile.dims<[64, BLOCK_N]>> -> tensor<16x64xf32>
  tile.return
}

// -----

// The bf16 instance has no scale argument, so nothing outside the fp8 case
// may use it.
tile.kernel @absent<KV: str>(%kv_scale: !tile.ptr<!tile.switch<KV, {fp8 = f32}>>)
    attributes {tile.instances = {KV = ["bf16", "fp8"]}} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{in instance @absent_bf16 (KV = "bf16"): 'tile.load_scalar' op uses argument 'kv_scale', which this instance does not have: its type '!tile.ptr<!tile.switch<KV, {fp8 = f32}>>' has no case for it}}
  %s = tile.load_scalar %kv_scale[%c0] : !tile.ptr<!tile.switch<KV, {fp8 = f32}>>
  tile.return
}

// -----

tile.kernel @no_case<KV: str>() attributes {tile.instances = {KV = ["bf16", "mxfp4"]}} {
  // expected-error @+1 {{in instance @no_case_mxfp4 (KV = "mxfp4"): 'tile.static_switch' op has no case for KV = "mxfp4" and no default}}
  tile.static_switch "KV" {
  case "bf16" {
  }
  }
  tile.return
}

// -----

// A value inside the kernel cannot be absent.
tile.kernel @absent_value<KV: str>(%x: f32) attributes {tile.instances = {KV = ["fp8", "bf16"]}} {
  // expected-error @+1 {{in instance @absent_value_bf16 (KV = "bf16"): 'builtin.unrealized_conversion_cast' op has a value of type '!tile.switch<KV, {fp8 = f32}>', which has no case in this instance}}
  %v = builtin.unrealized_conversion_cast %x : f32 to !tile.switch<KV, {fp8 = f32}>
  tile.return
}

// -----

// Outside its case, a resolve fails in the other instances.
tile.kernel @resolve_elsewhere<KV: str>(%x: !tile.switch<KV, {a = f32, b = i32}>)
    attributes {tile.instances = {KV = ["a", "b"]}} {
  // expected-error @+1 {{in instance @resolve_elsewhere_b (KV = "b"): 'tile.resolve' op resolves a value of type 'i32' here, not 'f32'}}
  %v = tile.resolve %x : !tile.switch<KV, {a = f32, b = i32}> -> f32
  tile.return
}

// -----

tile.func @uses_z() -> index {
  // expected-error @+1 {{in instance @helper_param (H = 16): 'tile.param' op uses parameter 'Z', which the kernel does not declare}}
  %z = tile.param "Z" : index
  tile.return %z : index
}

tile.kernel @helper_param<H: i64 = 16>() {
  %z = tile.call @uses_z() : () -> index
  tile.return
}

// -----

tile.func @uses_h() -> index {
  // expected-error @+1 {{in kernel @ordinary: 'tile.param' op uses parameter 'H', which kernel @ordinary does not declare}}
  %h = tile.param "H" : index
  tile.return %h : index
}

tile.kernel @ordinary() {
  %h = tile.call @uses_h() : () -> index
  tile.return
}

// -----

tile.func @str_value() -> index {
  // expected-error @+1 {{in instance @helper_str_a (KV = "a"): 'tile.param' op parameter 'KV' is a str parameter and has no value}}
  %kv = tile.param "KV" : index
  tile.return %kv : index
}

tile.kernel @helper_str<KV: str>() attributes {tile.instances = {KV = ["a"]}} {
  %v = tile.call @str_value() : () -> index
  tile.return
}

// -----

tile.kernel @too_wide<N: i64>() attributes {tile.instances = {N = [4294967296]}} {
  // expected-error @+1 {{in instance @too_wide_n4294967296 (N = 4294967296): 'tile.param' op value 4294967296 of parameter 'N' does not fit in i32}}
  %n = tile.param "N" : i32
  tile.return
}

// -----

tile.func @ping(%x: i32) -> i32 {
  %y = tile.call @pong(%x) : (i32) -> i32
  tile.return %y : i32
}

tile.func @pong(%x: i32) -> i32 {
  // expected-error @+1 {{'tile.call' op makes @ping recursive; helpers are inlined and may not call themselves}}
  %y = tile.call @ping(%x) : (i32) -> i32
  tile.return %y : i32
}

// -----

// expected-error @+1 {{'tile.kernel' op has no value for parameter 'H', which has no default; list it in tile.instances}}
tile.kernel @unlisted<H: i64>() {
  tile.return
}

// -----

tile.kernel @clash_a2() {
  tile.return
}

// expected-error @+1 {{instance @clash_a2 (A = 2) has the name of another symbol}}
tile.kernel @clash<A: i64 = 1>() attributes {tile.instances = {A = [1, 2]}} {
  tile.return
}

// -----

// Types that depend on parameters mean nothing outside a parameterized
// kernel.
// expected-error @+1 {{'func.func' op refers to parameter 'H' outside a parameterized tile.kernel}}
func.func @outside(%x: tensor<?xf32, #tile.dims<[H]>>) {
  return
}
