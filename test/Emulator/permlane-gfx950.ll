; gfx950's permlane swaps under emulation against their definitions
; (utils/amdref.py): v_permlane16_swap exchanges the odd rows of its first
; operand with the even rows of its second, v_permlane32_swap rows 2-3 of
; the first with rows 0-1 of the second; each returns both registers.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o - | FileCheck %s --check-prefix=ISA
; RUN: %amdref random %t.src.npy --dtype i4 --count 128 --values bits --seed 9
; RUN: mla-emu-compile %s --chip=gfx950 -o %t.so --arg-type=src=i32,out=i32
; RUN: mla-run --target emu --module %t.so --kernel swaps --grid 1 \
; RUN:   --arg src=@%t.src.npy --arg out=empty:512 --save out=%t.out.npy > /dev/null
; RUN: %amdref check-lanes permlane %t.src.npy %t.out.npy | FileCheck %s

; CHECK: check: permlane 128 lanes x 4 results PASS
; ISA-DAG: v_permlane16_swap_b32
; ISA-DAG: v_permlane32_swap_b32

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @swaps(ptr addrspace(1) %src, ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %tid
  %v = load i32, ptr addrspace(1) %ps, align 4
  %w = xor i32 %v, 256
  %s16 = call { i32, i32 } @llvm.amdgcn.permlane16.swap(i32 %v, i32 %w, i1 false, i1 false)
  %s32 = call { i32, i32 } @llvm.amdgcn.permlane32.swap(i32 %v, i32 %w, i1 false, i1 false)
  %a = extractvalue { i32, i32 } %s16, 0
  %b = extractvalue { i32, i32 } %s16, 1
  %c = extractvalue { i32, i32 } %s32, 0
  %d = extractvalue { i32, i32 } %s32, 1
  %x0 = insertelement <4 x i32> poison, i32 %a, i32 0
  %x1 = insertelement <4 x i32> %x0, i32 %b, i32 1
  %x2 = insertelement <4 x i32> %x1, i32 %c, i32 2
  %x3 = insertelement <4 x i32> %x2, i32 %d, i32 3
  %po = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %tid
  store <4 x i32> %x3, ptr addrspace(1) %po, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare { i32, i32 } @llvm.amdgcn.permlane16.swap(i32, i32, i1, i1)
declare { i32, i32 } @llvm.amdgcn.permlane32.swap(i32, i32, i1, i1)

!0 = !{i32 128, i32 1, i32 1}
