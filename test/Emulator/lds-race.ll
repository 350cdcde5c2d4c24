; The LDS race detector. Two waves exchange halves of a 128-entry LDS
; array: with the barrier (and its fences) between the writes and the reads
; every work-item reads its partner's value; without it, wave 0 reads
; entries wave 1 has not written yet, and the run fails naming both waves,
; the LDS offset and both instructions. A write to bytes another wave read
; since the last barrier fails the same way.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o /dev/null
; RUN: mla-emu-compile %s --chip=gfx950 -o %t.so --arg-type=out=i32
; RUN: mla-run --target emu --module %t.so --kernel exchange --grid 2 \
; RUN:   --arg out=empty:128 --save out=%t.out.npy
; RUN: %amdref print %t.out.npy | FileCheck %s
; RUN: not mla-run --target emu --module %t.so --kernel exchange_no_barrier \
; RUN:   --grid 2 --arg out=empty:128 2>&1 | FileCheck %s --check-prefix=RACE
; RUN: not mla-run --target emu --module %t.so --kernel write_after_read \
; RUN:   --grid 1 --arg out=empty:128 2>&1 | FileCheck %s --check-prefix=WAR

; CHECK:      {{^}}64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79{{$}}
; CHECK-COUNT-3: {{^[0-9 ]+$}}
; CHECK-NEXT: {{^}}0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15{{$}}

; RACE: mla-run: error: emu: kernel 'exchange_no_barrier' workgroup ({{[01]}},0,0): LDS race at offset 256: wave 0 read it at `%v = load i32, ptr addrspace(3) %q, align 4` in @exchange_no_barrier, and wave 1 writes it at `store i32 %tid, ptr addrspace(3) %p, align 4` in @exchange_no_barrier, with no barrier in between

; WAR: mla-run: error: emu: kernel 'write_after_read' workgroup (0,0,0): LDS race at offset 0: wave 0 read it at `%v = load i32, ptr addrspace(3) @buf, align 4` in @write_after_read, and wave 1 writes it at `store i32 %tid, ptr addrspace(3) @buf, align 4` in @write_after_read, with no barrier in between

target triple = "amdgcn-amd-amdhsa"

@buf = internal addrspace(3) global [128 x i32] poison, align 4

define amdgpu_kernel void @exchange(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %partner = xor i32 %tid, 64
  %q = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %partner
  %v = load i32, ptr addrspace(3) %q, align 4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

define amdgpu_kernel void @exchange_no_barrier(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p, align 4
  %partner = xor i32 %tid, 64
  %q = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %partner
  %v = load i32, ptr addrspace(3) %q, align 4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

; Every work-item reads entry 0; wave 1 then overwrites it.
define amdgpu_kernel void @write_after_read(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %v = load i32, ptr addrspace(3) @buf, align 4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  %second = icmp uge i32 %tid, 64
  br i1 %second, label %write, label %done
write:
  store i32 %tid, ptr addrspace(3) @buf, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

!0 = !{i32 128, i32 1, i32 1}
