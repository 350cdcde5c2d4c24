; The gfx950 matrix instructions under emulation against shared/AMD.md's
; lane layouts (utils/amdref.py builds A, B and C from each lane's operands by
; the layout formulas and compares D): one wave, random operands, every
; shape and element type the emulator knows for the chip, and the scale
; byte selectors of the scaled MFMA. llc shows that each kernel is the
; intended instruction and which op_sel bits a selector sets.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o - | FileCheck %s --check-prefix=ISA
; RUN: mla-emu-compile %s --chip=gfx950 --workgroup-size=64 -o %t.so \
; RUN:   --arg-type=a=bf16,b=bf16,c=f32,d=f32,sa=i32,sb=i32 \
; RUN:   --arg-type=mfma_16x16x32_f16.a=f16,mfma_16x16x32_f16.b=f16 \
; RUN:   --arg-type=mfma_32x32x16_f16.a=f16,mfma_32x32x16_f16.b=f16 \
; RUN:   --arg-type=mfma_i32_16x16x64_i8.a=i8,mfma_i32_16x16x64_i8.b=i8 \
; RUN:   --arg-type=mfma_i32_16x16x64_i8.c=i32,mfma_i32_16x16x64_i8.d=i32 \
; RUN:   --arg-type=mfma_16x16x32_fp8_bf8.a=i8,mfma_16x16x32_fp8_bf8.b=i8 \
; RUN:   --arg-type=mfma_scale_16x16x128_sel03.a=i8,mfma_scale_16x16x128_sel03.b=i8 \
; RUN:   --arg-type=mfma_scale_16x16x128_sel21.a=i8,mfma_scale_16x16x128_sel21.b=i8 \
; RUN:   --arg-type=mfma_scale_32x32x64_sel12.a=i8,mfma_scale_32x32x64_sel12.b=i8
;
; RUN: %amdref random %t.mfma_16x16x32_bf16.a.npy --dtype u2 --count 512 --values normal --seed 1
; RUN: %amdref random %t.mfma_16x16x32_bf16.b.npy --dtype u2 --count 512 --values normal --seed 2
; RUN: %amdref random %t.mfma_16x16x32_bf16.c.npy --dtype f4 --count 256 --seed 3
; RUN: mla-run --target emu --module %t.so --kernel mfma_16x16x32_bf16 --grid 1 \
; RUN:   --arg a=@%t.mfma_16x16x32_bf16.a.npy --arg b=@%t.mfma_16x16x32_bf16.b.npy --arg c=@%t.mfma_16x16x32_bf16.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_16x16x32_bf16.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x32_bf16 %t.mfma_16x16x32_bf16.a.npy %t.mfma_16x16x32_bf16.b.npy %t.mfma_16x16x32_bf16.c.npy %t.mfma_16x16x32_bf16.d.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=MFMA_16X16X32_BF16
;
; RUN: %amdref random %t.mfma_32x32x16_bf16.a.npy --dtype u2 --count 512 --values normal --seed 11
; RUN: %amdref random %t.mfma_32x32x16_bf16.b.npy --dtype u2 --count 512 --values normal --seed 12
; RUN: %amdref random %t.mfma_32x32x16_bf16.c.npy --dtype f4 --count 1024 --seed 13
; RUN: mla-run --target emu --module %t.so --kernel mfma_32x32x16_bf16 --grid 1 \
; RUN:   --arg a=@%t.mfma_32x32x16_bf16.a.npy --arg b=@%t.mfma_32x32x16_bf16.b.npy --arg c=@%t.mfma_32x32x16_bf16.c.npy \
; RUN:   --arg d=empty:1024 --save d=%t.mfma_32x32x16_bf16.d.npy > /dev/null
; RUN: %amdref check-mfma 32x32x16_bf16 %t.mfma_32x32x16_bf16.a.npy %t.mfma_32x32x16_bf16.b.npy %t.mfma_32x32x16_bf16.c.npy %t.mfma_32x32x16_bf16.d.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=MFMA_32X32X16_BF16
;
; RUN: %amdref random %t.mfma_16x16x32_f16.a.npy --dtype u2 --count 512 --values f16 --seed 21
; RUN: %amdref random %t.mfma_16x16x32_f16.b.npy --dtype u2 --count 512 --values f16 --seed 22
; RUN: %amdref random %t.mfma_16x16x32_f16.c.npy --dtype f4 --count 256 --seed 23
; RUN: mla-run --target emu --module %t.so --kernel mfma_16x16x32_f16 --grid 1 \
; RUN:   --arg a=@%t.mfma_16x16x32_f16.a.npy --arg b=@%t.mfma_16x16x32_f16.b.npy --arg c=@%t.mfma_16x16x32_f16.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_16x16x32_f16.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x32_f16 %t.mfma_16x16x32_f16.a.npy %t.mfma_16x16x32_f16.b.npy %t.mfma_16x16x32_f16.c.npy %t.mfma_16x16x32_f16.d.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=MFMA_16X16X32_F16
;
; RUN: %amdref random %t.mfma_32x32x16_f16.a.npy --dtype u2 --count 512 --values f16 --seed 31
; RUN: %amdref random %t.mfma_32x32x16_f16.b.npy --dtype u2 --count 512 --values f16 --seed 32
; RUN: %amdref random %t.mfma_32x32x16_f16.c.npy --dtype f4 --count 1024 --seed 33
; RUN: mla-run --target emu --module %t.so --kernel mfma_32x32x16_f16 --grid 1 \
; RUN:   --arg a=@%t.mfma_32x32x16_f16.a.npy --arg b=@%t.mfma_32x32x16_f16.b.npy --arg c=@%t.mfma_32x32x16_f16.c.npy \
; RUN:   --arg d=empty:1024 --save d=%t.mfma_32x32x16_f16.d.npy > /dev/null
; RUN: %amdref check-mfma 32x32x16_f16 %t.mfma_32x32x16_f16.a.npy %t.mfma_32x32x16_f16.b.npy %t.mfma_32x32x16_f16.c.npy %t.mfma_32x32x16_f16.d.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=MFMA_32X32X16_F16
;
; RUN: %amdref random %t.mfma_i32_16x16x64_i8.a.npy --dtype u1 --count 1024 --values normal --seed 41
; RUN: %amdref random %t.mfma_i32_16x16x64_i8.b.npy --dtype u1 --count 1024 --values normal --seed 42
; RUN: %amdref random %t.mfma_i32_16x16x64_i8.c.npy --dtype i4 --count 256 --seed 43
; RUN: mla-run --target emu --module %t.so --kernel mfma_i32_16x16x64_i8 --grid 1 \
; RUN:   --arg a=@%t.mfma_i32_16x16x64_i8.a.npy --arg b=@%t.mfma_i32_16x16x64_i8.b.npy --arg c=@%t.mfma_i32_16x16x64_i8.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_i32_16x16x64_i8.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x64_i8 %t.mfma_i32_16x16x64_i8.a.npy %t.mfma_i32_16x16x64_i8.b.npy %t.mfma_i32_16x16x64_i8.c.npy %t.mfma_i32_16x16x64_i8.d.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=MFMA_I32_16X16X64_I8
;
; RUN: %amdref random %t.mfma_16x16x32_fp8_bf8.a.npy --dtype u1 --count 512 --values fp8 --seed 51
; RUN: %amdref random %t.mfma_16x16x32_fp8_bf8.b.npy --dtype u1 --count 512 --values fp8 --seed 52
; RUN: %amdref random %t.mfma_16x16x32_fp8_bf8.c.npy --dtype f4 --count 256 --seed 53
; RUN: mla-run --target emu --module %t.so --kernel mfma_16x16x32_fp8_bf8 --grid 1 \
; RUN:   --arg a=@%t.mfma_16x16x32_fp8_bf8.a.npy --arg b=@%t.mfma_16x16x32_fp8_bf8.b.npy --arg c=@%t.mfma_16x16x32_fp8_bf8.c.npy \
; RUN:   --arg d=empty:256 --save d=%t.mfma_16x16x32_fp8_bf8.d.npy > /dev/null
; RUN: %amdref check-mfma 16x16x32_fp8_bf8 %t.mfma_16x16x32_fp8_bf8.a.npy %t.mfma_16x16x32_fp8_bf8.b.npy %t.mfma_16x16x32_fp8_bf8.c.npy %t.mfma_16x16x32_fp8_bf8.d.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=MFMA_16X16X32_FP8_BF8
;
; RUN: %amdref random %t.mfma_scale_16x16x128_sel03.a.npy --dtype u1 --count 1024 --values fp4 --seed 61
; RUN: %amdref random %t.mfma_scale_16x16x128_sel03.b.npy --dtype u1 --count 1024 --values fp4 --seed 62
; RUN: %amdref random %t.mfma_scale_16x16x128_sel03.c.npy --dtype f4 --count 256 --seed 63
; RUN: %amdref random %t.mfma_scale_16x16x128_sel03.sa.npy --dtype i4 --count 64 --values e8m0x4 --seed 64
; RUN: %amdref random %t.mfma_scale_16x16x128_sel03.sb.npy --dtype i4 --count 64 --values e8m0x4 --seed 65
; RUN: mla-run --target emu --module %t.so --kernel mfma_scale_16x16x128_sel03 --grid 1 \
; RUN:   --arg a=@%t.mfma_scale_16x16x128_sel03.a.npy --arg b=@%t.mfma_scale_16x16x128_sel03.b.npy --arg c=@%t.mfma_scale_16x16x128_sel03.c.npy \
; RUN:   --arg d=empty:256 --arg sa=@%t.mfma_scale_16x16x128_sel03.sa.npy --arg sb=@%t.mfma_scale_16x16x128_sel03.sb.npy --save d=%t.mfma_scale_16x16x128_sel03.d.npy > /dev/null
; RUN: %amdref check-mfma scale_16x16x128_fp4 %t.mfma_scale_16x16x128_sel03.a.npy %t.mfma_scale_16x16x128_sel03.b.npy %t.mfma_scale_16x16x128_sel03.c.npy %t.mfma_scale_16x16x128_sel03.d.npy --chip gfx950 --scales %t.mfma_scale_16x16x128_sel03.sa.npy %t.mfma_scale_16x16x128_sel03.sb.npy 0 3 \
; RUN:   | FileCheck %s --check-prefix=MFMA_SCALE_16X16X128_SEL03
;
; RUN: %amdref random %t.mfma_scale_16x16x128_sel21.a.npy --dtype u1 --count 1024 --values fp4 --seed 71
; RUN: %amdref random %t.mfma_scale_16x16x128_sel21.b.npy --dtype u1 --count 1024 --values fp4 --seed 72
; RUN: %amdref random %t.mfma_scale_16x16x128_sel21.c.npy --dtype f4 --count 256 --seed 73
; RUN: %amdref random %t.mfma_scale_16x16x128_sel21.sa.npy --dtype i4 --count 64 --values e8m0x4 --seed 74
; RUN: %amdref random %t.mfma_scale_16x16x128_sel21.sb.npy --dtype i4 --count 64 --values e8m0x4 --seed 75
; RUN: mla-run --target emu --module %t.so --kernel mfma_scale_16x16x128_sel21 --grid 1 \
; RUN:   --arg a=@%t.mfma_scale_16x16x128_sel21.a.npy --arg b=@%t.mfma_scale_16x16x128_sel21.b.npy --arg c=@%t.mfma_scale_16x16x128_sel21.c.npy \
; RUN:   --arg d=empty:256 --arg sa=@%t.mfma_scale_16x16x128_sel21.sa.npy --arg sb=@%t.mfma_scale_16x16x128_sel21.sb.npy --save d=%t.mfma_scale_16x16x128_sel21.d.npy > /dev/null
; RUN: %amdref check-mfma scale_16x16x128_fp4 %t.mfma_scale_16x16x128_sel21.a.npy %t.mfma_scale_16x16x128_sel21.b.npy %t.mfma_scale_16x16x128_sel21.c.npy %t.mfma_scale_16x16x128_sel21.d.npy --chip gfx950 --scales %t.mfma_scale_16x16x128_sel21.sa.npy %t.mfma_scale_16x16x128_sel21.sb.npy 2 1 \
; RUN:   | FileCheck %s --check-prefix=MFMA_SCALE_16X16X128_SEL21
;
; RUN: %amdref random %t.mfma_scale_32x32x64_sel12.a.npy --dtype u1 --count 1024 --values fp4 --seed 81
; RUN: %amdref random %t.mfma_scale_32x32x64_sel12.b.npy --dtype u1 --count 1024 --values fp4 --seed 82
; RUN: %amdref random %t.mfma_scale_32x32x64_sel12.c.npy --dtype f4 --count 1024 --seed 83
; RUN: %amdref random %t.mfma_scale_32x32x64_sel12.sa.npy --dtype i4 --count 64 --values e8m0x4 --seed 84
; RUN: %amdref random %t.mfma_scale_32x32x64_sel12.sb.npy --dtype i4 --count 64 --values e8m0x4 --seed 85
; RUN: mla-run --target emu --module %t.so --kernel mfma_scale_32x32x64_sel12 --grid 1 \
; RUN:   --arg a=@%t.mfma_scale_32x32x64_sel12.a.npy --arg b=@%t.mfma_scale_32x32x64_sel12.b.npy --arg c=@%t.mfma_scale_32x32x64_sel12.c.npy \
; RUN:   --arg d=empty:1024 --arg sa=@%t.mfma_scale_32x32x64_sel12.sa.npy --arg sb=@%t.mfma_scale_32x32x64_sel12.sb.npy --save d=%t.mfma_scale_32x32x64_sel12.d.npy > /dev/null
; RUN: %amdref check-mfma scale_32x32x64_fp4 %t.mfma_scale_32x32x64_sel12.a.npy %t.mfma_scale_32x32x64_sel12.b.npy %t.mfma_scale_32x32x64_sel12.c.npy %t.mfma_scale_32x32x64_sel12.d.npy --chip gfx950 --scales %t.mfma_scale_32x32x64_sel12.sa.npy %t.mfma_scale_32x32x64_sel12.sb.npy 1 2 \
; RUN:   | FileCheck %s --check-prefix=MFMA_SCALE_32X32X64_SEL12

; MFMA_16X16X32_BF16: check: mfma 16x16x32_bf16 {{.*}} PASS
; MFMA_32X32X16_BF16: check: mfma 32x32x16_bf16 {{.*}} PASS
; MFMA_16X16X32_F16: check: mfma 16x16x32_f16 {{.*}} PASS
; MFMA_32X32X16_F16: check: mfma 32x32x16_f16 {{.*}} PASS
; MFMA_I32_16X16X64_I8: check: mfma 16x16x64_i8 {{.*}} PASS
; MFMA_16X16X32_FP8_BF8: check: mfma 16x16x32_fp8_bf8 {{.*}} PASS
; MFMA_SCALE_16X16X128_SEL03: check: mfma scale_16x16x128_fp4 {{.*}} PASS
; MFMA_SCALE_16X16X128_SEL21: check: mfma scale_16x16x128_fp4 {{.*}} PASS
; MFMA_SCALE_32X32X64_SEL12: check: mfma scale_32x32x64_fp4 {{.*}} PASS

; ISA-LABEL: {{^}}mfma_16x16x32_bf16:
; ISA: v_mfma_f32_16x16x32_bf16
; ISA-LABEL: {{^}}mfma_32x32x16_bf16:
; ISA: v_mfma_f32_32x32x16_bf16
; ISA-LABEL: {{^}}mfma_16x16x32_f16:
; ISA: v_mfma_f32_16x16x32_f16
; ISA-LABEL: {{^}}mfma_32x32x16_f16:
; ISA: v_mfma_f32_32x32x16_f16
; ISA-LABEL: {{^}}mfma_i32_16x16x64_i8:
; ISA: v_mfma_i32_16x16x64_i8
; ISA-LABEL: {{^}}mfma_16x16x32_fp8_bf8:
; ISA: v_mfma_f32_16x16x32_fp8_bf8
; ISA-LABEL: {{^}}mfma_scale_16x16x128_sel03:
; ISA: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}} op_sel:[0,1,0] op_sel_hi:[0,1,0] cbsz:4 blgp:4
; ISA-LABEL: {{^}}mfma_scale_16x16x128_sel21:
; ISA: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}} op_sel:[0,1,0] op_sel_hi:[1,0,0] cbsz:4 blgp:4
; ISA-LABEL: {{^}}mfma_scale_32x32x64_sel12:
; ISA: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}} op_sel:[1,0,0] op_sel_hi:[0,1,0] cbsz:4 blgp:4

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @mfma_16x16x32_bf16(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <8 x bfloat>, ptr addrspace(1) %a, i32 %lane
  %va = load <8 x bfloat>, ptr addrspace(1) %pa
  %pb = getelementptr <8 x bfloat>, ptr addrspace(1) %b, i32 %lane
  %vb = load <8 x bfloat>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %vd = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %va, <8 x bfloat> %vb, <4 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_32x32x16_bf16(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <8 x bfloat>, ptr addrspace(1) %a, i32 %lane
  %va = load <8 x bfloat>, ptr addrspace(1) %pa
  %pb = getelementptr <8 x bfloat>, ptr addrspace(1) %b, i32 %lane
  %vb = load <8 x bfloat>, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <16 x float>, ptr addrspace(1) %pc
  %vd = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf16(<8 x bfloat> %va, <8 x bfloat> %vb, <16 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <16 x float>, ptr addrspace(1) %d, i32 %lane
  store <16 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_16x16x32_f16(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <8 x half>, ptr addrspace(1) %a, i32 %lane
  %va = load <8 x half>, ptr addrspace(1) %pa
  %pb = getelementptr <8 x half>, ptr addrspace(1) %b, i32 %lane
  %vb = load <8 x half>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %vd = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %va, <8 x half> %vb, <4 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_32x32x16_f16(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <8 x half>, ptr addrspace(1) %a, i32 %lane
  %va = load <8 x half>, ptr addrspace(1) %pa
  %pb = getelementptr <8 x half>, ptr addrspace(1) %b, i32 %lane
  %vb = load <8 x half>, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <16 x float>, ptr addrspace(1) %pc
  %vd = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.f16(<8 x half> %va, <8 x half> %vb, <16 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <16 x float>, ptr addrspace(1) %d, i32 %lane
  store <16 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_i32_16x16x64_i8(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x i32>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x i32>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x i32>, ptr addrspace(1) %b, i32 %lane
  %vb = load <4 x i32>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x i32>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x i32>, ptr addrspace(1) %pc
  %vd = call <4 x i32> @llvm.amdgcn.mfma.i32.16x16x64.i8(<4 x i32> %va, <4 x i32> %vb, <4 x i32> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x i32>, ptr addrspace(1) %d, i32 %lane
  store <4 x i32> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_16x16x32_fp8_bf8(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i64, ptr addrspace(1) %a, i32 %lane
  %va = load i64, ptr addrspace(1) %pa
  %pb = getelementptr i64, ptr addrspace(1) %b, i32 %lane
  %vb = load i64, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %vd = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.bf8(i64 %va, i64 %vb, <4 x float> %vc, i32 0, i32 0, i32 0)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_scale_16x16x128_sel03(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d, ptr addrspace(1) %sa, ptr addrspace(1) %sb) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x i32>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x i32>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x i32>, ptr addrspace(1) %b, i32 %lane
  %vb = load <4 x i32>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %psa = getelementptr i32, ptr addrspace(1) %sa, i32 %lane
  %vsa = load i32, ptr addrspace(1) %psa
  %psb = getelementptr i32, ptr addrspace(1) %sb, i32 %lane
  %vsb = load i32, ptr addrspace(1) %psb
  %vd = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v4i32.v4i32(<4 x i32> %va, <4 x i32> %vb, <4 x float> %vc, i32 4, i32 4, i32 0, i32 %vsa, i32 3, i32 %vsb)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_scale_16x16x128_sel21(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d, ptr addrspace(1) %sa, ptr addrspace(1) %sb) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x i32>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x i32>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x i32>, ptr addrspace(1) %b, i32 %lane
  %vb = load <4 x i32>, ptr addrspace(1) %pb
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %psa = getelementptr i32, ptr addrspace(1) %sa, i32 %lane
  %vsa = load i32, ptr addrspace(1) %psa
  %psb = getelementptr i32, ptr addrspace(1) %sb, i32 %lane
  %vsb = load i32, ptr addrspace(1) %psb
  %vd = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v4i32.v4i32(<4 x i32> %va, <4 x i32> %vb, <4 x float> %vc, i32 4, i32 4, i32 2, i32 %vsa, i32 1, i32 %vsb)
  %pd = getelementptr <4 x float>, ptr addrspace(1) %d, i32 %lane
  store <4 x float> %vd, ptr addrspace(1) %pd
  ret void
}

define amdgpu_kernel void @mfma_scale_32x32x64_sel12(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %d, ptr addrspace(1) %sa, ptr addrspace(1) %sb) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x i32>, ptr addrspace(1) %a, i32 %lane
  %va = load <4 x i32>, ptr addrspace(1) %pa
  %pb = getelementptr <4 x i32>, ptr addrspace(1) %b, i32 %lane
  %vb = load <4 x i32>, ptr addrspace(1) %pb
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %lane
  %vc = load <16 x float>, ptr addrspace(1) %pc
  %psa = getelementptr i32, ptr addrspace(1) %sa, i32 %lane
  %vsa = load i32, ptr addrspace(1) %psa
  %psb = getelementptr i32, ptr addrspace(1) %sb, i32 %lane
  %vsb = load i32, ptr addrspace(1) %psb
  %vd = call <16 x float> @llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4.v4i32.v4i32(<4 x i32> %va, <4 x i32> %vb, <16 x float> %vc, i32 4, i32 4, i32 1, i32 %vsa, i32 2, i32 %vsb)
  %pd = getelementptr <16 x float>, ptr addrspace(1) %d, i32 %lane
  store <16 x float> %vd, ptr addrspace(1) %pd
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
