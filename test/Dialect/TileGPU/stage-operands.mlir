// RUN: mla-opt %examples/mla_decode.mlir \
// RUN:   -tile-specialize='instances=mla_partial:KV=fp8:BLOCK_M=16:BLOCK_N=32' \
// RUN:   -tile-to-primitives --tilegpu-assign-layouts=chip=sm_90 --tilegpu-stage-operands \
// RUN:   -canonicalize | FileCheck %s --check-prefix=FP8
// RUN: mla-opt %examples/mla_decode.mlir \
// RUN:   -tile-specialize='instances=mla_partial:KV=mxfp4:BLOCK_M=16:BLOCK_N=32' \
// RUN:   -tile-to-primitives --tilegpu-assign-layouts=chip=sm_90 --tilegpu-stage-operands \
// RUN:   -canonicalize | FileCheck %s --check-prefix=MX
// RUN: mla-opt %examples/mla_decode.mlir \
// RUN:   -tile-specialize='instances=mla_partial:KV=fp8:BLOCK_M=64:BLOCK_N=32:WAVES=8' \
// RUN:   -tile-to-primitives --tilegpu-assign-layouts=chip=sm_90 --tilegpu-stage-operands \
// RUN:   -canonicalize | FileCheck %s --check-prefix=WIDE

// A KV tile of fp8 bytes is decoded once per tile by all of the program's
// lanes, not by each warp for each operand it reads: the bytes are staged
// in LDS, read back part by part (each lane one 16-byte run of a 32x64
// part), decoded, and stored into one bf16 buffer between two barriers;
// K (all 576 columns, transposed) and V (the first 512) are then read from
// that buffer. No decoding follows the second barrier.
// The scores' product splits K over the 4 warps (a 16x32 result): Q stays
// in registers, each warp holding its quarter of the 576 columns.
// FP8: #[[$SPLITK:mma[0-9]*]] = #tilegpu.mma<kind = mma_sync, instrShape = [16, 8, 16], warpsPerCTA = [1, 1, 4]>
// FP8: #[[$QOP:dot_op[0-9]*]] = #tilegpu.dot_operand<opIdx = 0, parent = #[[$SPLITK]]>
// FP8-LABEL: tile.kernel @mla_partial_fp8_block_m16_block_n32(
// FP8: %[[QREGS:.*]] = tile.load %{{.*}} : !tile.view<?x576xbf16> -> tensor<16x576xbf16, #[[$QOP]]>
// FP8-NOT: tilegpu.local_alloc %[[QREGS]]
// FP8: scf.for
// FP8: %[[RAW:.*]] = tilegpu.local_alloc %{{.*}} : tensor<32x576xf8E4M3FN, #{{.*}}> -> !tilegpu.memdesc<32x576xf8E4M3FN
// FP8: %[[ARRAY:.*]] = tilegpu.local_buffer : !tilegpu.memdesc<1x32x576xbf16
// FP8: %[[BF16:.*]] = tilegpu.memdesc_index %[[ARRAY]]
// FP8-NEXT: tilegpu.barrier
// FP8-COUNT-9: tilegpu.local_store %{{.*}}, %{{.*}} : tensor<32x64xbf16, #{{.*}}> -> !tilegpu.memdesc<32x64xbf16
// FP8-NEXT: tilegpu.barrier
// FP8-NOT: tile.dequant_fp8
// FP8: tilegpu.local_load %[[BF16]]
// FP8: tile.dot %[[QREGS]], %{{.*}} : tensor<16x576xbf16, #[[$QOP]]>, tensor<576x32xbf16, #{{.*}}> -> tensor<16x32xf32, #[[$SPLITK]]>
// FP8-NOT: tile.dequant_fp8
// Every warp then holds all 32 keys' probabilities, which the output
// product reads from the same registers: no exchange.
// FP8: %[[P:.*]] = arith.truncf %{{.*}} : tensor<16x32xf32, #[[$SPLITK]]> to tensor<16x32xbf16, #[[$SPLITK]]>
// FP8-NOT: tilegpu.local_alloc %[[P]]
// FP8: %[[PREAD:.*]] = tilegpu.convert_layout %[[P]] : tensor<16x32xbf16, #[[$SPLITK]]> -> tensor<16x32xbf16, #dot_op
// FP8-COUNT-16: tile.dot %[[PREAD]],
// FP8: scf.yield

// With more lanes the parts widen, as far as one 16-byte run per lane
// goes: 256 threads take 32x128 parts, and 576 columns end in a 32x64 one
// rather than every part being 64 wide with half the lanes decoding copies.
// WIDE-LABEL: tile.kernel @mla_partial_fp8_block_n32_waves8(
// WIDE: tilegpu.barrier
// WIDE-COUNT-4: tilegpu.local_store %{{.*}}, %{{.*}} : tensor<32x128xbf16, #{{.*}}> -> !tilegpu.memdesc<32x128xbf16
// WIDE: tile.dequant_fp8 %{{.*}} : tensor<32x64xf8E4M3FN, #{{.*}}> -> tensor<32x64xbf16
// WIDE-NEXT: tilegpu.memdesc_slice %{{.*}}[0, 512]
// WIDE-NEXT: tilegpu.local_store %{{.*}}, %{{.*}} : tensor<32x64xbf16, #{{.*}}> -> !tilegpu.memdesc<32x64xbf16
// WIDE-NEXT: tilegpu.barrier

// An MX tile likewise, each part's packed bytes and its E8M0 scales read
// back from their two buffers in the lanes that decode them: 288 bytes a
// row in four 64-byte parts and one of 32 (whole 32-value scale blocks).
// MX-LABEL: tile.kernel @mla_partial_mxfp4_block_m16_block_n32(
// MX: %[[BYTES:.*]] = tilegpu.local_alloc %{{.*}} : tensor<32x288xi8, #{{.*}}> -> !tilegpu.memdesc<32x288xi8
// MX: %[[SCALES:.*]] = tilegpu.local_alloc %{{.*}} : tensor<32x18xf8E8M0FNU, #{{.*}}> -> !tilegpu.memdesc<32x18xf8E8M0FNU
// MX: tilegpu.barrier
// MX: %[[B0:.*]] = tilegpu.memdesc_slice %[[BYTES]][0, 0]
// MX: %[[S0:.*]] = tilegpu.memdesc_slice %[[SCALES]][0, 0]
// MX: tile.dequant_mx %{{.*}}, %{{.*}} : tensor<32x64xi8, #{{.*}}>, tensor<32x4xf8E8M0FNU, #{{.*}}> -> tensor<32x128xbf16, #{{.*}}>
// MX: tilegpu.local_store
// MX-COUNT-3: tile.dequant_mx {{.*}} -> tensor<32x128xbf16
// MX: tilegpu.memdesc_slice %[[SCALES]][0, 16]
// MX: tile.dequant_mx %{{.*}}, %{{.*}} : tensor<32x32xi8, #{{.*}}>, tensor<32x2xf8E8M0FNU, #{{.*}}> -> tensor<32x64xbf16, #{{.*}}>
// MX: tilegpu.local_store
// MX-NEXT: tilegpu.barrier
// MX-NOT: tile.dequant_mx
// MX: tile.dot
