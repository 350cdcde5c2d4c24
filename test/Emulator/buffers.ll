; Buffer resources under emulation: raw buffer loads and stores are
; bounds-checked against num_records in bytes (voffset only; soffset is
; not checked): a load entirely out of range returns 0, a store entirely
; out of range is dropped, and one partly out of range is reported, since
; chips differ there (shared/AMD.md). Buffer fat pointers (addrspace 7) go
; through the AMDGPU backend's own lowering first. Loads to LDS place each
; lane's bytes at the wave's LDS base plus the lane times the size; the
; reads carry no alias metadata, so they wait for the loads first, as the
; backend makes them (lds-async.ll).
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o /dev/null
; RUN: mla-emu-compile %s --chip=gfx950 --workgroup-size=64 -o %t.so \
; RUN:   --arg-type=in=f32,out=f32,out2=f32
; RUN: %amdref random %t.in.npy --dtype f4 --count 256 --values iota
;
; 592 bytes: lanes 0-36 load their 16 bytes, lanes 37-63 get zeros; the
; store with 320 bytes writes lanes 0-19 only (the rest stay NaN).
; RUN: mla-run --target emu --module %t.so --kernel load_store --grid 1 \
; RUN:   --arg in=@%t.in.npy --arg out=empty:256 --arg out2=empty:256 \
; RUN:   --save out=%t.out.npy --save out2=%t.out2.npy > /dev/null
; RUN: %amdref print %t.out.npy --per-line 4 | FileCheck %s --check-prefix=LOAD
; RUN: %amdref print %t.out2.npy --per-line 4 | FileCheck %s --check-prefix=STORE
; LOAD:      {{^}}1.0 2.0 3.0 4.0{{$}}
; LOAD:      {{^}}145.0 146.0 147.0 148.0{{$}}
; LOAD-NEXT: {{^}}0.0 0.0 0.0 0.0{{$}}
; LOAD:      {{^}}0.0 0.0 0.0 0.0{{$}}
; LOAD-NOT:  {{[1-9]}}
; STORE:      {{^}}1.0 2.0 3.0 4.0{{$}}
; STORE:      {{^}}77.0 78.0 79.0 80.0{{$}}
; STORE-NEXT: {{^}}nan nan nan nan{{$}}
;
; RUN: not mla-run --target emu --module %t.so --kernel partial --grid 1 \
; RUN:   --arg in=@%t.in.npy --arg out=empty:256 --arg out2=empty:256 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PARTIAL
; PARTIAL: error: emu: kernel 'partial' workgroup (0,0,0): wave 0 lane 0 reads buffer bytes [0, 16), partly beyond num_records 8: the hardware's result depends on the chip at `%v = call <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.v4f32(ptr addrspace(8) %r, i32 0, i32 0, i32 0)` in @partial
;
; RUN: mla-run --target emu --module %t.so --kernel fat_pointer --grid 1 \
; RUN:   --arg in=@%t.in.npy --arg out=empty:256 --arg out2=empty:256 \
; RUN:   --save out=%t.fat.npy > /dev/null
; RUN: %amdref print %t.fat.npy --per-line 4 | FileCheck %s --check-prefix=FAT
; FAT:      {{^}}0.0 1.0 2.0 3.0{{$}}
; FAT:      {{^}}124.0 125.0 126.0 127.0{{$}}
; FAT-NEXT: {{^}}0.0 0.0 0.0 0.0{{$}}
;
; RUN: mla-run --target emu --module %t.so --kernel to_lds --grid 1 \
; RUN:   --arg in=@%t.in.npy --arg out=empty:256 --arg out2=empty:256 \
; RUN:   --save out=%t.lds.npy --save out2=%t.lds2.npy > /dev/null
; RUN: %amdref print %t.lds.npy --per-line 4 | FileCheck %s --check-prefix=TOLDS
; RUN: %amdref print %t.lds2.npy --per-line 4 | FileCheck %s --check-prefix=TOLDS
; TOLDS:      {{^}}0.0 1.0 2.0 3.0{{$}}
; TOLDS-NEXT: {{^}}4.0 5.0 6.0 7.0{{$}}
; TOLDS:      {{^}}252.0 253.0 254.0 255.0{{$}}

target triple = "amdgcn-amd-amdhsa"

@staging = internal addrspace(3) global [64 x <4 x float>] poison, align 16

define amdgpu_kernel void @load_store(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %voffset = mul i32 %tid, 16
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 592, i32 0)
  ; soffset 4: every lane reads one float further on.
  %v = call <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.v4f32(ptr addrspace(8) %r, i32 %voffset, i32 4, i32 0)
  %p = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %v, ptr addrspace(1) %p, align 16
  %s = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %out2, i16 0, i64 320, i32 0)
  call void @llvm.amdgcn.raw.ptr.buffer.store.v4f32(<4 x float> %v, ptr addrspace(8) %s, i32 %voffset, i32 0, i32 0)
  ret void
}

define amdgpu_kernel void @partial(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2) #0 {
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 8, i32 0)
  %v = call <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.v4f32(ptr addrspace(8) %r, i32 0, i32 0, i32 0)
  store <4 x float> %v, ptr addrspace(1) %out, align 16
  ret void
}

; A fat pointer over the first 512 bytes of `in`.
define amdgpu_kernel void @fat_pointer(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 512, i32 0)
  %fat = addrspacecast ptr addrspace(8) %r to ptr addrspace(7)
  %q = getelementptr <4 x float>, ptr addrspace(7) %fat, i32 %tid
  %v = load <4 x float>, ptr addrspace(7) %q, align 16
  %p = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %v, ptr addrspace(1) %p, align 16
  ret void
}

; Each lane moves 16 bytes to LDS, through a buffer and straight from
; global memory, then reads its own slot back.
define amdgpu_kernel void @to_lds(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %out2) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %voffset = mul i32 %tid, 16
  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 1024, i32 0)
  call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %r, ptr addrspace(3) @staging, i32 16, i32 %voffset, i32 0, i32 0, i32 0)
  %slot = getelementptr <4 x float>, ptr addrspace(3) @staging, i32 %tid
  %v = load <4 x float>, ptr addrspace(3) %slot, align 16
  %p = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %v, ptr addrspace(1) %p, align 16
  call void @llvm.amdgcn.wave.barrier()
  %src = getelementptr <4 x float>, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) @staging, i32 16, i32 0, i32 0)
  %w = load <4 x float>, ptr addrspace(3) %slot, align 16
  %p2 = getelementptr <4 x float>, ptr addrspace(1) %out2, i32 %tid
  store <4 x float> %w, ptr addrspace(1) %p2, align 16
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.wave.barrier()
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
declare <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.v4f32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.v4f32(<4 x float>, ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8), ptr addrspace(3), i32, i32, i32, i32, i32)
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
