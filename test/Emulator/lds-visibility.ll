; Another wave sees an LDS store only once its wave has completed it and
; then reached a barrier (docs/emulation.md, "LDS visibility"). Two waves
; exchange halves of a 128-entry LDS array through the barrier sequences
; of the GPU lowering: the one it had (a wavefront-scoped release, then
; s_barrier) and the one it has (the release, s_waitcnt lgkmcnt(0), then
; s_barrier), in straight code and in a loop whose store at the end of the
; body meets the barrier at its top. 49279 is `s_waitcnt lgkmcnt(0)` for
; gfx9 (what `amdgpu.memory_counter_wait ds(0)` lowers to).
;
; Statically (utils/lds_barriers.py on the machine code of both chips),
; the old sequence reaches its barriers with the store in flight: in the
; loop, the store at the end of a round reaches both barriers of the next
; (with the read in flight at the second, where the backend moved the
; read's use past it); the new one and a workgroup-scoped release (which
; also waits for every copy into LDS) do not. The check holds every
; barrier to it, so it also reports the first barrier of
; exchange_later_wait, which publishes nothing that is read before the
; second.
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %s -o %t.950.o
; RUN: not %lds_barriers %t.950.o | FileCheck %s --check-prefix=STATIC
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %s -o %t.942.o
; RUN: not %lds_barriers %t.942.o --mcpu gfx942 | FileCheck %s --check-prefix=STATIC
; STATIC:      exchange_wavefront_release+0x{{[0-9a-f]+}}: s_barrier reached with ds_write_b32 at +0x{{[0-9a-f]+}} in flight
; STATIC-NEXT: exchange_later_wait+0x{{[0-9a-f]+}}: s_barrier reached with ds_write_b32 at +0x{{[0-9a-f]+}} in flight
; STATIC-NEXT: loop_wavefront_release+0x{{[0-9a-f]+}}: s_barrier reached with ds_write_b32 at +0x[[STORE:[0-9a-f]+]] in flight
; STATIC-NEXT: loop_wavefront_release+0x{{[0-9a-f]+}}: s_barrier reached with ds_write_b32 at +0x[[STORE]] in flight
; STATIC-NEXT: {{.*}}: 9 barriers in 6 kernels; 4 reached with an LDS write in flight, 0 more with an LDS read in flight
;
; Under emulation the old sequence is a race, reported at the other wave's
; access after the barrier: a read of the store, or in the loop a store
; over the read; the new one passes, and so do the others.
; RUN: mla-emu-compile %s --chip=gfx950 -o %t.so --arg-type=out=i32
; DEFINE: %{run} = mla-run --target emu --module %t.so --grid 1 --arg out=empty:128
; RUN: not %{run} --kernel exchange_wavefront_release 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RACE
; RACE: mla-run: error: emu: kernel 'exchange_wavefront_release' workgroup (0,0,0): LDS race at offset 256: wave 1 wrote it at `store i32 %tid, ptr addrspace(3) %own, align 4` in @exchange_wavefront_release, and wave 0 reads it at `%v = load i32, ptr addrspace(3) %other, align 4` in @exchange_wavefront_release, after a barrier that wave 1 reached before that access completed (LDS accesses complete at s_waitcnt lgkmcnt(0) or a release of LDS at workgroup scope, a load to LDS at its s_waitcnt vmcnt){{$}}
; RUN: not %{run} --kernel loop_wavefront_release 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LOOPRACE
; LOOPRACE: mla-run: error: emu: kernel 'loop_wavefront_release' workgroup (0,0,0): LDS race at offset 0: wave 1 read it at `%v = load i32, ptr addrspace(3) %other, align 4` in @loop_wavefront_release, and wave 0 writes it at `store i32 %sum, ptr addrspace(3) %own, align 4` in @loop_wavefront_release, after a barrier that wave 1 reached before that access completed
;
; RUN: %{run} --kernel exchange_lds_wait --save out=%t.wait.npy > /dev/null
; RUN: %amdref print %t.wait.npy --per-line 64 | FileCheck %s --check-prefix=EXCHANGE
; RUN: %{run} --kernel exchange_workgroup_release --save out=%t.release.npy > /dev/null
; RUN: %amdref print %t.release.npy --per-line 64 | FileCheck %s --check-prefix=EXCHANGE
; RUN: %{run} --kernel exchange_later_wait --save out=%t.later.npy > /dev/null
; RUN: %amdref print %t.later.npy --per-line 64 | FileCheck %s --check-prefix=EXCHANGE
; EXCHANGE:      {{^}}64 65 66 {{.*}} 127{{$}}
; EXCHANGE-NEXT: {{^}}0 1 2 {{.*}} 63{{$}}
;
; Three rounds in which each work-item adds its partner's entry to its
; own: 4 * (tid + (tid ^ 64)).
; RUN: %{run} --kernel loop_lds_wait --save out=%t.loop.npy > /dev/null
; RUN: %amdref print %t.loop.npy --per-line 64 | FileCheck %s --check-prefix=LOOP
; LOOP:      {{^}}256 264 272 {{.*}} 760{{$}}
; LOOP-NEXT: {{^}}256 264 272 {{.*}} 760{{$}}

target triple = "amdgcn-amd-amdhsa"

@buf = internal addrspace(3) global [128 x i32] poison, align 4

define amdgpu_kernel void @exchange_wavefront_release(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %own = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %own, align 4
  fence syncscope("wavefront") release, !mmra !1
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !1
  %partner = xor i32 %tid, 64
  %other = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %partner
  %v = load i32, ptr addrspace(3) %other, align 4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

define amdgpu_kernel void @exchange_lds_wait(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %own = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %own, align 4
  fence syncscope("wavefront") release, !mmra !1
  call void @llvm.amdgcn.s.waitcnt(i32 49279)
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !1
  %partner = xor i32 %tid, 64
  %other = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %partner
  %v = load i32, ptr addrspace(3) %other, align 4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

; The backend makes this release wait for lgkmcnt(0) (and vmcnt(0)).
define amdgpu_kernel void @exchange_workgroup_release(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %own = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %own, align 4
  fence syncscope("workgroup") release, !mmra !1
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !1
  %partner = xor i32 %tid, 64
  %other = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %partner
  %v = load i32, ptr addrspace(3) %other, align 4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

; The first barrier publishes nothing; the wait after it completes the
; store, and the second barrier publishes it.
define amdgpu_kernel void @exchange_later_wait(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %own = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %own, align 4
  fence syncscope("wavefront") release, !mmra !1
  call void @llvm.amdgcn.s.barrier()
  call void @llvm.amdgcn.s.waitcnt(i32 49279)
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !1
  %partner = xor i32 %tid, 64
  %other = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %partner
  %v = load i32, ptr addrspace(3) %other, align 4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

; Each round: barrier, read the partner's entry, barrier, store the sum as
; one's own. With the old sequence, the read meets the second barrier in
; flight (the partner's store after it may overtake it), and the store at
; the end of a round meets the next round's first barrier in flight.
define amdgpu_kernel void @loop_wavefront_release(ptr addrspace(1) %out) !reqd_work_group_size !0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %own = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  %partner = xor i32 %tid, 64
  %other = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %partner
  store i32 %tid, ptr addrspace(3) %own, align 4
  call void @llvm.amdgcn.s.waitcnt(i32 49279)
  br label %round
round:
  %i = phi i32 [ 0, %entry ], [ %next, %round ]
  %acc = phi i32 [ %tid, %entry ], [ %sum, %round ]
  fence syncscope("wavefront") release, !mmra !1
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !1
  %v = load i32, ptr addrspace(3) %other, align 4
  %sum = add i32 %acc, %v
  fence syncscope("wavefront") release, !mmra !1
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !1
  store i32 %sum, ptr addrspace(3) %own, align 4
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, 3
  br i1 %more, label %round, label %done
done:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %sum, ptr addrspace(1) %o, align 4
  ret void
}

define amdgpu_kernel void @loop_lds_wait(ptr addrspace(1) %out) !reqd_work_group_size !0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %own = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  %partner = xor i32 %tid, 64
  %other = getelementptr [128 x i32], ptr addrspace(3) @buf, i32 0, i32 %partner
  store i32 %tid, ptr addrspace(3) %own, align 4
  br label %round
round:
  %i = phi i32 [ 0, %entry ], [ %next, %round ]
  %acc = phi i32 [ %tid, %entry ], [ %sum, %round ]
  fence syncscope("wavefront") release, !mmra !1
  call void @llvm.amdgcn.s.waitcnt(i32 49279)
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !1
  %v = load i32, ptr addrspace(3) %other, align 4
  %sum = add i32 %acc, %v
  fence syncscope("wavefront") release, !mmra !1
  call void @llvm.amdgcn.s.waitcnt(i32 49279)
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !1
  store i32 %sum, ptr addrspace(3) %own, align 4
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, 3
  br i1 %more, label %round, label %done
done:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %sum, ptr addrspace(1) %o, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.s.waitcnt(i32)

!0 = !{i32 128, i32 1, i32 1}
!1 = !{!"amdgpu-synchronize-as", !"local"}
