// Every layout prints and parses back, under its alias.
// RUN: mla-opt %s --canonicalize | mla-opt | FileCheck %s

// CHECK-DAG: #[[$BLOCKED:.*]] = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[$MMA:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [4, 1]>
// CHECK-DAG: #[[$DOT:.*]] = #tilegpu.dot_operand<opIdx = 1, parent = #[[$MMA]]>
// CHECK-DAG: #[[$SLICE:.*]] = #tilegpu.slice<dim = 1, parent = #[[$MMA]]>
// CHECK-DAG: #[[$LINEAR:.*]] = #tilegpu.linear<[lane 64 -> d0 x1, reg 2 -> *]>
// CHECK-DAG: #[[$ATOMS:.*]] = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>
// CHECK-DAG: #[[$ROWS:.*]] = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
// CHECK-DAG: #[[$WGMMA:.*]] = #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>
// CHECK-LABEL: func.func private @layouts
// CHECK-SAME: tensor<64x576xbf16, #[[$BLOCKED]]>
// CHECK-SAME: tensor<64x64xf32, #[[$MMA]]>
// CHECK-SAME: tensor<64x64xbf16, #[[$DOT]]>
// CHECK-SAME: tensor<64xf32, #[[$SLICE]]>
// CHECK-SAME: tensor<64xi8, #[[$LINEAR]]>
#mma = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [4, 1]>
func.func private @layouts(
    tensor<64x576xbf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>>,
    tensor<64x64xf32, #mma>,
    tensor<64x64xbf16, #tilegpu.dot_operand<opIdx = 1, parent = #mma>>,
    tensor<64xf32, #tilegpu.slice<dim = 1, parent = #mma>>,
    tensor<64xi8, #tilegpu.linear<[lane 64 -> d0 x1, reg 2 -> *]>>)

// Conversions to the same layout fold; chains keep only the last.
// CHECK-LABEL: func.func @fold
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %arg0 : tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #[[$BLOCKED]]>
// CHECK-NEXT: return %[[C]]
func.func @fold(%a: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>> {
  %0 = tilegpu.convert_layout %a : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %1 = tilegpu.convert_layout %0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1, 8], threadsPerWarp = [1, 8, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>>>
  %2 = tilegpu.convert_layout %1 : tensor<64x64xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 1, 8], threadsPerWarp = [1, 8, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>>> -> tensor<64x64xf32, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>>
  return %2 : tensor<64x64xf32, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>>
}

// A warpgroup product of shared buffers in the canonical layouts: a
// swizzle period per atom, the atom printed only where there is one.
// CHECK-LABEL: func.func @warpgroup_dot
// CHECK: tilegpu.warpgroup_dot %arg0, %arg1, %arg2 {rhs_transposed} : !tilegpu.memdesc<64x576xbf16, #[[$ATOMS]]>, !tilegpu.memdesc<32x576xbf16, #[[$ROWS]]> -> tensor<64x32xf32, #[[$WGMMA]]>
func.func @warpgroup_dot(
    %q: !tilegpu.memdesc<64x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>>,
    %k: !tilegpu.memdesc<32x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 0>>,
    %acc: tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>>) -> tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>> {
  %s = tilegpu.warpgroup_dot %q, %k, %acc {rhs_transposed} : !tilegpu.memdesc<64x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>>, !tilegpu.memdesc<32x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>> -> tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>>
  return %s : tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>>
}

// A product left in flight, and the waits that read its result.
// CHECK-LABEL: func.func @async_warpgroup_dot
// CHECK: %[[S:.*]] = tilegpu.warpgroup_dot %arg0, %arg1, %arg2 {async, rhs_transposed}
// CHECK: %[[T:.*]] = tilegpu.warpgroup_wait %[[S]] {pending = 1 : i64} : tensor<64x32xf32, #[[$WGMMA]]>
// CHECK: tilegpu.warpgroup_wait %[[T]] {pending = 0 : i64} : tensor<64x32xf32, #[[$WGMMA]]>
func.func @async_warpgroup_dot(
    %q: !tilegpu.memdesc<64x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>>,
    %k: !tilegpu.memdesc<32x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 0>>,
    %acc: tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>>) -> tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>> {
  %s = tilegpu.warpgroup_dot %q, %k, %acc {async, rhs_transposed} : !tilegpu.memdesc<64x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], atom = 64>>, !tilegpu.memdesc<32x576xbf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>> -> tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>>
  %t = tilegpu.warpgroup_wait %s {pending = 1} : tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>>
  %u = tilegpu.warpgroup_wait %t {pending = 0} : tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>>
  return %u : tensor<64x32xf32, #tilegpu.mma<kind = wgmma, instrShape = [64, 16, 16], warpsPerCTA = [4, 2]>>
}
