; Loads to LDS are asynchronous, as on the chip: the destination holds the
; LDS poison (NaN) from the issue until the lane's s_waitcnt vmcnt(N) lands
; every load older than its N most recent vector-memory operations. Reads
; below carry alias metadata (!alias.scope, !noalias) that keeps the
; backend from waiting for the loads before them; reads without it wait
; (buffers.ll). 3952 + N is what `amdgpu.memory_counter_wait load(N)`
; lowers to for gfx950 (vmcnt in bits 3:0 and 15:14), 112 + N
; `load(N) ds(0)` (lgkmcnt in bits 11:8).
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o /dev/null
; RUN: mla-emu-compile %s --chip=gfx950 -o %t.so \
; RUN:   --arg-type=in=f32,out=f32,out2=f32
; RUN: %amdref random %t.in.npy --dtype f4 --count 512 --values iota
; DEFINE: %{run} = mla-run --target emu --module %t.so --grid 1 \
; DEFINE:   --arg in=@%t.in.npy --arg out=empty:512 --arg out2=empty:512 \
; DEFINE:   --arg n=4
;
; A read before the wait sees NaN; vmcnt(16) leaves a lone load in flight.
; RUN: %{run} --kernel before_wait --arg k=0 --save out=%t.before.npy > /dev/null
; RUN: %amdref print %t.before.npy --per-line 64 \
; RUN:   | FileCheck %s --check-prefix=NAN --implicit-check-not={{[0-9]}}
; NAN-COUNT-8: {{^(nan ){63}nan$}}
;
; After vmcnt(0) every lane of the wave has its data: each reads the next
; lane's.
; RUN: %{run} --kernel after_wait --arg k=0 --save out=%t.after.npy > /dev/null
; RUN: %amdref print %t.after.npy --per-line 64 | FileCheck %s --check-prefix=AFTER
; AFTER: {{^}}1.0 2.0 3.0 {{.*}} 62.0 63.0 0.0{{$}}
;
; With two loads in flight, vmcnt(1) lands the older one only.
; RUN: %{run} --kernel two_in_flight --arg k=0 --save out=%t.older.npy \
; RUN:   --save out2=%t.newer.npy > /dev/null
; RUN: %amdref print %t.older.npy --per-line 64 | FileCheck %s --check-prefix=OLDER
; RUN: %amdref print %t.newer.npy --per-line 64 \
; RUN:   | FileCheck %s --check-prefix=NAN --implicit-check-not={{[0-9]}}
; OLDER: {{^}}0.0 1.0 2.0 {{.*}} 62.0 63.0{{$}}
;
; A lane that returns with a load in flight fails, naming the load; a wait
; on the LDS counter only (vmcnt 63) does not land it.
; RUN: not %{run} --kernel never_waits --arg k=0 2>&1 | FileCheck %s --check-prefix=NEVER
; NEVER: error: emu: kernel 'never_waits' workgroup (0,0,0): wave 0 lane 0 returned, but its load to LDS at `call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0)` in @never_waits was never waited for (s_waitcnt vmcnt){{$}}
;
; So does a lane that issues a 64th load to LDS before waiting for any.
; RUN: not %{run} --kernel too_many --arg k=0 2>&1 | FileCheck %s --check-prefix=MANY
; MANY: error: emu: kernel 'too_many' workgroup (0,0,0): wave 0 lane 0 issues a load to LDS with 63 already in flight; the emulator keeps at most as many as vmcnt counts (wait with s_waitcnt vmcnt) at `call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0)` in @too_many{{$}}
;
; Another wave reading the destination with no barrier after the issue
; races with the load, waited for or not.
; RUN: not %{run} --kernel no_barrier --arg k=0 2>&1 | FileCheck %s --check-prefix=NOBARRIER
; NOBARRIER: error: emu: kernel 'no_barrier' workgroup (0,0,0): LDS race at offset 0: wave 0 wrote it at `call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0)` in @no_barrier, and wave 1 reads it at `%v = load float, ptr addrspace(3) %p, align 4` in @no_barrier, with no barrier in between
;
; So does a read after the barrier when the wait comes after it too: the
; load lands in the reader's epoch.
; RUN: not %{run} --kernel wait_after_barrier --arg k=0 2>&1 | FileCheck %s --check-prefix=LATE
; LATE: error: emu: kernel 'wait_after_barrier' workgroup (0,0,0): LDS race at offset 0: wave 0 wrote it at `call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0)` in @wait_after_barrier, and wave 1 reads it at `%v = load float, ptr addrspace(3) %p, align 4` in @wait_after_barrier, with no barrier in between
;
; Double buffering over n = 4 tiles of 128 floats: each wave copies its
; half of tile t + 1 into one buffer while reading the other wave's half
; of tile t from the other, stores it, waits vmcnt(1) (the store may stay
; in flight) and lgkmcnt(0) (its LDS read is complete before the other
; wave's next copy may overwrite what it read) and meets the other wave at
; the barrier. out[i] = in[i ^ 64].
; RUN: %{run} --kernel double_buffer --arg k=1 --save out=%t.double.npy > /dev/null
; RUN: %amdref print %t.double.npy --per-line 64 | FileCheck %s --check-prefix=DOUBLE
; DOUBLE:      {{^}}64.0 65.0 {{.*}} 127.0{{$}}
; DOUBLE-NEXT: {{^}}0.0 1.0 {{.*}} 63.0{{$}}
; DOUBLE-NEXT: {{^}}192.0 193.0 {{.*}} 255.0{{$}}
; DOUBLE-NEXT: {{^}}128.0 129.0 {{.*}} 191.0{{$}}
; DOUBLE-NEXT: {{^}}320.0 321.0 {{.*}} 383.0{{$}}
; DOUBLE-NEXT: {{^}}256.0 257.0 {{.*}} 319.0{{$}}
; DOUBLE-NEXT: {{^}}448.0 449.0 {{.*}} 511.0{{$}}
; DOUBLE-NEXT: {{^}}384.0 385.0 {{.*}} 447.0{{$}}
; DOUBLE-NOT: {{.}}
;
; vmcnt(2) leaves the copy in flight past the barrier, which therefore
; does not publish it: the other wave's read after it races with it.
; RUN: not %{run} --kernel double_buffer --arg k=2 2>&1 | FileCheck %s --check-prefix=WEAK
; WEAK: error: emu: kernel 'double_buffer' workgroup (0,0,0): LDS race at offset 768: wave 1 wrote it at `call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %r, ptr addrspace(3) %next.half, i32 4, i32 %voffset, i32 0, i32 0, i32 0), !alias.scope !{{[0-9]+}}, !no...` in @double_buffer, and wave 0 reads it at `%v = load float, ptr addrspace(3) %p, align 4, !alias.scope !{{[0-9]+}}, !noalias !{{[0-9]+}}` in @double_buffer, after a barrier that wave 1 reached before that access completed (LDS accesses complete at s_waitcnt lgkmcnt(0) or a release of LDS at workgroup scope, a load to LDS at its s_waitcnt vmcnt)
;
; A release fence that orders LDS (amdgpu.lds_barrier's) waits for the
; wave's loads to LDS, as the backend makes it (s_waitcnt vmcnt(0)).
; RUN: %{run} --kernel fence_drains --arg k=0 --save out=%t.fence.npy > /dev/null
; RUN: %amdref print %t.fence.npy --per-line 64 | FileCheck %s --check-prefix=FENCE
; FENCE:      {{^}}64.0 65.0 {{.*}} 127.0{{$}}
; FENCE-NEXT: {{^}}0.0 1.0 {{.*}} 63.0{{$}}

target triple = "amdgcn-amd-amdhsa"

@a = internal addrspace(3) global [128 x float] poison, align 16
@b = internal addrspace(3) global [128 x float] poison, align 16
@buffers = internal addrspace(3) global [2 x [128 x float]] poison, align 16

define amdgpu_kernel void @before_wait(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr float, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0), !alias.scope !5, !noalias !2
  ; vmcnt(16): bit 14 holds vmcnt's bit 4.
  call void @llvm.amdgcn.s.waitcnt(i32 20336)
  %p = getelementptr float, ptr addrspace(3) @a, i32 %tid
  %v = load float, ptr addrspace(3) %p, align 4, !alias.scope !2, !noalias !5
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v, ptr addrspace(1) %o, align 4
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  ret void
}

define amdgpu_kernel void @after_wait(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr float, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0), !alias.scope !5, !noalias !2
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  %next = add i32 %tid, 1
  %lane = and i32 %next, 63
  %p = getelementptr float, ptr addrspace(3) @a, i32 %lane
  %v = load float, ptr addrspace(3) %p, align 4, !alias.scope !2, !noalias !5
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v, ptr addrspace(1) %o, align 4
  ret void
}

define amdgpu_kernel void @two_in_flight(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr float, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0), !alias.scope !5, !noalias !2
  %src2 = getelementptr float, ptr addrspace(1) %src, i32 64
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src2, ptr addrspace(3) @b, i32 4, i32 0, i32 0), !alias.scope !5, !noalias !2
  call void @llvm.amdgcn.s.waitcnt(i32 3953)
  %pa = getelementptr float, ptr addrspace(3) @a, i32 %tid
  %va = load float, ptr addrspace(3) %pa, align 4, !alias.scope !2, !noalias !5
  %pb = getelementptr float, ptr addrspace(3) @b, i32 %tid
  %vb = load float, ptr addrspace(3) %pb, align 4, !alias.scope !2, !noalias !5
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %va, ptr addrspace(1) %o, align 4
  %o2 = getelementptr float, ptr addrspace(1) %out2, i32 %tid
  store float %vb, ptr addrspace(1) %o2, align 4
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  ret void
}

define amdgpu_kernel void @never_waits(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr float, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0)
  ; amdgpu.memory_counter_wait ds(0): lgkmcnt(0), vmcnt 63.
  call void @llvm.amdgcn.s.waitcnt(i32 49279)
  ret void
}

define amdgpu_kernel void @too_many(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr float, ptr addrspace(1) %in, i32 %tid
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0)
  %i.next = add i32 %i, 1
  %again = icmp ult i32 %i.next, 64
  br i1 %again, label %loop, label %done
done:
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  ret void
}

; Wave 0 loads a[0..63]; wave 1 reads it before the barrier.
define amdgpu_kernel void @no_barrier(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !1 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %tid, 63
  %second = icmp uge i32 %tid, 64
  br i1 %second, label %read, label %load
load:
  %src = getelementptr float, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0)
  br label %join
read:
  %p = getelementptr float, ptr addrspace(3) @a, i32 %lane
  %v = load float, ptr addrspace(3) %p, align 4
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v, ptr addrspace(1) %o, align 4
  br label %join
join:
  call void @llvm.amdgcn.s.barrier()
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  ret void
}

; Wave 0 loads a[0..63] and waits only after the barrier; wave 1 reads it
; after the barrier.
define amdgpu_kernel void @wait_after_barrier(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !1 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %tid, 63
  %second = icmp uge i32 %tid, 64
  br i1 %second, label %wait, label %load
load:
  %src = getelementptr float, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @a, i32 4, i32 0, i32 0)
  br label %wait
wait:
  call void @llvm.amdgcn.s.barrier()
  br i1 %second, label %read, label %done
read:
  %p = getelementptr float, ptr addrspace(3) @a, i32 %lane
  %v = load float, ptr addrspace(3) %p, align 4
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v, ptr addrspace(1) %o, align 4
  br label %done
done:
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  ret void
}

; Tile t is in[128 t .. 128 t + 127]; buffer t % 2 holds it in iteration t.
; Each wave loads its half at its own base (lane slots follow the base).
; %k selects the wait: vmcnt(1) or the too weak vmcnt(2), with lgkmcnt(0).
define amdgpu_kernel void @double_buffer(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !1 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %half = and i32 %tid, 64
  %partner = xor i32 %tid, 64
  %bytes = mul i32 %n, 512
  %bytes64 = zext i32 %bytes to i64
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 %bytes64, i32 0)
  %first.half = getelementptr float, ptr addrspace(3) @buffers, i32 %half
  %voffset0 = mul i32 %tid, 4
  call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %r, ptr addrspace(3) %first.half, i32 4, i32 %voffset0, i32 0, i32 0, i32 0), !alias.scope !5, !noalias !2
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  call void @llvm.amdgcn.s.barrier()
  br label %loop
loop:
  %t = phi i32 [ 0, %entry ], [ %t.next, %latch ]
  %t.next = add i32 %t, 1
  %cur.index = and i32 %t, 1
  %next.index = xor i32 %cur.index, 1
  %more = icmp ult i32 %t.next, %n
  br i1 %more, label %copy, label %compute
copy:
  %next.half = getelementptr [2 x [128 x float]], ptr addrspace(3) @buffers, i32 0, i32 %next.index, i32 %half
  %tile = mul i32 %t.next, 128
  %element = add i32 %tile, %tid
  %voffset = mul i32 %element, 4
  call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %r, ptr addrspace(3) %next.half, i32 4, i32 %voffset, i32 0, i32 0, i32 0), !alias.scope !5, !noalias !2
  br label %compute
compute:
  %p = getelementptr [2 x [128 x float]], ptr addrspace(3) @buffers, i32 0, i32 %cur.index, i32 %partner
  %v = load float, ptr addrspace(3) %p, align 4, !alias.scope !2, !noalias !5
  %row = mul i32 %t, 128
  %index = add i32 %row, %tid
  %o = getelementptr float, ptr addrspace(1) %out, i32 %index
  store float %v, ptr addrspace(1) %o, align 4
  %weak = icmp eq i32 %k, 2
  br i1 %weak, label %wait2, label %wait1
wait1:
  call void @llvm.amdgcn.s.waitcnt(i32 113)
  br label %latch
wait2:
  call void @llvm.amdgcn.s.waitcnt(i32 114)
  br label %latch
latch:
  call void @llvm.amdgcn.s.barrier()
  br i1 %more, label %loop, label %exit
exit:
  call void @llvm.amdgcn.s.waitcnt(i32 3952)
  ret void
}

; Both waves load their half through load.to.lds (amdgpu.gather_to_lds),
; synchronize as amdgpu.lds_barrier does and read the other's half.
define amdgpu_kernel void @fence_drains(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2, i32 %n, i32 %k) !reqd_work_group_size !1 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %half = and i32 %tid, 64
  %src = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %dst = getelementptr float, ptr addrspace(3) @a, i32 %half
  call void @llvm.amdgcn.load.to.lds.p1(ptr addrspace(1) %src, ptr addrspace(3) %dst, i32 4, i32 0, i32 0), !alias.scope !5, !noalias !2
  fence syncscope("workgroup") release, !mmra !6
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire, !mmra !6
  %partner = xor i32 %tid, 64
  %p = getelementptr float, ptr addrspace(3) @a, i32 %partner
  %v = load float, ptr addrspace(3) %p, align 4, !alias.scope !2, !noalias !5
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v, ptr addrspace(1) %o, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.s.waitcnt(i32 immarg)
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8), ptr addrspace(3), i32, i32, i32, i32, i32)
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)
declare void @llvm.amdgcn.load.to.lds.p1(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)

!0 = !{i32 64, i32 1, i32 1}
!1 = !{i32 128, i32 1, i32 1}
; Scopes of the reads (!2) and of the loads to LDS (!5), in one domain.
!2 = !{!3}
!3 = distinct !{!3, !4, !"reads"}
!4 = distinct !{!4, !"lds"}
!5 = !{!7}
!6 = !{!"amdgpu-synchronize-as", !"local"}
!7 = distinct !{!7, !4, !"loads to lds"}
