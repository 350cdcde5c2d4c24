; The remaining emulated intrinsics against values worked out by hand from
; the ISA's definitions: wave compares (a ballot of the comparison),
; mov.dpp, the static LDS size and wave size, v_perm_b32 (bytes of
; {src0, src1} with src0 the high word), v_bfe, v_mul_legacy (0 times
; anything is 0), v_med3, frexp, v_cvt_pkrtz (round toward zero) and the
; f16 transcendentals. Each lane stores one line of 20 values.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 %s -o /dev/null
; RUN: mla-emu-compile %s --chip=gfx942 -o %t.so --arg-type=out=i32
; RUN: mla-run --target emu --module %t.so --kernel misc --grid 1 \
; RUN:   --arg out=empty:1280 --save out=%t.out.npy > /dev/null
; RUN: %amdref print %t.out.npy --per-line 20 | FileCheck %s

; icmp ult lane, 32: lanes 0-31; fcmp olt lane, 10.0: lanes 0-9; row_shr:1
; with bound_ctrl: lane - 1 within a row, 0 at a row's start; 256 bytes of
; LDS; 64 lanes; perm of {0x81020304, 0x05060708} by 0x0C000B07: byte 7,
; the sign of byte 7 replicated, byte 0, zero: 0x0008FF81; bfe 15 and -16; legacy 0 * inf = 0;
; med3 3.0; frexp(12.0) = 0.75 * 2^4; pkrtz(1.0, 65535.0) = 0x7BFF3C00;
; f16 exp2(3) = 8, rcp(4) = 0.25, sqrt(16) = 4, rsq(4) = 0.5, log2(8) = 3.
; CHECK:      {{^}}-1 0 1023 0 0 256 64 589697 15 -16 0 1077936128 1061158912 4 2080324608 18432 13312 17408 14336 16896{{$}}
; CHECK-NEXT: {{^}}-1 0 1023 0 0 256 64 589697 15 -16 0 1077936128 1061158912 4 2080324608 18432 13312 17408 14336 16896{{$}}
; CHECK-NEXT: {{^}}-1 0 1023 0 1 256 64 589697 15 -16 0 1077936128 1061158912 4 2080324608 18432 13312 17408 14336 16896{{$}}
; CHECK-COUNT-13: {{^}}-1 0 1023 0 {{[0-9]+}} 256 64 {{.*}}{{$}}
; CHECK-NEXT: {{^}}-1 0 1023 0 0 256 64 {{.*}}{{$}}

target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [64 x i32] poison, align 4

define amdgpu_kernel void @misc(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %lane
  store i32 %lane, ptr addrspace(3) %slot, align 4
  %icmp = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %lane, i32 32, i32 36)
  %lanef = uitofp i32 %lane to float
  %fcmp = call i64 @llvm.amdgcn.fcmp.i64.f32(float %lanef, float 10.0, i32 4)
  %dpp = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %lane, i32 273, i32 15, i32 15, i1 true)
  %static = call i32 @llvm.amdgcn.groupstaticsize()
  %wave = call i32 @llvm.amdgcn.wavefrontsize()
  %perm = call i32 @llvm.amdgcn.perm(i32 -2130574588, i32 84281096, i32 201329415)
  %ubfe = call i32 @llvm.amdgcn.ubfe.i32(i32 -252645136, i32 4, i32 8)
  %sbfe = call i32 @llvm.amdgcn.sbfe.i32(i32 -252645136, i32 0, i32 8)
  %legacy = call float @llvm.amdgcn.fmul.legacy(float 0.0, float 0x7FF0000000000000)
  %med3 = call float @llvm.amdgcn.fmed3.f32(float 1.0, float 5.0, float 3.0)
  %mant = call float @llvm.amdgcn.frexp.mant.f32(float 12.0)
  %exp = call i32 @llvm.amdgcn.frexp.exp.i32.f32(float 12.0)
  %pkrtz = call <2 x half> @llvm.amdgcn.cvt.pkrtz(float 1.0, float 65535.0)
  %exp2 = call half @llvm.amdgcn.exp2.f16(half 3.0)
  %rcp = call half @llvm.amdgcn.rcp.f16(half 4.0)
  %sqrt = call half @llvm.amdgcn.sqrt.f16(half 16.0)
  %rsq = call half @llvm.amdgcn.rsq.f16(half 4.0)
  %log = call half @llvm.amdgcn.log.f16(half 8.0)
  %icmp.lo = trunc i64 %icmp to i32
  %icmp.shift = lshr i64 %icmp, 32
  %icmp.hi = trunc i64 %icmp.shift to i32
  %fcmp.lo = trunc i64 %fcmp to i32
  %fcmp.shift = lshr i64 %fcmp, 32
  %fcmp.hi = trunc i64 %fcmp.shift to i32
  %legacy.bits = bitcast float %legacy to i32
  %med3.bits = bitcast float %med3 to i32
  %mant.bits = bitcast float %mant to i32
  %pkrtz.bits = bitcast <2 x half> %pkrtz to i32
  %exp2.bits = bitcast half %exp2 to i16
  %exp2.wide = zext i16 %exp2.bits to i32
  %rcp.bits = bitcast half %rcp to i16
  %rcp.wide = zext i16 %rcp.bits to i32
  %sqrt.bits = bitcast half %sqrt to i16
  %sqrt.wide = zext i16 %sqrt.bits to i32
  %rsq.bits = bitcast half %rsq to i16
  %rsq.wide = zext i16 %rsq.bits to i32
  %log.bits = bitcast half %log to i16
  %log.wide = zext i16 %log.bits to i32
  %r0 = insertelement <20 x i32> poison, i32 %icmp.lo, i32 0
  %r1 = insertelement <20 x i32> %r0, i32 %icmp.hi, i32 1
  %r2 = insertelement <20 x i32> %r1, i32 %fcmp.lo, i32 2
  %r3 = insertelement <20 x i32> %r2, i32 %fcmp.hi, i32 3
  %r4 = insertelement <20 x i32> %r3, i32 %dpp, i32 4
  %r5 = insertelement <20 x i32> %r4, i32 %static, i32 5
  %r6 = insertelement <20 x i32> %r5, i32 %wave, i32 6
  %r7 = insertelement <20 x i32> %r6, i32 %perm, i32 7
  %r8 = insertelement <20 x i32> %r7, i32 %ubfe, i32 8
  %r9 = insertelement <20 x i32> %r8, i32 %sbfe, i32 9
  %r10 = insertelement <20 x i32> %r9, i32 %legacy.bits, i32 10
  %r11 = insertelement <20 x i32> %r10, i32 %med3.bits, i32 11
  %r12 = insertelement <20 x i32> %r11, i32 %mant.bits, i32 12
  %r13 = insertelement <20 x i32> %r12, i32 %exp, i32 13
  %r14 = insertelement <20 x i32> %r13, i32 %pkrtz.bits, i32 14
  %r15 = insertelement <20 x i32> %r14, i32 %exp2.wide, i32 15
  %r16 = insertelement <20 x i32> %r15, i32 %rcp.wide, i32 16
  %r17 = insertelement <20 x i32> %r16, i32 %sqrt.wide, i32 17
  %r18 = insertelement <20 x i32> %r17, i32 %rsq.wide, i32 18
  %r19 = insertelement <20 x i32> %r18, i32 %log.wide, i32 19
  %first = mul i32 %lane, 20
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %first
  store <20 x i32> %r19, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.amdgcn.icmp.i64.i32(i32, i32, i32)
declare i64 @llvm.amdgcn.fcmp.i64.f32(float, float, i32)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.groupstaticsize()
declare i32 @llvm.amdgcn.wavefrontsize()
declare i32 @llvm.amdgcn.perm(i32, i32, i32)
declare i32 @llvm.amdgcn.ubfe.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.sbfe.i32(i32, i32, i32)
declare float @llvm.amdgcn.fmul.legacy(float, float)
declare float @llvm.amdgcn.fmed3.f32(float, float, float)
declare float @llvm.amdgcn.frexp.mant.f32(float)
declare i32 @llvm.amdgcn.frexp.exp.i32.f32(float)
declare <2 x half> @llvm.amdgcn.cvt.pkrtz(float, float)
declare half @llvm.amdgcn.exp2.f16(half)
declare half @llvm.amdgcn.rcp.f16(half)
declare half @llvm.amdgcn.sqrt.f16(half)
declare half @llvm.amdgcn.rsq.f16(half)
declare half @llvm.amdgcn.log.f16(half)

!0 = !{i32 64, i32 1, i32 1}
