// RUN: mla-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.launch' grid must list exactly 3 dimensions (x, y, z)}}
tile.kernel @two_dims(%n: i32) attributes {tile.launch = {grid = ["n", 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: sizes must be at least 1, got 0}}
tile.kernel @zero() attributes {tile.launch = {grid = [0, 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: an entry is an integer or an expression such as "cdiv(rows, 16)"}}
tile.kernel @float_dim() attributes {tile.launch = {grid = [1.0, 1, 1]}} {
  tile.return
}

// -----

// A bare name the kernel does not know is a problem quantity, which only
// kernels with a role (an application's launcher) may use.
// expected-error @+1 {{'tile.launch' grid: in 'rws': 'rws' is neither an integer scalar argument nor an integer parameter of @typo}}
tile.kernel @typo(%rows: i32) attributes {tile.launch = {grid = ["rws", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 'cdiv(rws, 16)': 'rws' is neither}}
tile.kernel @typo_in_role(%rows: i32)
    attributes {tile.launch = {role = "app", grid = ["cdiv(rws, 16)", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 'cdiv(x, 16)': argument 'x' is a !tile.ptr<f32>, not an integer scalar}}
tile.kernel @pointer(%x: !tile.ptr<f32>)
    attributes {tile.launch = {grid = ["cdiv(x, 16)", 1, 1]}} {
  tile.return
}

// -----

// A requirement reads a pointer argument as its address only to say it is
// aligned: 'P % C == 0', C a power of two up to 64.
// expected-error @+1 {{'tile.launch' requires: in 'x < 16': a pointer argument ('x') may only be required to be aligned, as 'P % C == 0' with C a power of two up to 64}}
tile.kernel @pointer_compared(%x: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1], requires = ["x < 16"]}} {
  tile.return
}

// -----

// expected-error @+1 {{in 'x % 48 == 0': a pointer argument ('x') may only be required to be aligned}}
tile.kernel @pointer_not_power_of_two(%x: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1], requires = ["x % 48 == 0"]}} {
  tile.return
}

// -----

// expected-error @+1 {{in 'x % 128 == 0': a pointer argument ('x') may only be required to be aligned}}
tile.kernel @pointer_too_aligned(%x: !tile.ptr<f32>)
    attributes {tile.launch = {grid = [1, 1, 1], requires = ["x % 128 == 0"]}} {
  tile.return
}

// -----

// expected-error @+1 {{in 'x % (n * 16) == 0': a pointer argument ('x') may only be required to be aligned}}
tile.kernel @pointer_by_argument(%x: !tile.ptr<f32>, %n: i32)
    attributes {tile.launch = {grid = [1, 1, 1], requires = ["x % (n * 16) == 0"]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 's + 1': argument 's' is a f32, not an integer scalar}}
tile.kernel @float_arg(%s: f32) attributes {tile.launch = {grid = ["s + 1", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 'cdiv(n, KV)': parameter 'KV' is a string}}
tile.kernel @string_param<KV: str>(%n: i32)
    attributes {tile.instances = {KV = ["bf16"]},
                tile.launch = {grid = ["cdiv(n, KV)", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 'cdiv(n 16)': expected ',' or ')' in cdiv(...)}}
tile.kernel @syntax(%n: i32) attributes {tile.launch = {grid = ["cdiv(n 16)", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 'n +': expected a value at the end}}
tile.kernel @dangling(%n: i32) attributes {tile.launch = {grid = ["n +", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 'pow(n, 2)': unknown function 'pow' (there are cdiv, min and max)}}
tile.kernel @function(%n: i32) attributes {tile.launch = {grid = ["pow(n, 2)", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 'cdiv(n)': cdiv() takes 2 operands, got 1}}
tile.kernel @arity(%n: i32) attributes {tile.launch = {grid = ["cdiv(n)", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in 'n <= 4': unexpected '<= 4'}}
tile.kernel @condition_as_size(%n: i32) attributes {tile.launch = {grid = ["n <= 4", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' grid: in '99999999999999999999': '99999999999999999999' is not an integer that fits 64 bits}}
tile.kernel @huge(%n: i32) attributes {tile.launch = {grid = ["99999999999999999999", 1, 1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' requires: in 'cols': a requirement compares two values (<=, <, >=, >, ==, !=)}}
tile.kernel @not_a_condition(%cols: i32)
    attributes {tile.launch = {requires = ["cols"]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' requires: in 'cols <= 256 <= 512': unexpected '<= 512'}}
tile.kernel @chained(%cols: i32)
    attributes {tile.launch = {requires = ["cols <= 256 <= 512"]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' requires: '256 < 4 * 32' never holds}}
tile.kernel @never(%cols: i32)
    attributes {tile.launch = {requires = ["cols <= 256", "256 < 4 * 32"]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' requires lists conditions, e.g. ["cols <= 256"]}}
tile.kernel @not_a_list(%cols: i32)
    attributes {tile.launch = {requires = "cols <= 256"}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' requires: each condition is a string}}
tile.kernel @not_a_string(%cols: i32) attributes {tile.launch = {requires = [1]}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' free_grid is true or false, next to a grid}}
tile.kernel @free_without_grid() attributes {tile.launch = {free_grid = true}} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' must be a dictionary}}
tile.kernel @not_dict() attributes {tile.launch = 4} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.launch' belongs on a tile.kernel}}
func.func @on_func() attributes {tile.launch = {grid = [1, 1, 1]}} {
  return
}

// -----

// expected-error @+1 {{unknown tile dialect attribute 'tile.lunch'}}
tile.kernel @typo_attr() attributes {tile.lunch = {grid = [1, 1, 1]}} {
  tile.return
}
