// RUN: mla-opt %s --tilegpu-assign-layouts -split-input-file -verify-diagnostics
// RUN: not mla-opt %s --tilegpu-assign-layouts=chip=gfx1100 -split-input-file 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown chip 'gfx1100'

// expected-error @below {{launch key 'waves' must be a power of two from 1 to 16}}
tile.kernel @bad_waves(%x: !tile.ptr<f32>) attributes {tile.launch = {grid = [1, 1, 1], waves = 3 : i64}} {
  tile.return
}

// -----

// The stage count decides whether a loop's operands are staged (copied a
// step ahead), so layout assignment reads and checks it too.
// expected-error @below {{launch key 'stages' must be 1 to 8}}
tile.kernel @bad_stages(%x: !tile.ptr<f32>) attributes {tile.launch = {grid = [1, 1, 1], stages = 0 : i64}} {
  tile.return
}

// -----

// A product whose K is not a multiple of the matrix instruction's is
// refused with the operand shapes, the instruction and the rule, where
// the lowering used to crash without a lane map for the operands.
tile.kernel @dot_k8(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %av = tile.view %a sizes [16, 8] strides [8, 1] : !tile.ptr<bf16> -> !tile.view<16x8xbf16>
  %bv = tile.view %b sizes [8, 16] strides [16, 1] : !tile.ptr<bf16> -> !tile.view<8x16xbf16>
  %cv = tile.view %c sizes [16, 16] strides [16, 1] : !tile.ptr<f32> -> !tile.view<16x16xf32>
  %x = tile.load %av[%c0, %c0] : !tile.view<16x8xbf16> -> tensor<16x8xbf16>
  %y = tile.load %bv[%c0, %c0] : !tile.view<8x16xbf16> -> tensor<8x16xbf16>
  %z = arith.constant 0.0 : f32
  %acc = tile.splat %z : tensor<16x16xf32>
  // expected-error @below {{cannot take 16x8 by 8x16 operands on gfx950's 16x16x32 matrix instruction (a 16x8 tile is not made of 16x32 instruction tiles); M, N and K must be multiples of the instruction's}}
  %d = tile.dot %x, %y, %acc : tensor<16x8xbf16>, tensor<8x16xbf16> -> tensor<16x16xf32>
  tile.store %d, %cv[%c0, %c0] : tensor<16x16xf32>, !tile.view<16x16xf32>
  tile.return
}
