// RUN: mla-opt %s -split-input-file -verify-diagnostics

tile.kernel @range_2d() {
  // expected-error @+1 {{builds a 1-D tile, got 'tensor<4x4xi32>'}}
  %r = tile.range : tensor<4x4xi32>
  tile.return
}

// -----

tile.kernel @range_float() {
  // expected-error @+1 {{must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer or index values}}
  %r = tile.range : tensor<4xf32>
  tile.return
}

// -----

tile.kernel @splat_dynamic(%x: f32) {
  // expected-error @+1 {{must be statically shaped tensor}}
  %s = tile.splat %x : tensor<?xf32>
  tile.return
}

// -----

tile.kernel @broadcast_rank(%x: f32) {
  %s = tile.splat %x : tensor<16xf32>
  // expected-error @+1 {{input rank 1 plus 2 new dims must equal result rank 2}}
  %b = tile.broadcast %s dims [0, 1] : tensor<16xf32> -> tensor<16x4xf32>
  tile.return
}

// -----

tile.kernel @broadcast_size(%x: f32) {
  %s = tile.splat %x : tensor<16xf32>
  // expected-error @+1 {{input dim 0 (size 16) maps to result dim 0 (size 8); sizes must agree}}
  %b = tile.broadcast %s dims [1] : tensor<16xf32> -> tensor<8x16xf32>
  tile.return
}

// -----

tile.kernel @broadcast_order(%x: f32) {
  %s = tile.splat %x : tensor<16xf32>
  // expected-error @+1 {{new dims must be listed in increasing order}}
  %b = tile.broadcast %s dims [2, 0] : tensor<16xf32> -> tensor<4x16x4xf32>
  tile.return
}

// -----

tile.kernel @broadcast_out_of_range(%x: f32) {
  %s = tile.splat %x : tensor<16xf32>
  // expected-error @+1 {{new dim 3 is outside the result's 2 dimensions}}
  %b = tile.broadcast %s dims [3] : tensor<16xf32> -> tensor<16x4xf32>
  tile.return
}

// -----

tile.kernel @broadcast_elem(%x: f32) {
  %s = tile.splat %x : tensor<16xf32>
  // expected-error @+1 {{result element type 'bf16' differs from the input's 'f32'}}
  %b = tile.broadcast %s dims [1] : tensor<16xf32> -> tensor<16x4xbf16>
  tile.return
}

// -----

tile.kernel @trans_3d(%x: f32) {
  %s = tile.splat %x : tensor<2x3x4xf32>
  // expected-error @+1 {{transposes 2-D tiles, got 'tensor<2x3x4xf32>'}}
  %t = tile.trans %s : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  tile.return
}

// -----

tile.kernel @trans_shape(%x: f32) {
  %s = tile.splat %x : tensor<2x3xf32>
  // expected-error @+1 {{result must be 'tensor<3x2xf32>'}}
  %t = tile.trans %s : tensor<2x3xf32> -> tensor<2x3xf32>
  tile.return
}

// -----

tile.kernel @f64_tile(%x: f32) {
  %c = arith.constant 1.0 : f64
  // expected-error @+1 {{must be statically shaped tensor of}}
  %s = tile.splat %c : tensor<4xf64>
  tile.return
}

// -----

// Result types follow the operand's encoding (here one that has no opinion
// on broadcasts, so it is kept).
tile.kernel @broadcast_encoding(%x: f32) {
  %s = tile.splat %x : tensor<16xf32, "L">
  // expected-error @+1 {{result must be 'tensor<16x4xf32, "L">': its encoding follows the input's}}
  %b = tile.broadcast %s dims [1] : tensor<16xf32, "L"> -> tensor<16x4xf32>
  tile.return
}

// -----

tile.kernel @trans_encoding(%x: f32) {
  %s = tile.splat %x : tensor<2x3xf32>
  // expected-error @+1 {{result must be 'tensor<3x2xf32>'}}
  %t = tile.trans %s : tensor<2x3xf32> -> tensor<3x2xf32, "L">
  tile.return
}
