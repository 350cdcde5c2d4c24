; The gfx942 matrix instructions under emulation against shared/AMD.md's
; lane layouts (utils/amdref.py builds A, B and C from each lane's operands by
; the layout formulas and compares D): one wave, random operands. fp8 data
; is read as FNUZ e4m3 on gfx942.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 %s -o - | FileCheck %s --check-prefix=ISA
; RUN: mla-emu-compile %s --chip=gfx942 --workgroup-size=64 -o %t.so \
; RUN:   --arg-type=a=bf16,b=bf16,c=f32,d=f32,sa=i32,sb=i32 \
; RUN:   --arg-type=mfma_16x16x16f16.a=f16,mfma_16x16x16f16.b=f16 \
; RUN:   --arg-type=mfma_32x32x8f16.a=f16,mfma_32x32x8f16.b=f16 \
; RUN:   --arg-type=mfma_16x16x4f32.a=f32,mfma_16x16x4f32.b=f32 \
; RUN:   --arg-type=mfma_32x32x2f32.a=f32,mfma_32x32x2f32.b=f32 \
; RUN:   --arg-type=mfma_i32_16x16x32_i8.a=i8,mfma_i32_16x16x32_i8.b=i8 \
; RUN:   --arg-type=mfma_i32_16x16x32_i8.c=i32,mfma_i32_16x16x32_i8.d=i32 \
; RUN:   --arg-type=mfma_i32_32x32x16_i8.a=i8,mfma_i32_32x32x16_i8.b=i8 \
; RUN:   --arg-type=mfma_i32_32x32x16_i8.c=i32,mfma_i32_32x32x16_i8.d=i32 \
; RUN:   --arg-type=mfma_16x16x32_fp8_fp8.a=i8,mfma_16x16x32_fp8_fp8.b=i8 \
; RUN:   --arg-type=mfma_32x32x16_fp8_fp8.a=i8,mfma_32x32x16_fp8_fp8.b=i8
;
; RUN: %amdref random %t.mfma_16x16x16bf16_1k.a.npy --dtype u2 --count 256 --values normal --seed 1
; RUN: %amdref random %t.mfma_16x16x16bf16_1k.b.npy --dtype u2 --count 256 --values normal --seed 2
; RUN: %amdref random %t.mfma_16x16x16bf16_1k.c.npy --dtype f4 --count 256 --seed 3
; RUN: mla-run --target emu --module %t.so --kernel mfma_16x16x16bf16_1k --grid 1 \
; RUN:   --arg a=@%t.mfma_16x16x16bf16_1k.a.npy --arg b=@%t.mfma_16x16x16bf16_1k.b.npy --arg c=@%t.mfma_16x16x16bf16_1k.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_16x16x16bf16_1k.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x16bf16_1k %t.mfma_16x16x16bf16_1k.a.npy %t.mfma_16x16x16bf16_1k.b.npy %t.mfma_16x16x16bf16_1k.c.npy %t.mfma_16x16x16bf16_1k.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_16X16X16BF16_1K
;
; RUN: %amdref random %t.mfma_32x32x8bf16_1k.a.npy --dtype u2 --count 256 --values normal --seed 11
; RUN: %amdref random %t.mfma_32x32x8bf16_1k.b.npy --dtype u2 --count 256 --values normal --seed 12
; RUN: %amdref random %t.mfma_32x32x8bf16_1k.c.npy --dtype f4 --count 1024 --seed 13
; RUN: mla-run --target emu --module %t.so --kernel mfma_32x32x8bf16_1k --grid 1 \
; RUN:   --arg a=@%t.mfma_32x32x8bf16_1k.a.npy --arg b=@%t.mfma_32x32x8bf16_1k.b.npy --arg c=@%t.mfma_32x32x8bf16_1k.c.npy \
; RUN:   --arg d=empty:1024 --save d=%t.mfma_32x32x8bf16_1k.d.npy > /dev/null
; RUN: %amdref check-mfma 32x32x8bf16_1k %t.mfma_32x32x8bf16_1k.a.npy %t.mfma_32x32x8bf16_1k.b.npy %t.mfma_32x32x8bf16_1k.c.npy %t.mfma_32x32x8bf16_1k.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_32X32X8BF16_1K
;
; RUN: %amdref random %t.mfma_16x16x16f16.a.npy --dtype u2 --count 256 --values f16 --seed 21
; RUN: %amdref random %t.mfma_16x16x16f16.b.npy --dtype u2 --count 256 --values f16 --seed 22
; RUN: %amdref random %t.mfma_16x16x16f16.c.npy --dtype f4 --count 256 --seed 23
; RUN: mla-run --target emu --module %t.so --kernel mfma_16x16x16f16 --grid 1 \
; RUN:   --arg a=@%t.mfma_16x16x16f16.a.npy --arg b=@%t.mfma_16x16x16f16.b.npy --arg c=@%t.mfma_16x16x16f16.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_16x16x16f16.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x16f16 %t.mfma_16x16x16f16.a.npy %t.mfma_16x16x16f16.b.npy %t.mfma_16x16x16f16.c.npy %t.mfma_16x16x16f16.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_16X16X16F16
;
; RUN: %amdref random %t.mfma_32x32x8f16.a.npy --dtype u2 --count 256 --values f16 --seed 31
; RUN: %amdref random %t.mfma_32x32x8f16.b.npy --dtype u2 --count 256 --values f16 --seed 32
; RUN: %amdref random %t.mfma_32x32x8f16.c.npy --dtype f4 --count 1024 --seed 33
; RUN: mla-run --target emu --module %t.so --kernel mfma_32x32x8f16 --grid 1 \
; RUN:   --arg a=@%t.mfma_32x32x8f16.a.npy --arg b=@%t.mfma_32x32x8f16.b.npy --arg c=@%t.mfma_32x32x8f16.c.npy \
; RUN:   --arg d=empty:1024 --save d=%t.mfma_32x32x8f16.d.npy > /dev/null
; RUN: %amdref check-mfma 32x32x8f16 %t.mfma_32x32x8f16.a.npy %t.mfma_32x32x8f16.b.npy %t.mfma_32x32x8f16.c.npy %t.mfma_32x32x8f16.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_32X32X8F16
;
; RUN: %amdref random %t.mfma_16x16x4f32.a.npy --dtype f4 --count 64 --values normal --seed 41
; RUN: %amdref random %t.mfma_16x16x4f32.b.npy --dtype f4 --count 64 --values normal --seed 42
; RUN: %amdref random %t.mfma_16x16x4f32.c.npy --dtype f4 --count 256 --seed 43
; RUN: mla-run --target emu --module %t.so --kernel mfma_16x16x4f32 --grid 1 \
; RUN:   --arg a=@%t.mfma_16x16x4f32.a.npy --arg b=@%t.mfma_16x16x4f32.b.npy --arg c=@%t.mfma_16x16x4f32.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_16x16x4f32.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x4f32 %t.mfma_16x16x4f32.a.npy %t.mfma_16x16x4f32.b.npy %t.mfma_16x16x4f32.c.npy %t.mfma_16x16x4f32.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_16X16X4F32
;
; RUN: %amdref random %t.mfma_32x32x2f32.a.npy --dtype f4 --count 64 --values normal --seed 51
; RUN: %amdref random %t.mfma_32x32x2f32.b.npy --dtype f4 --count 64 --values normal --seed 52
; RUN: %amdref random %t.mfma_32x32x2f32.c.npy --dtype f4 --count 1024 --seed 53
; RUN: mla-run --target emu --module %t.so --kernel mfma_32x32x2f32 --grid 1 \
; RUN:   --arg a=@%t.mfma_32x32x2f32.a.npy --arg b=@%t.mfma_32x32x2f32.b.npy --arg c=@%t.mfma_32x32x2f32.c.npy \
; RUN:   --arg d=empty:1024 --save d=%t.mfma_32x32x2f32.d.npy > /dev/null
; RUN: %amdref check-mfma 32x32x2f32 %t.mfma_32x32x2f32.a.npy %t.mfma_32x32x2f32.b.npy %t.mfma_32x32x2f32.c.npy %t.mfma_32x32x2f32.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_32X32X2F32
;
; RUN: %amdref random %t.mfma_i32_16x16x32_i8.a.npy --dtype u1 --count 512 --values normal --seed 61
; RUN: %amdref random %t.mfma_i32_16x16x32_i8.b.npy --dtype u1 --count 512 --values normal --seed 62
; RUN: %amdref random %t.mfma_i32_16x16x32_i8.c.npy --dtype i4 --count 256 --seed 63
; RUN: mla-run --target emu --module %t.so --kernel mfma_i32_16x16x32_i8 --grid 1 \
; RUN:   --arg a=@%t.mfma_i32_16x16x32_i8.a.npy --arg b=@%t.mfma_i32_16x16x32_i8.b.npy --arg c=@%t.mfma_i32_16x16x32_i8.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_i32_16x16x32_i8.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x32_i8 %t.mfma_i32_16x16x32_i8.a.npy %t.mfma_i32_16x16x32_i8.b.npy %t.mfma_i32_16x16x32_i8.c.npy %t.mfma_i32_16x16x32_i8.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_I32_16X16X32_I8
;
; RUN: %amdref random %t.mfma_i32_32x32x16_i8.a.npy --dtype u1 --count 512 --values normal --seed 71
; RUN: %amdref random %t.mfma_i32_32x32x16_i8.b.npy --dtype u1 --count 512 --values normal --seed 72
; RUN: %amdref random %t.mfma_i32_32x32x16_i8.c.npy --dtype i4 --count 1024 --seed 73
; RUN: mla-run --target emu --module %t.so --kernel mfma_i32_32x32x16_i8 --grid 1 \
; RUN:   --arg a=@%t.mfma_i32_32x32x16_i8.a.npy --arg b=@%t.mfma_i32_32x32x16_i8.b.npy --arg c=@%t.mfma_i32_32x32x16_i8.c.npy \
; RUN:   --arg d=empty:1024 --save d=%t.mfma_i32_32x32x16_i8.d.npy > /dev/null
; RUN: %amdref check-mfma 32x32x16_i8 %t.mfma_i32_32x32x16_i8.a.npy %t.mfma_i32_32x32x16_i8.b.npy %t.mfma_i32_32x32x16_i8.c.npy %t.mfma_i32_32x32x16_i8.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_I32_32X32X16_I8
;
; RUN: %amdref random %t.mfma_16x16x32_fp8_fp8.a.npy --dtype u1 --count 512 --values fp8 --seed 81
; RUN: %amdref random %t.mfma_16x16x32_fp8_fp8.b.npy --dtype u1 --count 512 --values fp8 --seed 82
; RUN: %amdref random %t.mfma_16x16x32_fp8_fp8.c.npy --dtype f4 --count 256 --seed 83
; RUN: mla-run --target emu --module %t.so --kernel mfma_16x16x32_fp8_fp8 --grid 1 \
; RUN:   --arg a=@%t.mfma_16x16x32_fp8_fp8.a.npy --arg b=@%t.mfma_16x16x32_fp8_fp8.b.npy --arg c=@%t.mfma_16x16x32_fp8_fp8.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_16x16x32_fp8_fp8.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x32_fp8_fp8 %t.mfma_16x16x32_fp8_fp8.a.npy %t.mfma_16x16x32_fp8_fp8.b.npy %t.mfma_16x16x32_fp8_fp8.c.npy %t.mfma_16x16x32_fp8_fp8.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_16X16X32_FP8_FP8
;
; RUN: %amdref random %t.mfma_32x32x16_fp8_fp8.a.npy --dtype u1 --count 512 --values fp8 --seed 91
; RUN: %amdref random %t.mfma_32x32x16_fp8_fp8.b.npy --dtype u1 --count 512 --values fp8 --seed 92
; RUN: %amdref random %t.mfma_32x32x16_fp8_fp8.c.npy --dtype f4 --count 1024 --seed 93
; RUN: mla-run --target emu --module %t.so --kernel mfma_32x32x16_fp8_fp8 --grid 1 \
; RUN:   --arg a=@%t.mfma_32x32x16_fp8_fp8.a.npy --arg b=@%t.mfma_32x32x16_fp8_fp8.b.npy --arg c=@%t.mfma_32x32x16_fp8_fp8.c.npy \
; RUN:   --arg d=empty:1024 --save d=%t.mfma_32x32x16_fp8_fp8.d.npy > /dev/null
; RUN: %amdref check-mfma 32x32x16_fp8_fp8 %t.mfma_32x32x16_fp8_fp8.a.npy %t.mfma_32x32x16_fp8_fp8.b.npy %t.mfma_32x32x16_fp8_fp8.c.npy %t.mfma_32x32x16_fp8_fp8.d.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=MFMA_32X32X16_FP8_FP8

; MFMA_16X16X16BF16_1K: check: mfma 16x16x16bf16_1k {{.*}} PASS
; MFMA_32X32X8BF16_1K: check: mfma 32x32x8bf16_1k {{.*}} PASS
; MFMA_16X16X16F16: check: mfma 16x16x16f16 {{.*}} PASS
; MFMA_32X32X8F16: check: mfma 32x32x8f16 {{.*}} PASS
; MFMA_16X16X4F32: check: mfma 16x16x4f32 {{.*}} PASS
; MFMA_32X32X2F32: check: mfma 32x32x2f32 {{.*}} PASS
; MFMA_I32_16X16X32_I8: check: mfma 16x16x32_i8 {{.*}} PASS
; MFMA_I32_32X32X16_I8: check: mfma 32x32x16_i8 {{.*}} PASS
; MFMA_16X16X32_FP8_FP8: check: mfma 16x16x32_fp8_fp8 {{.*}} PASS
; MFMA_32X32X16_FP8_FP8: check: mfma 32x32x16_fp8_fp8 {{.*}} PASS

; ISA-LABEL: {{^}}mfma_16x16x16bf16_1k:
; ISA: v_mfma_f32_16x16x16_bf16
; ISA-LABEL: {{^}}mfma_32x32x8bf16_1k:
; ISA: v_mfma_f32_32x32x8_bf16
; ISA-LABEL: {{^}}mfma_16x16x16f16:
; ISA: v_mfma_f32_16x16x16_f16
; ISA-LABEL: {{^}}mfma_32x32x8f16:
; ISA: v_mfma_f32_32x32x8_f16
; ISA-LABEL: {{^}}mfma_16x16x4f32:
; ISA: v_mfma_f32_16x16x4_f32
; ISA-LABEL: {{^}}mfma_32x32x2f32:
; ISA: v_mfma_f32_32x32x2_f32
; ISA-LABEL: {{^}}mfma_i32_16x16x32_i8:
; ISA: v_mfma_i32_16x16x32_i8
; ISA-LABEL: {{^}}mfma_i32_32x32x16_i8:
; ISA: v_mfma_i32_32x32x16_i8
; ISA-LABEL: {{^}}mfma_16x16x32_fp8_fp8:
; ISA: v_mfma_f32_16x16x32_fp8_fp8
; ISA-LABEL: {{^}}mfma_32x32x16_fp8_fp8:
; ISA: v_mfma_f32_32x32x16_fp8_fp8

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @mfma_16x16x16bf16_1k(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x i16>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x i16>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x i16>, ptr addrspace(1) %b, i32 %lane
  %vb = load <4 x i16>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %vd = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16bf16.1k(<4 x i16> %va, <4 x i16> %vb, <4 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_32x32x8bf16_1k(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x i16>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x i16>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x i16>, ptr addrspace(1) %b, i32 %lane
  %vb = load <4 x i16>, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <16 x float>, ptr addrspace(1) %pc
  %vd = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8bf16.1k(<4 x i16> %va, <4 x i16> %vb, <16 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <16 x float>, ptr addrspace(1) %d, i32 %lane
  store <16 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_16x16x16f16(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x half>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x half>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x half>, ptr addrspace(1) %b, i32 %lane
  %vb = load <4 x half>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %vd = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %va, <4 x half> %vb, <4 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_32x32x8f16(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x half>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x half>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x half>, ptr addrspace(1) %b, i32 %lane
  %vb = load <4 x half>, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <16 x float>, ptr addrspace(1) %pc
  %vd = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %va, <4 x half> %vb, <16 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <16 x float>, ptr addrspace(1) %d, i32 %lane
  store <16 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_16x16x4f32(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr float, ptr addrspace(1) %a, i32 %lane
  %va = load float, ptr addrspace(1) %pa
  %pb = getelementptr float, ptr addrspace(1) %b, i32 %lane
  %vb = load float, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %vd = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x4f32(float %va, float %vb, <4 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_32x32x2f32(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr float, ptr addrspace(1) %a, i32 %lane
  %va = load float, ptr addrspace(1) %pa
  %pb = getelementptr float, ptr addrspace(1) %b, i32 %lane
  %vb = load float, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <16 x float>, ptr addrspace(1) %pc
  %vd = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x2f32(float %va, float %vb, <16 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <16 x float>, ptr addrspace(1) %d, i32 %lane
  store <16 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_i32_16x16x32_i8(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i64, ptr addrspace(1) %a, i32 %lane
  %va = load i64, ptr addrspace(1) %pa
  %pb = getelementptr i64, ptr addrspace(1) %b, i32 %lane
  %vb = load i64, ptr addrspace(1) %pb
  %pc = getelementptr <4 x i32>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x i32>, ptr addrspace(1) %pc
  %vd = call <4 x i32> @llvm.amdgcn.mfma.i32.16x16x32.i8(i64 %va, i64 %vb, <4 x i32> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x i32>, ptr addrspace(1) %d, i32 %lane
  store <4 x i32> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_i32_32x32x16_i8(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i64, ptr addrspace(1) %a, i32 %lane
  %va = load i64, ptr addrspace(1) %pa
  %pb = getelementptr i64, ptr addrspace(1) %b, i32 %lane
  %vb = load i64, ptr addrspace(1) %pb
  %pc = getelementptr <16 x i32>, ptr addrspace(1) %c, i32 %lane
  %vc = load <16 x i32>, ptr addrspace(1) %pc
  %vd = call <16 x i32> @llvm.amdgcn.mfma.i32.32x32x16.i8(i64 %va, i64 %vb, <16 x i32> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <16 x i32>, ptr addrspace(1) %d, i32 %lane
  store <16 x i32> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_16x16x32_fp8_fp8(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i64, ptr addrspace(1) %a, i32 %lane
  %va = load i64, ptr addrspace(1) %pa
  %pb = getelementptr i64, ptr addrspace(1) %b, i32 %lane
  %vb = load i64, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %vd = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8(i64 %va, i64 %vb, <4 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_32x32x16_fp8_fp8(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i64, ptr addrspace(1) %a, i32 %lane
  %va = load i64, ptr addrspace(1) %pa
  %pb = getelementptr i64, ptr addrspace(1) %b, i32 %lane
  %vb = load i64, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <16 x float>, ptr addrspace(1) %pc
  %vd = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.fp8.fp8(i64 %va, i64 %vb, <16 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <16 x float>, ptr addrspace(1) %d, i32 %lane
  store <16 x float> %vd, ptr addrspace(1) %pd
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
