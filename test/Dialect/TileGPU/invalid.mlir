// RUN: mla-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{blocked layout lists need one entry per dimension}}
func.func private @f(tensor<4x4xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 0]>>)

// -----

// expected-error @below {{blocked layout order must be a permutation}}
func.func private @f(tensor<4x4xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 1]>>)

// -----

// expected-error @below {{blocked layout has 16 threads per warp; a warp has 32 or 64}}
func.func private @f(tensor<4x4xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 1], order = [1, 0]>>)

// -----

// expected-error @below {{no mfma instruction of 16x16x8}}
func.func private @f(tensor<16x16xf32, #tilegpu.mma<kind = mfma, instrShape = [16, 16, 8], warpsPerCTA = [1, 1]>>)

// -----

// expected-error @below {{cannot hold a tile of shape 24x16: a 24x16 tile is not made of 16x16 instruction tiles}}
func.func private @f(tensor<24x16xf32, #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [1, 1]>>)


// -----

// expected-error @below {{a tile with a layout has a static shape}}
func.func private @f(tensor<?x16xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 0]>>)

// -----

// expected-error @below {{dot operand index must be 0 (A) or 1 (B)}}
func.func private @f(tensor<16x16xbf16, #tilegpu.dot_operand<opIdx = 2, parent = <kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [1, 1]>>>)

// -----

// expected-error @below {{slice parent must be a distributed layout}}
func.func private @f(tensor<16xf32, #tilegpu.slice<dim = 1, parent = "x">>)

// -----

// The linear map leaves half the tile without a home.
// expected-error @below {{cannot hold a tile of shape 4x4: not every element has a home}}
func.func private @f(tensor<4x4xf32, #tilegpu.linear<[lane 4 -> d0 x1, lane 16 -> *, reg 2 -> d1 x1]>>)

// -----

// expected-error @below {{shared layout order must be a permutation}}
func.func private @f() attributes {layout = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 0]>}

// -----

// expected-error @below {{a shared layout's atom holds one swizzle period (vec * maxPhase) of a tile of rank 2 or more}}
func.func private @f() attributes {layout = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 32>}

// -----

// expected-error @below {{no wgmma instruction of 64x12x16}}
func.func private @f() attributes {layout = #tilegpu.mma<kind = wgmma, instrShape = [64, 12, 16], warpsPerCTA = [4, 1]>}

// -----

// expected-error @below {{wgmma layouts split rows over whole warpgroups (a multiple of 4 row warps)}}
func.func private @f() attributes {layout = #tilegpu.mma<kind = wgmma, instrShape = [64, 64, 16], warpsPerCTA = [2, 2]>}

// -----

#mma = #tilegpu.mma<kind = wgmma, instrShape = [64, 32, 16], warpsPerCTA = [4, 1]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>
func.func @f(%a: !tilegpu.memdesc<64x64xbf16, #shared>, %b: !tilegpu.memdesc<64x64xbf16, #shared>, %c: tensor<64x32xf32, #mma>) {
  // expected-error @below {{shapes do not make a product}}
  %0 = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xbf16, #shared>, !tilegpu.memdesc<64x64xbf16, #shared> -> tensor<64x32xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<kind = mma_sync, instrShape = [16, 8, 16], warpsPerCTA = [4, 1]>
#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>
func.func @f(%a: !tilegpu.memdesc<64x64xbf16, #shared>, %b: !tilegpu.memdesc<64x64xbf16, #shared>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @below {{accumulates in a wgmma layout}}
  %0 = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xbf16, #shared>, !tilegpu.memdesc<64x64xbf16, #shared> -> tensor<64x64xf32, #mma>
  return
}

// -----

// expected-error @below {{wgmma layouts do not split K over warps}}
func.func private @f() attributes {layout = #tilegpu.mma<kind = wgmma, instrShape = [64, 64, 16], warpsPerCTA = [4, 1, 2]>}

// -----

// expected-error @below {{mma layouts take instrShape = [m, n, k] and warpsPerCTA = [rows, columns] or [rows, columns, K groups]}}
func.func private @f() attributes {layout = #tilegpu.mma<kind = mma_sync, instrShape = [16, 8, 16], warpsPerCTA = [1, 1, 2, 2]>}

// -----

// Four K groups of 16 need a K of 64: a replica would be summed twice.
// expected-error @below {{the K groups do not divide K}}
func.func private @f(tensor<16x32xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<kind = mma_sync, instrShape = [16, 8, 16], warpsPerCTA = [1, 1, 4]>>>)
