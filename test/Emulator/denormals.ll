; f32 denormals: kernels whose denormal-fp-math-f32 is preserve-sign flush
; denormal operands and results (FTZ and DAZ on the host); others keep
; them, as LLVM IR's default IEEE mode says.
;
; RUN: mla-emu-compile %s --chip=gfx950 --workgroup-size=64 -o %t.so --arg-type=out=f32
; RUN: mla-run --target emu --module %t.so --kernel keep --grid 1 \
; RUN:   --arg out=empty:64 --arg x=1e-30 --save out=%t.keep.npy > /dev/null
; RUN: %amdref print %t.keep.npy --per-line 64 | FileCheck %s --check-prefix=KEEP
; RUN: mla-run --target emu --module %t.so --kernel flush --grid 1 \
; RUN:   --arg out=empty:64 --arg x=1e-30 --save out=%t.flush.npy > /dev/null
; RUN: %amdref print %t.flush.npy --per-line 64 | FileCheck %s --check-prefix=FLUSH
; 1e-30 * 2^-40 is a denormal.
; KEEP: {{^}}9.094427033468063e-43 {{.*}}
; FLUSH: {{^}}0.0 0.0 {{.*}}

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @keep(ptr addrspace(1) %out, float %x) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %v = fmul float %x, 0x3D70000000000000
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @flush(ptr addrspace(1) %out, float %x) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %v = fmul float %x, 0x3D70000000000000
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }
