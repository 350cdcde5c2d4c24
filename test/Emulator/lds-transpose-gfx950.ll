; gfx950's transposing LDS reads under emulation against shared/AMD.md's
; lane rules (utils/amdref.py): two waves fill 1 KiB of LDS from `src`, then
; every lane reads 8 bytes at its own permuted address with
; ds_read_b64_tr_b16, _tr_b8 and _tr_b4 and stores the three results. The
; reads are LDS accesses for the race detector: without the barrier a wave
; reads bytes the other has not written yet. A read whose exchange block is
; partly inactive has no defined result and fails; gfx942 has none of them.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o - | FileCheck %s --check-prefix=ISA
; RUN: %amdref random %t.src.npy --dtype i4 --count 256 --values bits --seed 11
; RUN: mla-emu-compile %s --chip=gfx950 -o %t.so --arg-type=src=i32,out=i32
; RUN: mla-run --target emu --module %t.so --kernel transposes --grid 1 \
; RUN:   --arg src=@%t.src.npy --arg out=empty:768 --save out=%t.out.npy > /dev/null
; RUN: %amdref check-lanes transpose %t.src.npy %t.out.npy | FileCheck %s
; RUN: not mla-run --target emu --module %t.so --kernel no_barrier --grid 1 \
; RUN:   --arg src=@%t.src.npy --arg out=empty:768 2>&1 | FileCheck %s --check-prefix=RACE
; RUN: not mla-run --target emu --module %t.so --kernel partial --grid 1 \
; RUN:   --arg src=@%t.src.npy --arg out=empty:768 2>&1 | FileCheck %s --check-prefix=PARTIAL
; RUN: not mla-emu-compile %s --chip=gfx942 -o %t.gfx942.so --arg-type=src=i32,out=i32 2>&1 | FileCheck %s --check-prefix=CHIP

; CHECK: check: transpose 128 lanes x 6 results PASS
; ISA-DAG: ds_read_b64_tr_b16
; ISA-DAG: ds_read_b64_tr_b8
; ISA-DAG: ds_read_b64_tr_b4
; RACE: LDS race at offset {{[0-9]+}}: wave {{[01]}} read it at `%r = call <4 x i16> @llvm.amdgcn.ds.read.tr16.b64.v4i16(ptr addrspace(3) %p)` in @no_barrier, and wave {{[01]}} writes it at `store <2 x i32> %v, ptr addrspace(3) %p, align 8` in @fill, with no barrier in between
; PARTIAL: ds_read_b64_tr_b16 in wave 0 runs with lanes 0-3 only partly active; its lanes exchange data in blocks of 4, so all of a block must run
; CHIP: mla-emu-compile: error: llvm.amdgcn.ds.read.tr16.b64.v4i16 does not exist on gfx942

target triple = "amdgcn-amd-amdhsa"

@buf = internal addrspace(3) global [128 x <2 x i32>] poison, align 8

; Lane t of the workgroup writes src[2t], src[2t + 1] at LDS bytes 8t.
define internal void @fill(ptr addrspace(1) %src, i32 %tid) {
  %ps = getelementptr <2 x i32>, ptr addrspace(1) %src, i32 %tid
  %v = load <2 x i32>, ptr addrspace(1) %ps, align 4
  %p = getelementptr [128 x <2 x i32>], ptr addrspace(3) @buf, i32 0, i32 %tid
  store <2 x i32> %v, ptr addrspace(3) %p, align 8
  ret void
}

; The 8 bytes at (tid * mul + add) % 128 * 8.
define internal ptr addrspace(3) @at(i32 %tid, i32 %mul, i32 %add) {
  %m = mul i32 %tid, %mul
  %a = add i32 %m, %add
  %i = and i32 %a, 127
  %p = getelementptr [128 x <2 x i32>], ptr addrspace(3) @buf, i32 0, i32 %i
  ret ptr addrspace(3) %p
}

define amdgpu_kernel void @transposes(ptr addrspace(1) %src, ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  call void @fill(ptr addrspace(1) %src, i32 %tid)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %p16 = call ptr addrspace(3) @at(i32 %tid, i32 37, i32 11)
  %p8 = call ptr addrspace(3) @at(i32 %tid, i32 53, i32 5)
  %p4 = call ptr addrspace(3) @at(i32 %tid, i32 91, i32 3)
  %r16 = call <4 x i16> @llvm.amdgcn.ds.read.tr16.b64.v4i16(ptr addrspace(3) %p16)
  %r8 = call <2 x i32> @llvm.amdgcn.ds.read.tr8.b64.v2i32(ptr addrspace(3) %p8)
  %r4 = call <2 x i32> @llvm.amdgcn.ds.read.tr4.b64.v2i32(ptr addrspace(3) %p4)
  %w16 = bitcast <4 x i16> %r16 to <2 x i32>
  %o = getelementptr [3 x <2 x i32>], ptr addrspace(1) %out, i32 %tid
  store <2 x i32> %w16, ptr addrspace(1) %o, align 4
  %o8 = getelementptr <2 x i32>, ptr addrspace(1) %o, i32 1
  store <2 x i32> %r8, ptr addrspace(1) %o8, align 4
  %o4 = getelementptr <2 x i32>, ptr addrspace(1) %o, i32 2
  store <2 x i32> %r4, ptr addrspace(1) %o4, align 4
  ret void
}

define amdgpu_kernel void @no_barrier(ptr addrspace(1) %src, ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  call void @fill(ptr addrspace(1) %src, i32 %tid)
  call void @llvm.amdgcn.wave.barrier()
  %p = call ptr addrspace(3) @at(i32 %tid, i32 1, i32 64)
  %r = call <4 x i16> @llvm.amdgcn.ds.read.tr16.b64.v4i16(ptr addrspace(3) %p)
  %o = getelementptr <4 x i16>, ptr addrspace(1) %out, i32 %tid
  store <4 x i16> %r, ptr addrspace(1) %o, align 4
  ret void
}

; Lanes 0 and 1 read; 2 and 3 of their block do not.
define amdgpu_kernel void @partial(ptr addrspace(1) %src, ptr addrspace(1) %out) !reqd_work_group_size !0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %few = icmp ult i32 %tid, 2
  br i1 %few, label %read, label %done
read:
  %p = getelementptr [128 x <2 x i32>], ptr addrspace(3) @buf, i32 0, i32 %tid
  %r = call <4 x i16> @llvm.amdgcn.ds.read.tr16.b64.v4i16(ptr addrspace(3) %p)
  %o = getelementptr <4 x i16>, ptr addrspace(1) %out, i32 %tid
  store <4 x i16> %r, ptr addrspace(1) %o, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.wave.barrier()
declare <4 x i16> @llvm.amdgcn.ds.read.tr16.b64.v4i16(ptr addrspace(3))
declare <2 x i32> @llvm.amdgcn.ds.read.tr8.b64.v2i32(ptr addrspace(3))
declare <2 x i32> @llvm.amdgcn.ds.read.tr4.b64.v2i32(ptr addrspace(3))

!0 = !{i32 128, i32 1, i32 1}
