// RUN: mla-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{argument #0 has type 'index'; kernel arguments are !tile.ptr<T>, i32, i64 or f32}}
tile.kernel @index_arg(%i: index) {
  tile.return
}

// -----

// expected-error @+1 {{argument #1 has type 'tensor<4xf32>'}}
tile.kernel @tensor_arg(%p: !tile.ptr<f32>, %t: tensor<4xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{a tile kernel returns nothing; write results through !tile.ptr arguments}}
tile.kernel @results(%a: i32) -> i32 {
  tile.return
}

// -----

// expected-error @+1 {{argument name 'a' is used twice; launchers bind by name}}
"tile.kernel"() <{sym_name = "dup", function_type = (i32, i32) -> (),
                  arg_names = ["a", "a"]}> ({
^bb0(%x: i32, %y: i32):
  "tile.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{has 1 argument names for 2 arguments}}
"tile.kernel"() <{sym_name = "short", function_type = (i32, i32) -> (),
                  arg_names = ["a"]}> ({
^bb0(%x: i32, %y: i32):
  "tile.return"() : () -> ()
}) : () -> ()

// -----

func.func @outside() {
  // expected-error @+1 {{expects parent op to be one of 'tile.kernel, tile.func'}}
  tile.return
}

// -----

// expected-error @+1 {{returns nothing; write results through !tile.ptr arguments}}
"tile.kernel"() <{sym_name = "generic_results", function_type = () -> i32}> ({
^bb0:
  "tile.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{type of entry block argument #0('f32') must match the type of the corresponding argument in function signature('i32')}}
"tile.kernel"() <{sym_name = "block_types", function_type = (i32) -> ()}> ({
^bb0(%x: f32):
  "tile.return"() : () -> ()
}) : () -> ()
