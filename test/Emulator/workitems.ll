; Work-item and workgroup ids, lane ids and the launch sizes kernels read
; through the implicit arguments and the dispatch packet: a 16x4x2
; workgroup (two waves) on a 2x3 grid. Each work-item writes one line of
; eight values: id x, y, z, workgroup x, y, lane (mbcnt), the implicit
; block count x and the dispatch packet's grid size y (in work-items).
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o /dev/null
; RUN: mla-emu-compile %s --chip=gfx950 -o %t.so --arg-type=out=i32
; RUN: mla-run --target emu --module %t.so --kernel ids --grid 2,3 \
; RUN:   --arg out=empty:6144 --save out=%t.out.npy | FileCheck %s --check-prefix=LAUNCH
; RUN: %amdref print %t.out.npy --per-line 8 | FileCheck %s
;
; RUN: FileCheck %s --check-prefix=MANIFEST < %t.so.json

; LAUNCH: run: target=emu kernel=ids grid=2x3x1
; MANIFEST: "workgroup_size": [
; MANIFEST-NEXT: 16,
; MANIFEST-NEXT: 4,
; MANIFEST-NEXT: 2
; MANIFEST: "target": "gfx950-emu"

; CHECK:      {{^}}0 0 0 0 0 0 2 12{{$}}
; CHECK-NEXT: {{^}}1 0 0 0 0 1 2 12{{$}}
; CHECK:      {{^}}0 1 0 0 0 16 2 12{{$}}
; CHECK:      {{^}}15 3 0 0 0 63 2 12{{$}}
; CHECK-NEXT: {{^}}0 0 1 0 0 0 2 12{{$}}
; CHECK:      {{^}}0 0 0 1 0 0 2 12{{$}}
; CHECK:      {{^}}15 3 1 1 2 63 2 12{{$}}

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @ids(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %y = call i32 @llvm.amdgcn.workitem.id.y()
  %z = call i32 @llvm.amdgcn.workitem.id.z()
  %gx = call i32 @llvm.amdgcn.workgroup.id.x()
  %gy = call i32 @llvm.amdgcn.workgroup.id.y()
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %lane = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %implicit = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %blocks = load i32, ptr addrspace(4) %implicit, align 4
  %packet = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %gridy.p = getelementptr i8, ptr addrspace(4) %packet, i64 16
  %gridy = load i32, ptr addrspace(4) %gridy.p, align 4
  ; Global work-item index, x fastest within a workgroup.
  %zy = mul i32 %z, 4
  %zyy = add i32 %zy, %y
  %row = mul i32 %zyy, 16
  %local = add i32 %row, %x
  %g = mul i32 %gy, 2
  %gg = add i32 %g, %gx
  %base = mul i32 %gg, 128
  %item = add i32 %base, %local
  %first = mul i32 %item, 8
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %first
  %v0 = insertelement <8 x i32> poison, i32 %x, i32 0
  %v1 = insertelement <8 x i32> %v0, i32 %y, i32 1
  %v2 = insertelement <8 x i32> %v1, i32 %z, i32 2
  %v3 = insertelement <8 x i32> %v2, i32 %gx, i32 3
  %v4 = insertelement <8 x i32> %v3, i32 %gy, i32 4
  %v5 = insertelement <8 x i32> %v4, i32 %lane, i32 5
  %v6 = insertelement <8 x i32> %v5, i32 %blocks, i32 6
  %v7 = insertelement <8 x i32> %v6, i32 %gridy, i32 7
  store <8 x i32> %v7, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()

!0 = !{i32 16, i32 4, i32 2}
