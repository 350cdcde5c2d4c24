; The gfx942 fp8 conversions under emulation against the FNUZ formats'
; definitions (utils/amdref.py): gfx942 reads and writes f8E4M3FNUZ and
; f8E5M2FNUZ, where the same bytes mean other values than on gfx950
; (shared/AMD.md's table), with every byte and half selector.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 %s -o - | FileCheck %s --check-prefix=ISA
; RUN: mla-emu-compile %s --chip=gfx942 --workgroup-size=64 -o %t.so \
; RUN:   --arg-type=src=i32,values=f32,old=i32,out=f32 \
; RUN:   --arg-type=f32_to_fp8.out=i32,f32_to_bf8.out=i32
; RUN: %amdref random %t.src.npy --dtype i4 --count 256 --values bits --seed 1
; RUN: %amdref random %t.values.npy --dtype f4 --count 512 --values edge --seed 4
; RUN: %amdref random %t.old.npy --dtype i4 --count 256 --values bits --seed 5
;
; RUN: mla-run --target emu --module %t.so --kernel fp8_to_f32 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg out=empty:2048 --save out=%t.fp8_to_f32.npy > /dev/null
; RUN: %amdref check-cvt fp8-f32 %t.src.npy %t.fp8_to_f32.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=CHECK-FP8-TO-F32
;
; RUN: mla-run --target emu --module %t.so --kernel bf8_to_f32 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg out=empty:2048 --save out=%t.bf8_to_f32.npy > /dev/null
; RUN: %amdref check-cvt bf8-f32 %t.src.npy %t.bf8_to_f32.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=CHECK-BF8-TO-F32
;
; RUN: mla-run --target emu --module %t.so --kernel f32_to_fp8 --grid 4 \
; RUN:   --arg values=@%t.values.npy --arg old=@%t.old.npy --arg out=empty:512 --save out=%t.f32_to_fp8.npy > /dev/null
; RUN: %amdref check-cvt f32-fp8 %t.values.npy %t.old.npy %t.f32_to_fp8.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=CHECK-F32-TO-FP8
;
; RUN: mla-run --target emu --module %t.so --kernel f32_to_bf8 --grid 4 \
; RUN:   --arg values=@%t.values.npy --arg old=@%t.old.npy --arg out=empty:512 --save out=%t.f32_to_bf8.npy > /dev/null
; RUN: %amdref check-cvt f32-bf8 %t.values.npy %t.old.npy %t.f32_to_bf8.npy --chip gfx942 \
; RUN:   | FileCheck %s --check-prefix=CHECK-F32-TO-BF8

; CHECK-FP8-TO-F32: check: cvt fp8-f32 gfx942 {{[0-9]+}} outputs PASS
; CHECK-BF8-TO-F32: check: cvt bf8-f32 gfx942 {{[0-9]+}} outputs PASS
; CHECK-F32-TO-FP8: check: cvt f32-fp8 gfx942 {{[0-9]+}} outputs PASS
; CHECK-F32-TO-BF8: check: cvt f32-bf8 gfx942 {{[0-9]+}} outputs PASS

; ISA-LABEL: {{^}}fp8_to_f32:
; ISA: v_cvt_f32_fp8_sdwa {{.*}} src0_sel:BYTE_0
; ISA: v_cvt_f32_fp8_sdwa {{.*}} src0_sel:BYTE_1
; ISA: v_cvt_f32_fp8_sdwa {{.*}} src0_sel:BYTE_2
; ISA: v_cvt_f32_fp8_sdwa {{.*}} src0_sel:BYTE_3
; ISA-LABEL: {{^}}f32_to_fp8:
; ISA: v_cvt_pk_fp8_f32 {{.*}} op_sel:[0,0,1]

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @fp8_to_f32(ptr addrspace(1) %src, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %b0 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %s, i32 0)
  %b1 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %s, i32 1)
  %b2 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %s, i32 2)
  %b3 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %s, i32 3)
  %lo = call <2 x float> @llvm.amdgcn.cvt.pk.f32.fp8(i32 %s, i1 false)
  %hi = call <2 x float> @llvm.amdgcn.cvt.pk.f32.fp8(i32 %s, i1 true)
  %x0 = insertelement <8 x float> poison, float %b0, i32 0
  %x1 = insertelement <8 x float> %x0, float %b1, i32 1
  %x2 = insertelement <8 x float> %x1, float %b2, i32 2
  %x3 = insertelement <8 x float> %x2, float %b3, i32 3
  %pair = shufflevector <2 x float> %lo, <2 x float> %hi, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %all = shufflevector <8 x float> %x3, <8 x float> %pair, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  %pr = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %i
  store <8 x float> %all, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @bf8_to_f32(ptr addrspace(1) %src, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %b0 = call float @llvm.amdgcn.cvt.f32.bf8(i32 %s, i32 0)
  %b1 = call float @llvm.amdgcn.cvt.f32.bf8(i32 %s, i32 1)
  %b2 = call float @llvm.amdgcn.cvt.f32.bf8(i32 %s, i32 2)
  %b3 = call float @llvm.amdgcn.cvt.f32.bf8(i32 %s, i32 3)
  %lo = call <2 x float> @llvm.amdgcn.cvt.pk.f32.bf8(i32 %s, i1 false)
  %hi = call <2 x float> @llvm.amdgcn.cvt.pk.f32.bf8(i32 %s, i1 true)
  %x0 = insertelement <8 x float> poison, float %b0, i32 0
  %x1 = insertelement <8 x float> %x0, float %b1, i32 1
  %x2 = insertelement <8 x float> %x1, float %b2, i32 2
  %x3 = insertelement <8 x float> %x2, float %b3, i32 3
  %pair = shufflevector <2 x float> %lo, <2 x float> %hi, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %all = shufflevector <8 x float> %x3, <8 x float> %pair, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  %pr = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %i
  store <8 x float> %all, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @f32_to_fp8(ptr addrspace(1) %values, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x float>, ptr addrspace(1) %values, i32 %i
  %v = load <2 x float>, ptr addrspace(1) %pv, align 4
  %a = extractelement <2 x float> %v, i32 0
  %b = extractelement <2 x float> %v, i32 1
  %po = getelementptr i32, ptr addrspace(1) %old, i32 %i
  %o = load i32, ptr addrspace(1) %po, align 4
  %w0 = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %a, float %b, i32 %o, i1 false)
  %w1 = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %a, float %b, i32 %o, i1 true)
  %x0 = insertelement <2 x i32> poison, i32 %w0, i32 0
  %x1 = insertelement <2 x i32> %x0, i32 %w1, i32 1
  %pr = getelementptr <2 x i32>, ptr addrspace(1) %out, i32 %i
  store <2 x i32> %x1, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @f32_to_bf8(ptr addrspace(1) %values, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x float>, ptr addrspace(1) %values, i32 %i
  %v = load <2 x float>, ptr addrspace(1) %pv, align 4
  %a = extractelement <2 x float> %v, i32 0
  %b = extractelement <2 x float> %v, i32 1
  %po = getelementptr i32, ptr addrspace(1) %old, i32 %i
  %o = load i32, ptr addrspace(1) %po, align 4
  %w0 = call i32 @llvm.amdgcn.cvt.pk.bf8.f32(float %a, float %b, i32 %o, i1 false)
  %w1 = call i32 @llvm.amdgcn.cvt.pk.bf8.f32(float %a, float %b, i32 %o, i1 true)
  %x0 = insertelement <2 x i32> poison, i32 %w0, i32 0
  %x1 = insertelement <2 x i32> %x0, i32 %w1, i32 1
  %pr = getelementptr <2 x i32>, ptr addrspace(1) %out, i32 %i
  store <2 x i32> %x1, ptr addrspace(1) %pr, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
