// The lane maps of the layouts, digit by digit. The matrix-core maps are the
// hardware's lane layouts (shared/AMD.md for MFMA, the PTX ISA's mma.m16n8k16
// fragments for mma_sync): e.g. "reg 8 -> d1 x1, lane 16 -> d0 x1,
// lane 4 -> d1 x8" is A[i][k] in lane i + 16 * (k / 8), element k % 8.
//
// RUN: mla-opt %s --tilegpu-print-lane-maps -split-input-file -verify-diagnostics

#mma = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [1, 1]>
func.func @mfma_16x16x32(%a: tensor<16x32xbf16>, %b: tensor<32x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-remark @below {{result 0: reg 8 -> d1 x1, lane 16 -> d0 x1, lane 4 -> d1 x8}}
  %0 = tilegpu.convert_layout %a : tensor<16x32xbf16> -> tensor<16x32xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #mma>>
  // expected-remark @below {{result 0: reg 8 -> d0 x1, lane 16 -> d1 x1, lane 4 -> d0 x8}}
  %1 = tilegpu.convert_layout %b : tensor<32x16xbf16> -> tensor<32x16xbf16, #tilegpu.dot_operand<opIdx = 1, parent = #mma>>
  // D[i][j]: lane j + 16 * (i / 4), register i % 4.
  // expected-remark @below {{result 0: reg 4 -> d0 x1, lane 16 -> d1 x1, lane 4 -> d0 x4}}
  %2 = tilegpu.convert_layout %c : tensor<16x16xf32> -> tensor<16x16xf32, #mma>
  return
}

// -----

// gfx942's bf16 MFMA: four K values per lane.
#mma = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 16], warpsPerCTA = [1, 1]>
func.func @mfma_16x16x16(%a: tensor<16x16xbf16>) {
  // expected-remark @below {{result 0: reg 4 -> d1 x1, lane 16 -> d0 x1, lane 4 -> d1 x4}}
  %0 = tilegpu.convert_layout %a : tensor<16x16xbf16> -> tensor<16x16xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #mma>>
  return
}

// -----

// 32x32x16: A lane i + 32 * (k / 8), element k % 8; D lane j + 32 * ((i / 4) % 2),
// register 4 * (i / 8) + i % 4.
#mma = #tilegpu.mma<kind = mfma, instrShape = [32, 32, 16], warpsPerCTA = [1, 1]>
func.func @mfma_32x32x16(%a: tensor<32x16xbf16>, %c: tensor<32x32xf32>) {
  // expected-remark @below {{result 0: reg 8 -> d1 x1, lane 32 -> d0 x1, lane 2 -> d1 x8}}
  %0 = tilegpu.convert_layout %a : tensor<32x16xbf16> -> tensor<32x16xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #mma>>
  // expected-remark @below {{result 0: reg 4 -> d0 x1, lane 32 -> d1 x1, lane 2 -> d0 x4, reg 4 -> d0 x8}}
  %1 = tilegpu.convert_layout %c : tensor<32x32xf32> -> tensor<32x32xf32, #mma>
  return
}

// -----

// mma.sync m16n8k16: c0..c3 at row lane / 4 + 8 * (i / 2), column
// 2 * (lane % 4) + i % 2; a0..a7 add 8 to the column for i >= 4.
#mma = #tilegpu.mma<kind = mma_sync, instrShape = [16, 8, 16], warpsPerCTA = [1, 1]>
func.func @mma_sync(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-remark @below {{result 0: reg 2 -> d1 x1, lane 4 -> d1 x2, lane 8 -> d0 x1, reg 2 -> d0 x8, reg 2 -> d1 x8}}
  %0 = tilegpu.convert_layout %a : tensor<16x16xbf16> -> tensor<16x16xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #mma>>
  // expected-remark @below {{result 0: reg 2 -> d0 x1, lane 4 -> d0 x2, lane 8 -> d1 x1, reg 2 -> d0 x8}}
  %1 = tilegpu.convert_layout %b : tensor<16x8xbf16> -> tensor<16x8xbf16, #tilegpu.dot_operand<opIdx = 1, parent = #mma>>
  // expected-remark @below {{result 0: reg 2 -> d1 x1, lane 4 -> d1 x2, lane 8 -> d0 x1, reg 2 -> d0 x8}}
  %2 = tilegpu.convert_layout %c : tensor<16x8xf32> -> tensor<16x8xf32, #mma>
  return
}

// -----

// Warps split rows, then the tile repeats: columns first, then rows.
#mma = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [2, 2]>
func.func @warps_and_repeats(%c: tensor<64x64xf32>, %a: tensor<64x64xbf16>) {
  // expected-remark @below {{result 0: reg 4 -> d0 x1, lane 16 -> d1 x1, lane 4 -> d0 x4, warp 2 -> d1 x16, warp 2 -> d0 x16, reg 2 -> d1 x32, reg 2 -> d0 x32}}
  %0 = tilegpu.convert_layout %c : tensor<64x64xf32> -> tensor<64x64xf32, #mma>
  // The warps splitting columns hold replicas of A; K steps come before row
  // repeats.
  // expected-remark @below {{result 0: reg 8 -> d1 x1, lane 16 -> d0 x1, lane 4 -> d1 x8, warp 2 -> *, warp 2 -> d0 x16, reg 2 -> d1 x32, reg 2 -> d0 x32}}
  %1 = tilegpu.convert_layout %a : tensor<64x64xbf16> -> tensor<64x64xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #mma>>
  return
}

// -----

// Blocked: 8 bf16 (16 bytes) per lane along the contiguous columns; a tile
// smaller than the pattern holds replicas.
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @blocked(%a: tensor<64x576xbf16>, %b: tensor<16x64xbf16>) {
  // expected-remark @below {{result 0: reg 8 -> d1 x1, lane 8 -> d1 x8, lane 8 -> d0 x1, warp 4 -> d0 x8, reg 9 -> d1 x64, reg 2 -> d0 x32}}
  %0 = tilegpu.convert_layout %a : tensor<64x576xbf16> -> tensor<64x576xbf16, #blocked>
  // expected-remark @below {{result 0: reg 8 -> d1 x1, lane 8 -> d1 x8, lane 8 -> d0 x1, warp 2 -> d0 x8, warp 2 -> *}}
  %1 = tilegpu.convert_layout %b : tensor<16x64xbf16> -> tensor<16x64xbf16, #blocked>
  return
}

// -----

// A slice keeps the lanes of its parent; the reduced dimension's lanes hold
// replicas.
#blocked = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @slice(%a: tensor<16xf32>) {
  // expected-remark @below {{result 0: lane 64 -> *, warp 4 -> d0 x1, reg 4 -> d0 x4}}
  %0 = tilegpu.convert_layout %a : tensor<16xf32> -> tensor<16xf32, #tilegpu.slice<dim = 1, parent = #blocked>>
  return
}

// -----

func.func @linear(%a: tensor<64x18xi8>) {
  // expected-remark @below {{result 0: lane 2 -> d1 x1, lane 32 -> d0 x1, warp 2 -> d0 x32, warp 2 -> *, reg 9 -> d1 x2}}
  %0 = tilegpu.convert_layout %a : tensor<64x18xi8> -> tensor<64x18xi8, #tilegpu.linear<[lane 2 -> d1 x1, lane 32 -> d0 x1, warp 2 -> d0 x32, warp 2 -> *, reg 9 -> d1 x2]>>
  return
}

// -----

// wgmma m64nNk16: per 8 columns (register i / 4) the 16x8 block of
// mma.sync's accumulator, warp w % 4 of a warpgroup at rows 16 * (w % 4);
// then the warpgroups (here two, splitting the columns), then repeats.
#mma = #tilegpu.mma<kind = wgmma, instrShape = [64, 256, 16], warpsPerCTA = [4, 2]>
#mma1 = #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>
func.func @wgmma(%o: tensor<64x512xf32>, %s: tensor<128x32xf32>) {
  // expected-remark @below {{result 0: reg 2 -> d1 x1, lane 4 -> d1 x2, lane 8 -> d0 x1, reg 2 -> d0 x8, reg 32 -> d1 x8, warp 4 -> d0 x16, warp 2 -> d1 x256}}
  %0 = tilegpu.convert_layout %o : tensor<64x512xf32> -> tensor<64x512xf32, #mma>
  // expected-remark @below {{result 0: reg 2 -> d1 x1, lane 4 -> d1 x2, lane 8 -> d0 x1, reg 2 -> d0 x8, reg 2 -> d1 x8, warp 4 -> d0 x16, warp 2 -> d1 x16, reg 2 -> d0 x64}}
  %1 = tilegpu.convert_layout %s : tensor<128x32xf32> -> tensor<128x32xf32, #mma1>
  return
}

// -----

// Warps that split K: K group g holds K steps g, g + 4, ... of both
// operands, and each group the whole result (a replica per group).
#mma = #tilegpu.mma<kind = mma_sync, instrShape = [16, 8, 16], warpsPerCTA = [1, 1, 4]>
func.func @mma_sync_split_k(%a: tensor<16x128xbf16>, %b: tensor<128x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-remark @below {{result 0: reg 2 -> d1 x1, lane 4 -> d1 x2, lane 8 -> d0 x1, reg 2 -> d0 x8, reg 2 -> d1 x8, warp 4 -> d1 x16, reg 2 -> d1 x64}}
  %0 = tilegpu.convert_layout %a : tensor<16x128xbf16> -> tensor<16x128xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #mma>>
  // expected-remark @below {{result 0: reg 2 -> d0 x1, lane 4 -> d0 x2, lane 8 -> d1 x1, reg 2 -> d0 x8, warp 4 -> d0 x16, reg 2 -> d0 x64, reg 2 -> d1 x8}}
  %1 = tilegpu.convert_layout %b : tensor<128x16xbf16> -> tensor<128x16xbf16, #tilegpu.dot_operand<opIdx = 1, parent = #mma>>
  // expected-remark @below {{result 0: reg 2 -> d1 x1, lane 4 -> d1 x2, lane 8 -> d0 x1, reg 2 -> d0 x8, reg 2 -> d1 x8, warp 4 -> *}}
  %2 = tilegpu.convert_layout %c : tensor<16x16xf32> -> tensor<16x16xf32, #mma>
  return
}

// -----

// Where lanes or warps do not divide what is left of a dimension, the
// largest part of them that does moves it and the rest hold copies; the
// rest of the dimension goes to register repeats, of any count. 24
// elements in vectors of 4: 2 of 64 lanes, 3 repeats. 48x80 bf16: 16 of 32
// lanes over the 48 rows, the 4 warps copies, 5 and 3 repeats. 576
// columns in vectors of 8 (72 of them): 8 of 16 lanes.
#b1 = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]>
#b2 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [32, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#b3 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @odd_shapes(%a: tensor<24xf32>, %b: tensor<48x80xbf16>, %c: tensor<64x576xbf16>) {
  // expected-remark @below {{result 0: reg 4 -> d0 x1, lane 2 -> d0 x4, lane 32 -> *, warp 4 -> *, reg 3 -> d0 x8}}
  %0 = tilegpu.convert_layout %a : tensor<24xf32> -> tensor<24xf32, #b1>
  // expected-remark @below {{result 0: reg 8 -> d1 x1, lane 2 -> d1 x8, lane 16 -> d0 x1, lane 2 -> *, warp 4 -> *, reg 5 -> d1 x16, reg 3 -> d0 x16}}
  %1 = tilegpu.convert_layout %b : tensor<48x80xbf16> -> tensor<48x80xbf16, #b2>
  // expected-remark @below {{result 0: reg 8 -> d1 x1, lane 8 -> d1 x8, lane 2 -> *, lane 4 -> d0 x1, warp 4 -> d0 x4, reg 9 -> d1 x64, reg 4 -> d0 x16}}
  %2 = tilegpu.convert_layout %c : tensor<64x576xbf16> -> tensor<64x576xbf16, #b3>
  return
}
