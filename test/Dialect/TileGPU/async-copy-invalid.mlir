// RUN: mla-opt %s -split-input-file -verify-diagnostics

#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @f() {
  // expected-error @below {{needs a leading dimension counting the buffers}}
  %b = tilegpu.local_buffer : !tilegpu.memdesc<64xbf16, #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>>
  return
}

// -----

func.func @f() {
  // expected-error @below {{buffers must be the slowest dimension of the layout}}
  %b = tilegpu.local_buffer : !tilegpu.memdesc<2x64x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0, 2]>>
  return
}

// -----

#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
func.func @f(%i: index) {
  %b = tilegpu.local_buffer : !tilegpu.memdesc<2x64x576xbf16, #shared3>
  // expected-error @below {{must be one buffer of}}
  %one = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<2x64x576xbf16, #shared3> -> !tilegpu.memdesc<32x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
  return
}

// -----

#shared3 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]>
func.func @f(%i: index) {
  %b = tilegpu.local_buffer : !tilegpu.memdesc<2x64x576xbf16, #shared3>
  // expected-error @below {{result layout must be the buffers' layout without their leading dimension}}
  %one = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<2x64x576xbf16, #shared3> -> !tilegpu.memdesc<64x576xbf16, #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>>
  return
}

// -----

#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @f(%v: !tile.view<?x576xf32>, %b: !tilegpu.memdesc<64x576xbf16, #shared>, %i: index) {
  // expected-error @below {{must hold a tile of}}
  tilegpu.async_copy %v[%i, %i], %b : !tile.view<?x576xf32> -> !tilegpu.memdesc<64x576xbf16, #shared>
  return
}

// -----

#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @f(%v: !tile.view<?x576xbf16>, %b: !tilegpu.memdesc<64x576xbf16, #shared>, %i: index) {
  // expected-error @below {{needs 2 indices}}
  tilegpu.async_copy %v[%i], %b : !tile.view<?x576xbf16> -> !tilegpu.memdesc<64x576xbf16, #shared>
  return
}

// -----

func.func @f() {
  // expected-error @below {{attribute 'pending' failed to satisfy constraint}}
  tilegpu.async_wait {pending = -1}
  return
}

// -----

#shared = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @f(%t: tensor<64x32xbf16, #blocked>, %b: !tilegpu.memdesc<64x64xbf16, #shared>) {
  // expected-error @below {{buffer '!tilegpu.memdesc<64x64xbf16, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>' must hold the tile 'tensor<64x32xbf16,}}
  tilegpu.local_store %t, %b : tensor<64x32xbf16, #blocked> -> !tilegpu.memdesc<64x64xbf16, #shared>
  return
}
