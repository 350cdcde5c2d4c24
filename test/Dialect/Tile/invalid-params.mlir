// RUN: mla-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{parameter 'P' has kind 'f32'; expected i64 or str}}
tile.kernel @kind<P: f32>() {
  tile.return
}

// -----

// expected-error @+1 {{default "x" of parameter 'P' is not an integer}}
tile.kernel @default_kind<P: i64 = "x">() {
  tile.return
}

// -----

// expected-error @+1 {{default "a-b" of parameter 'P' is not a string of letters, digits and '_'}}
tile.kernel @default_chars<P: str = "a-b">() {
  tile.return
}

// -----

// expected-error @+1 {{parameter name 'a b' is not an identifier}}
tile.kernel @name<"a b": i64>() {
  tile.return
}

// -----

// expected-error @+1 {{declares parameter 'P' twice}}
tile.kernel @twice<P: i64, P: str>() {
  tile.return
}

// -----

// expected-error @+1 {{'tile.instances' belongs on a tile.kernel with parameters}}
tile.kernel @no_params() attributes {tile.instances = {P = [1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.instances' must be a dictionary of value lists, e.g. {H = [16, 32]}}}
tile.kernel @not_dict<P: i64>() attributes {tile.instances = [1, 2]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.instances' must be a dictionary of value lists, e.g. {H = [16, 32]}, or a non-empty list of them}}
tile.kernel @empty_list<P: i64>() attributes {tile.instances = []} {
  tile.return
}

// -----

// Every product of a list is checked.
// expected-error @+1 {{'tile.instances' lists parameter 'Q', which kernel @unknown_in_list does not declare}}
tile.kernel @unknown_in_list<P: i64>() attributes {tile.instances = [{P = [1]}, {Q = [2]}]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.instances' lists parameter 'Q', which kernel @unknown does not declare}}
tile.kernel @unknown<P: i64>() attributes {tile.instances = {P = [1], Q = [2]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.instances' must give parameter 'P' a non-empty list of values}}
tile.kernel @empty<P: i64>() attributes {tile.instances = {P = []}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.instances' value "16" of parameter 'P' is not an integer}}
tile.kernel @value_kind<P: i64>() attributes {tile.instances = {P = ["16"]}} {
  tile.return
}

// -----

// expected-error @+1 {{kernel @missing: 'tile.instances' gives no values for parameter 'Q', which has no default}}
tile.kernel @missing<P: i64, Q: str, R: i64 = 4>() attributes {tile.instances = {P = [1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.params' is a tile.kernel's dictionary of parameter values}}
tile.kernel @params() attributes {tile.params = {P = 1.0}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.instance_of' is a tile.kernel's name of the kernel it is an instance of}}
tile.kernel @instance() attributes {tile.instance_of = 3} {
  tile.return
}

// -----

tile.kernel @param_undeclared<P: i64>() {
  // expected-error @+1 {{uses parameter 'Q', which kernel @param_undeclared does not declare}}
  %q = tile.param "Q" : index
  tile.return
}

// -----

tile.kernel @param_str<KV: str>() {
  // expected-error @+1 {{parameter 'KV' is a str parameter and has no value; branch on it with tile.static_switch}}
  %kv = tile.param "KV" : index
  tile.return
}

// -----

func.func @param_outside() {
  // expected-error @+1 {{uses parameter 'H' outside a tile.kernel or tile.func}}
  %h = tile.param "H" : index
  return
}

// -----

tile.kernel @param_type<H: i64>() {
  // expected-error @+1 {{result #0 must be index or 32-bit signless integer or 64-bit signless integer}}
  %h = tile.param "H" : f32
  tile.return
}

// -----

tile.kernel @dims_undeclared<H: i64>(%x: f32) {
  // expected-error @+1 {{uses parameter 'BM', which kernel @dims_undeclared does not declare}}
  %t = tile.splat %x : tensor<?xf32, #tile.dims<[BM]>>
  tile.return
}

// -----

tile.kernel @dims_str<KV: str>(%x: f32) {
  // expected-error @+1 {{names a dimension by parameter 'KV', which is a str parameter; sizes are i64 parameters}}
  %t = tile.splat %x : tensor<?xf32, #tile.dims<[KV]>>
  tile.return
}

// -----

// A kernel without parameters has none to use.
tile.kernel @dims_ordinary(%x: f32) {
  // expected-error @+1 {{uses parameter 'H', which kernel @dims_ordinary does not declare}}
  %t = tile.splat %x : tensor<?xf32, #tile.dims<[H]>>
  tile.return
}

// -----

// expected-error @+1 {{uses parameter 'KV', which kernel @switch_undeclared does not declare}}
tile.kernel @switch_undeclared<H: i64>(%p: !tile.ptr<!tile.switch<KV, {bf16 = bf16}>>) {
  tile.return
}

// -----

// expected-error @+1 {{has a !tile.switch with string cases on parameter 'H', which is an i64 parameter}}
tile.kernel @switch_strings<H: i64>(%p: !tile.ptr<!tile.switch<H, {bf16 = bf16}>>) {
  tile.return
}

// -----

// expected-error @+1 {{has a !tile.switch with integer cases on parameter 'KV', which is a str parameter}}
tile.kernel @switch_integers<KV: str>(%p: !tile.ptr<!tile.switch<KV, {16 = bf16}>>) {
  tile.return
}

// -----

// expected-error @+1 {{uses parameter 'X', which kernel @launch_undeclared does not declare}}
tile.kernel @launch_undeclared<H: i64>() attributes {tile.launch = {heads = #tile.param<"X">}} {
  tile.return
}

// -----

// expected-error @+1 {{argument #0 has type '!tile.switch<KV, {bf16 = f16}>'; kernel arguments are !tile.ptr<T>, i32, i64 or f32}}
tile.kernel @switch_arg<KV: str>(%x: !tile.switch<KV, {bf16 = f16}>) {
  tile.return
}

// -----

// expected-error @+1 {{f4E2M1FN is not byte-addressable}}
func.func private @switch_ptr(!tile.ptr<!tile.switch<KV, {bf16 = bf16, fp4 = f4E2M1FN}>>)

// -----

// expected-error @+1 {{!tile.switch case "bf16" appears twice}}
func.func private @switch_twice(!tile.switch<KV, {bf16 = bf16, bf16 = f16}>)

// -----

// expected-error @+1 {{!tile.switch cases are all strings or all integers}}
func.func private @switch_mixed(!tile.switch<KV, {bf16 = bf16, 16 = f16}>)

// -----

// expected-error @+1 {{!tile.switch needs at least one case}}
func.func private @switch_empty(!tile.switch<KV, {}>)

// -----

// expected-error @+1 {{!tile.switch cases are not switches themselves}}
func.func private @switch_nested(!tile.switch<KV, {bf16 = !tile.switch<H, {16 = f16}>}>)

// -----

// expected-error @+1 {{#tile.dims has 1 entries for a rank-2 tensor}}
func.func private @dims_rank(tensor<?x4xf32, #tile.dims<[H]>>)

// -----

// expected-error @+1 {{dimension 0 is named by parameter 'H' and must be '?'}}
func.func private @dims_static(tensor<16xf32, #tile.dims<[H]>>)

// -----

// expected-error @+1 {{dimension 1 is '?' but its #tile.dims entry is 4}}
func.func private @dims_dynamic(tensor<?x?xf32, #tile.dims<[H, 4]>>)

// -----

// expected-error @+1 {{#tile.dims names no parameter; use a static shape}}
func.func private @dims_static_only(tensor<4xf32, #tile.dims<[4]>>)

// -----

// A plain dynamic dimension is not a tile.
tile.kernel @dynamic_tile(%x: f32) {
  // expected-error @+1 {{must be statically shaped tensor}}
  %t = tile.splat %x : tensor<?xf32>
  tile.return
}

// -----

tile.kernel @switch_case_kind<KV: str>() {
  // expected-error @+1 {{case 16 does not fit parameter 'KV', which is a str parameter}}
  tile.static_switch "KV" {
  case 16 {
  }
  }
  tile.return
}

// -----

tile.kernel @switch_case_twice<KV: str>() {
  // expected-error @+1 {{case "bf16" appears twice}}
  tile.static_switch "KV" {
  case "bf16" {
  }
  case "bf16" {
  }
  }
  tile.return
}

// -----

tile.kernel @switch_no_case<KV: str>() {
  // expected-error @+1 {{needs at least one case}}
  tile.static_switch "KV" {
  }
  tile.return
}

// -----

tile.kernel @switch_undeclared_param<KV: str>() {
  // expected-error @+1 {{uses parameter 'FMT', which kernel @switch_undeclared_param does not declare}}
  tile.static_switch "FMT" {
  case "x" {
  }
  }
  tile.return
}

// -----

tile.kernel @switch_two_defaults<KV: str>() {
  tile.static_switch "KV" {
  default {
  }
  // expected-error @+1 {{tile.static_switch has one default}}
  default {
  }
  }
  tile.return
}

// -----

tile.kernel @switch_keyword<KV: str>() {
  tile.static_switch "KV" {
  // expected-error @+1 {{expected 'case' or 'default' or '}'}}
  otherwise {
  }
  }
  tile.return
}

// -----

tile.kernel @switch_yield<KV: str>(%x: f32) {
  %r = tile.static_switch "KV" -> f32 {
  case "bf16" {
    %c = arith.constant 1 : i32
    // expected-error @+1 {{yields ('i32') but the tile.static_switch has results ('f32')}}
    tile.yield %c : i32
  }
  }
  tile.return
}

// -----

// In a case, the switches on its parameter are resolved: the fp8 case
// cannot yield the bf16 type.
tile.kernel @switch_yield_case<KV: str>(%p: !tile.ptr<!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN}>>) {
  %c0 = arith.constant 0 : index
  %x = tile.load_scalar %p[%c0] : !tile.ptr<!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN}>>
  %r = tile.static_switch "KV" -> bf16 {
  case "bf16" {
    tile.yield %x : !tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN}>
  }
  case "fp8" {
    // expected-error @+1 {{yields ('!tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN}>') but the tile.static_switch has results ('bf16')}}
    tile.yield %x : !tile.switch<KV, {bf16 = bf16, fp8 = f8E4M3FN}>
  }
  }
  tile.return
}

// -----

func.func @yield_outside() {
  // expected-error @+1 {{expects parent op 'tile.static_switch'}}
  tile.yield
}

// -----

tile.func @return_types(%x: i32) -> f32 {
  // expected-error @+1 {{returns ('i32') but @return_types returns ('f32')}}
  tile.return %x : i32
}

// -----

tile.kernel @return_in_kernel(%x: i32) {
  // expected-error @+1 {{in a tile.kernel returns nothing}}
  tile.return %x : i32
}

// -----

tile.kernel @call_unknown(%x: i32) {
  // expected-error @+1 {{calls @nowhere, which is not a tile.func}}
  %r = tile.call @nowhere(%x) : (i32) -> i32
  tile.return
}

// -----

tile.func @helper(%x: i32) -> i32 {
  tile.return %x : i32
}

tile.kernel @call_types(%x: f32) {
  // expected-error @+1 {{has type '(f32) -> f32' but @helper has type '(i32) -> i32'}}
  %r = tile.call @helper(%x) : (f32) -> f32
  tile.return
}

// -----

// Checks that involve a symbolic size wait for the instance; the others
// are made at once.
tile.kernel @symbolic_checks<M: i64, N: i64>(%x: f32) {
  %h = arith.truncf %x : f32 to bf16
  %a = tile.splat %h : tensor<?x64xbf16, #tile.dims<[M, 64]>>
  %b = tile.splat %h : tensor<32x?xbf16, #tile.dims<[32, N]>>
  %c = tile.splat %x : tensor<?x?xf32, #tile.dims<[M, N]>>
  // expected-error @+1 {{contraction sizes differ: lhs is 'tensor<?x64xbf16, #tile.dims<[M, 64]>>', rhs is 'tensor<32x?xbf16, #tile.dims<[32, N]>>'; lhs dim 1 must equal rhs dim 0}}
  %d = tile.dot %a, %b, %c : tensor<?x64xbf16, #tile.dims<[M, 64]>>, tensor<32x?xbf16, #tile.dims<[32, N]>> -> tensor<?x?xf32, #tile.dims<[M, N]>>
  tile.return
}

// -----

tile.kernel @symbolic_reduce<M: i64>(%x: f32) {
  %a = tile.splat %x : tensor<?x64xf32, #tile.dims<[M, 64]>>
  // expected-error @+1 {{result must be 'tensor<?xf32, #tile.dims<[M]>>' (the input without dim 1)}}
  %r = tile.reduce sum %a dim 1 : tensor<?x64xf32, #tile.dims<[M, 64]>> -> tensor<64xf32>
  tile.return
}

// -----

// expected-error @+1 {{#tile.dims entry 'a b' is not a parameter name}}
func.func private @dims_name(tensor<?xf32, #tile.dims<["a b"]>>)

// -----

tile.kernel @switch_case_float<KV: str>() {
  // expected-error @+1 {{case 1.000000e+00 : f32 is neither a string nor an integer}}
  "tile.static_switch"() <{cases = [1.0 : f32], param = "KV"}> ({
  }, {
    "tile.yield"() : () -> ()
  }) : () -> ()
  tile.return
}

// -----

// A symbolic input names the result's kept dimensions.
tile.kernel @broadcast_names<M: i64, N: i64>(%x: f32) {
  %r = tile.splat %x : tensor<?xf32, #tile.dims<[M]>>
  // expected-error @+1 {{result must be 'tensor<?x8xf32, #tile.dims<[M, 8]>>'}}
  %b = tile.broadcast %r dims [1] : tensor<?xf32, #tile.dims<[M]>> -> tensor<?x8xf32, #tile.dims<[N, 8]>>
  tile.return
}

// -----

tile.kernel @resolve_nothing(%x: f32) {
  // expected-error @+1 {{resolves the !tile.switch types of one parameter; 'f32' has none}}
  %y = tile.resolve %x : f32 -> f32
  tile.return
}

// -----

tile.kernel @resolve_no_value<B: str>(%y: !tile.ptr<!tile.switch<B, {b = f32}>>) {
  %c0 = arith.constant 0 : index
  %w = tile.load_scalar %y[%c0] : !tile.ptr<!tile.switch<B, {b = f32}>>
  // expected-error @+1 {{'!tile.switch<B, {b = f32}>' is 'i32' for no value of parameter 'B'}}
  %r = tile.resolve %w : !tile.switch<B, {b = f32}> -> i32
  tile.return
}

// -----

// expected-error @+1 {{'tile.target_instances' must be a dictionary from target names to instance sets, e.g. {gfx942 = {H = [16]}}}}
tile.kernel @no_targets<P: i64 = 1>() attributes {tile.target_instances = {}} {
  tile.return
}

// -----

// expected-error @+2 {{'tile.instances' lists parameter 'Q', which kernel @bad_target_set does not declare}}
// expected-error @+1 {{in 'tile.target_instances' of target 'gfx942'}}
tile.kernel @bad_target_set<P: i64 = 1>() attributes {tile.target_instances = {gfx942 = {Q = [2]}}} {
  tile.return
}


// -----

// A misspelled target would never apply.
// expected-error @+1 {{'tile.target_instances' names target 'gfx95'; the targets are host, gfx950, gfx942 or sm_90}}
tile.kernel @typo_target<P: i64 = 1>() attributes {tile.target_instances = {gfx95 = {P = [2]}}} {
  tile.return
}
