; What the emulator reports besides LDS races: each kernel below runs into
; one hazard, and mla-run fails with one line naming the kernel, the
; workgroup, the wave and lane, and the instruction.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o /dev/null
; RUN: mla-emu-compile %s --chip=gfx950 -o %t.so --arg-type=out=i32 \
; RUN:   --workgroup-size=64
; RUN: not mla-run --target emu --module %t.so --kernel lds_out_of_bounds \
; RUN:   --grid 1 --arg out=empty:64 --arg n=0 2>&1 | FileCheck %s --check-prefix=LDS
; RUN: not mla-run --target emu --module %t.so --kernel global_out_of_bounds \
; RUN:   --grid 1 --arg out=empty:64 --arg n=0 2>&1 | FileCheck %s --check-prefix=GLOBAL
; RUN: not mla-run --target emu --module %t.so --kernel misaligned \
; RUN:   --grid 1 --arg out=empty:64 --arg n=0 2>&1 | FileCheck %s --check-prefix=ALIGN
; RUN: not mla-run --target emu --module %t.so --kernel early_exit \
; RUN:   --grid 1 --arg out=empty:64 --arg n=0 2>&1 | FileCheck %s --check-prefix=BARRIER
; RUN: not mla-run --target emu --module %t.so --kernel lanes_exchange \
; RUN:   --grid 1 --arg out=empty:64 --arg n=0 2>&1 | FileCheck %s --check-prefix=LANES
; RUN: not mla-run --target emu --module %t.so --kernel divide \
; RUN:   --grid 1 --arg out=empty:64 --arg n=0 2>&1 | FileCheck %s --check-prefix=DIVIDE
; RUN: not mla-run --target emu --module %t.so --kernel trap \
; RUN:   --grid 1 --arg out=empty:64 --arg n=0 2>&1 | FileCheck %s --check-prefix=TRAP
;
; The same kernels run cleanly where they stay within their bounds, and
; lanes exchange data through LDS once a wave barrier orders them.
; RUN: mla-run --target emu --module %t.so --kernel divide --grid 1 \
; RUN:   --arg out=empty:64 --arg n=7 --save out=%t.divide.npy
; RUN: %amdref print %t.divide.npy | FileCheck %s --check-prefix=QUOTIENTS
; RUN: mla-run --target emu --module %t.so --kernel lanes_exchange_synced \
; RUN:   --grid 1 --arg out=empty:64 --arg n=0 --save out=%t.lanes.npy
; RUN: %amdref print %t.lanes.npy | FileCheck %s --check-prefix=SYNCED

; LDS: error: emu: kernel 'lds_out_of_bounds' workgroup (0,0,0): wave 0 lane 4 writes LDS bytes [256, 260), outside the workgroup's allocation of 256 bytes at `store i32 %tid, ptr addrspace(3) %p, align 4` in @lds_out_of_bounds
; GLOBAL: error: emu: kernel 'global_out_of_bounds' workgroup (0,0,0): wave 0 lane 0 reads 4 bytes at 0x{{[0-9a-f]+}}, outside the kernel's buffers (byte 256 of argument 'out', which has 256 bytes) at `%v = load i32, ptr addrspace(1) %p, align 4` in @global_out_of_bounds
; ALIGN: error: emu: kernel 'misaligned' workgroup (0,0,0): wave 0 lane 0 reads address 0x{{[0-9a-f]+}}, which is not aligned to the 4 bytes the access claims at `%v = load i32, ptr addrspace(1) %p, align 4` in @misaligned
; BARRIER: error: emu: kernel 'early_exit' workgroup (0,0,0): barrier not reached by every wave: wave 0 waits at the barrier at `call void @llvm.amdgcn.s.barrier()` in @early_exit, but wave 1 exited without reaching it
; LANES: error: emu: kernel 'lanes_exchange' workgroup (0,0,0): lanes 0 and 1 of wave 0 exchange data through LDS offset 0 with no wave-level synchronization (barrier, fence or cross-lane operation) between lane 0's write and lane 1's read; the emulator runs lanes one after another in between at `%v = load i32, ptr addrspace(3) @slot, align 4` in @lanes_exchange
; DIVIDE: error: emu: kernel 'divide' workgroup (0,0,0): wave 0 lane 0 divides by zero (or INT_MIN by -1), which is undefined at `%q = udiv i32 %tid, %n` in @divide
; TRAP: error: emu: kernel 'trap' workgroup (0,0,0): wave 0 lane 0 executed a trap at `call void @llvm.trap()` in @trap
; QUOTIENTS: {{^}}0 0 0 0 0 0 0 1 1 1 1 1 1 1 2 2{{$}}
; SYNCED-COUNT-4: {{^}}7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7{{$}}

target triple = "amdgcn-amd-amdhsa"

@words = internal addrspace(3) global [64 x i32] poison, align 4
@slot = internal addrspace(3) global i32 poison, align 4

; Lanes 4 and up write past the 64 words of LDS.
define amdgpu_kernel void @lds_out_of_bounds(ptr addrspace(1) %out, i32 %n) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i = add i32 %tid, 60
  %p = getelementptr [64 x i32], ptr addrspace(3) @words, i32 0, i32 %i
  store i32 %tid, ptr addrspace(3) %p, align 4
  ret void
}

define amdgpu_kernel void @global_out_of_bounds(ptr addrspace(1) %out, i32 %n) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i = add i32 %tid, 64
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  %v = load i32, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @misaligned(ptr addrspace(1) %out, i32 %n) #0 {
  %p = getelementptr i8, ptr addrspace(1) %out, i32 2
  %v = load i32, ptr addrspace(1) %p, align 4
  ret void
}

; Wave 1 leaves before the barrier wave 0 waits at.
define amdgpu_kernel void @early_exit(ptr addrspace(1) %out, i32 %n) #1 !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %late = icmp uge i32 %tid, 64
  br i1 %late, label %done, label %wait
wait:
  call void @llvm.amdgcn.s.barrier()
  br label %done
done:
  ret void
}

; Lane 0 writes a word the other lanes read with nothing ordering them.
define amdgpu_kernel void @lanes_exchange(ptr addrspace(1) %out, i32 %n) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %write, label %read
write:
  store i32 7, ptr addrspace(3) @slot, align 4
  br label %read
read:
  %v = load i32, ptr addrspace(3) @slot, align 4
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @lanes_exchange_synced(ptr addrspace(1) %out, i32 %n) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %write, label %read
write:
  store i32 7, ptr addrspace(3) @slot, align 4
  br label %read
read:
  call void @llvm.amdgcn.wave.barrier()
  %v = load i32, ptr addrspace(3) @slot, align 4
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @divide(ptr addrspace(1) %out, i32 %n) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = udiv i32 %tid, %n
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %q, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @trap(ptr addrspace(1) %out, i32 %n) #0 {
  call void @llvm.trap()
  unreachable
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.wave.barrier()
declare void @llvm.trap()

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
attributes #1 = { "amdgpu-flat-work-group-size"="128,128" }

!0 = !{i32 128, i32 1, i32 1}
