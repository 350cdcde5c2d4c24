// Every layout prints and parses back, under its alias.
// RUN: mla-opt %s --canonicalize | mla-opt | FileCheck %s

// CHECK-DAG: #[[$BLOCKED:.*]] = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[$MMA:.*]] = #tilegpu.mma<kind = mfma, instrShape = [16, 16, 32], warpsPerCTA = [4, 1]>
// CHECK-DAG: #[[$DOT:.*]] = #tilegpu.dot_operand<opIdx = 1, parent = #[[$MMA]]>
// CHECK-DAG: #[[$SLICE:.*]] = #tilegpu.slice<dim = 1, parent = #[[$MMA]]>
// CHECK-DAG: #[[$LINEAR:.*]] = #tilegpu.linear<[lane 64 -> d0 x1, reg 2 -> *]>
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
