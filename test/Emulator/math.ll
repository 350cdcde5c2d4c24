; The transcendental instructions under emulation against the ISA's
; specification (utils/amdref.py): v_exp_f32, v_log_f32, v_rcp_f32,
; v_rsq_f32 and v_sqrt_f32 within 1 ulp, with f32 denormal inputs and
; outputs flushed where the ISA says; v_fract_f32; v_sin_f32 and v_cos_f32,
; which take revolutions. Inputs cover zeros, infinities, NaN, denormals and
; magnitudes from 2^-30 to 2^30.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 %s -o - | FileCheck %s --check-prefix=ISA
; RUN: mla-emu-compile %s --chip=gfx942 --workgroup-size=64 -o %t.so \
; RUN:   --arg-type=in=f32,out=f32
; RUN: %amdref random %t.in.npy --dtype f4 --count 256 --values math --seed 11
; RUN: mla-run --target emu --module %t.so --kernel math --grid 4 \
; RUN:   --arg in=@%t.in.npy --arg out=empty:2048 --save out=%t.out.npy > /dev/null
; RUN: %amdref check-math %t.in.npy %t.out.npy | FileCheck %s

; CHECK: check: math 256 inputs x 8 ops PASS
; ISA-DAG: v_exp_f32
; ISA-DAG: v_log_f32
; ISA-DAG: v_rcp_f32
; ISA-DAG: v_rsq_f32
; ISA-DAG: v_sqrt_f32
; ISA-DAG: v_fract_f32
; ISA-DAG: v_sin_f32
; ISA-DAG: v_cos_f32

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @math(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pi = getelementptr float, ptr addrspace(1) %in, i32 %i
  %x = load float, ptr addrspace(1) %pi, align 4
  %exp = call float @llvm.amdgcn.exp2.f32(float %x)
  %log = call float @llvm.amdgcn.log.f32(float %x)
  %rcp = call float @llvm.amdgcn.rcp.f32(float %x)
  %rsq = call float @llvm.amdgcn.rsq.f32(float %x)
  %sqrt = call float @llvm.amdgcn.sqrt.f32(float %x)
  %fract = call float @llvm.amdgcn.fract.f32(float %x)
  %sin = call float @llvm.amdgcn.sin.f32(float %x)
  %cos = call float @llvm.amdgcn.cos.f32(float %x)
  %v0 = insertelement <8 x float> poison, float %exp, i32 0
  %v1 = insertelement <8 x float> %v0, float %log, i32 1
  %v2 = insertelement <8 x float> %v1, float %rcp, i32 2
  %v3 = insertelement <8 x float> %v2, float %rsq, i32 3
  %v4 = insertelement <8 x float> %v3, float %sqrt, i32 4
  %v5 = insertelement <8 x float> %v4, float %fract, i32 5
  %v6 = insertelement <8 x float> %v5, float %sin, i32 6
  %v7 = insertelement <8 x float> %v6, float %cos, i32 7
  %po = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %i
  store <8 x float> %v7, ptr addrspace(1) %po, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare float @llvm.amdgcn.exp2.f32(float)
declare float @llvm.amdgcn.log.f32(float)
declare float @llvm.amdgcn.rcp.f32(float)
declare float @llvm.amdgcn.rsq.f32(float)
declare float @llvm.amdgcn.sqrt.f32(float)
declare float @llvm.amdgcn.fract.f32(float)
declare float @llvm.amdgcn.sin.f32(float)
declare float @llvm.amdgcn.cos.f32(float)

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
