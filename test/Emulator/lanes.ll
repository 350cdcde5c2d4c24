; Cross-lane operations under emulation against the GFX9 ISA's definitions
; (utils/amdref.py): update.dpp with each kind of GFX9 DPP control, with
; bound_ctrl and with row and bank masks; ds_bpermute and ds_permute by
; random addresses; both ds_swizzle modes; readlane, readfirstlane,
; writelane and ballot; and 64-bit values, which move as two 32-bit words.
; Two waves of one workgroup each exchange among their own lanes only.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 %s -o /dev/null
; RUN: %amdref random %t.src.npy --dtype i4 --count 128 --values bits --seed 7
; RUN: %amdref random %t.address.npy --dtype i4 --count 128 --values bits --seed 8
; RUN: mla-emu-compile %s --chip=gfx942 -o %t.gfx942.so \
; RUN:   --arg-type=src=i32,address=i32,out=i32
; RUN: mla-run --target emu --module %t.gfx942.so --kernel lanes --grid 1 \
; RUN:   --arg src=@%t.src.npy --arg address=@%t.address.npy \
; RUN:   --arg out=empty:3968 --save out=%t.gfx942.npy > /dev/null
; RUN: %amdref check-lanes lanes %t.src.npy %t.address.npy %t.gfx942.npy | FileCheck %s
; RUN: mla-emu-compile %s --chip=gfx950 -o %t.gfx950.so \
; RUN:   --arg-type=src=i32,address=i32,out=i32
; RUN: mla-run --target emu --module %t.gfx950.so --kernel lanes --grid 1 \
; RUN:   --arg src=@%t.src.npy --arg address=@%t.address.npy \
; RUN:   --arg out=empty:3968 --save out=%t.gfx950.npy > /dev/null
; RUN: %amdref check-lanes lanes %t.src.npy %t.address.npy %t.gfx950.npy | FileCheck %s

; CHECK: check: lanes 128 lanes x 31 results PASS

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @lanes(ptr addrspace(1) %src, ptr addrspace(1) %address, ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %tid
  %v = load i32, ptr addrspace(1) %ps, align 4
  %pa = getelementptr i32, ptr addrspace(1) %address, i32 %tid
  %a = load i32, ptr addrspace(1) %pa, align 4
  %first = mul i32 %tid, 31
  ; quad_perm:[3,2,1,0]
  %dpp0 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 27, i32 15, i32 15, i1 false)
  ; quad_perm:[0,1,2,3]
  %dpp1 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 228, i32 15, i32 15, i1 false)
  ; row_shl:1
  %dpp2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 257, i32 15, i32 15, i1 false)
  ; row_shl:15
  %dpp3 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 271, i32 15, i32 15, i1 false)
  ; row_shr:1
  %dpp4 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 273, i32 15, i32 15, i1 false)
  ; row_shr:8
  %dpp5 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 280, i32 15, i32 15, i1 false)
  ; row_ror:1
  %dpp6 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 289, i32 15, i32 15, i1 false)
  ; row_ror:15
  %dpp7 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 303, i32 15, i32 15, i1 false)
  ; wave_shl:1
  %dpp8 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 304, i32 15, i32 15, i1 false)
  ; wave_rol:1
  %dpp9 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 308, i32 15, i32 15, i1 false)
  ; wave_shr:1
  %dpp10 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 312, i32 15, i32 15, i1 false)
  ; wave_ror:1
  %dpp11 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 316, i32 15, i32 15, i1 false)
  ; row_mirror
  %dpp12 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 320, i32 15, i32 15, i1 false)
  ; row_half_mirror
  %dpp13 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 321, i32 15, i32 15, i1 false)
  ; row_bcast:15
  %dpp14 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 322, i32 15, i32 15, i1 false)
  ; row_bcast:31
  %dpp15 = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 323, i32 15, i32 15, i1 false)
  %bound = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 273, i32 15, i32 15, i1 true)
  %masked = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %v, i32 257, i32 5, i32 3, i1 false)
  %bperm = call i32 @llvm.amdgcn.ds.bpermute(i32 %a, i32 %v)
  %quad = call i32 @llvm.amdgcn.ds.swizzle(i32 %v, i32 32945)
  %xor = call i32 @llvm.amdgcn.ds.swizzle(i32 %v, i32 1055)
  %read5 = call i32 @llvm.amdgcn.readlane.i32(i32 %v, i32 5)
  %readfirst = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %odd = trunc i32 %v to i1
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 %odd)
  %ballot.lo = trunc i64 %ballot to i32
  %ballot.shift = lshr i64 %ballot, 32
  %ballot.hi = trunc i64 %ballot.shift to i32
  %write7 = call i32 @llvm.amdgcn.writelane.i32(i32 1000, i32 7, i32 %v)
  %perm = call i32 @llvm.amdgcn.ds.permute(i32 %a, i32 %v)
  ; 64-bit values move as two 32-bit words.
  %hi = zext i32 %v to i64
  %hi.shift = shl i64 %hi, 32
  %lo = xor i32 %v, 65535
  %lo.wide = zext i32 %lo to i64
  %wide = or i64 %hi.shift, %lo.wide
  %dpp64 = call i64 @llvm.amdgcn.update.dpp.i64(i64 -1, i64 %wide, i32 273, i32 15, i32 15, i1 false)
  %dpp64.lo = trunc i64 %dpp64 to i32
  %dpp64.shift = lshr i64 %dpp64, 32
  %dpp64.hi = trunc i64 %dpp64.shift to i32
  %read64 = call i64 @llvm.amdgcn.readlane.i64(i64 %wide, i32 9)
  %read64.lo = trunc i64 %read64 to i32
  %read64.shift = lshr i64 %read64, 32
  %read64.hi = trunc i64 %read64.shift to i32
  %o0 = add i32 %first, 0
  %p0 = getelementptr i32, ptr addrspace(1) %out, i32 %o0
  store i32 %dpp0, ptr addrspace(1) %p0, align 4
  %o1 = add i32 %first, 1
  %p1 = getelementptr i32, ptr addrspace(1) %out, i32 %o1
  store i32 %dpp1, ptr addrspace(1) %p1, align 4
  %o2 = add i32 %first, 2
  %p2 = getelementptr i32, ptr addrspace(1) %out, i32 %o2
  store i32 %dpp2, ptr addrspace(1) %p2, align 4
  %o3 = add i32 %first, 3
  %p3 = getelementptr i32, ptr addrspace(1) %out, i32 %o3
  store i32 %dpp3, ptr addrspace(1) %p3, align 4
  %o4 = add i32 %first, 4
  %p4 = getelementptr i32, ptr addrspace(1) %out, i32 %o4
  store i32 %dpp4, ptr addrspace(1) %p4, align 4
  %o5 = add i32 %first, 5
  %p5 = getelementptr i32, ptr addrspace(1) %out, i32 %o5
  store i32 %dpp5, ptr addrspace(1) %p5, align 4
  %o6 = add i32 %first, 6
  %p6 = getelementptr i32, ptr addrspace(1) %out, i32 %o6
  store i32 %dpp6, ptr addrspace(1) %p6, align 4
  %o7 = add i32 %first, 7
  %p7 = getelementptr i32, ptr addrspace(1) %out, i32 %o7
  store i32 %dpp7, ptr addrspace(1) %p7, align 4
  %o8 = add i32 %first, 8
  %p8 = getelementptr i32, ptr addrspace(1) %out, i32 %o8
  store i32 %dpp8, ptr addrspace(1) %p8, align 4
  %o9 = add i32 %first, 9
  %p9 = getelementptr i32, ptr addrspace(1) %out, i32 %o9
  store i32 %dpp9, ptr addrspace(1) %p9, align 4
  %o10 = add i32 %first, 10
  %p10 = getelementptr i32, ptr addrspace(1) %out, i32 %o10
  store i32 %dpp10, ptr addrspace(1) %p10, align 4
  %o11 = add i32 %first, 11
  %p11 = getelementptr i32, ptr addrspace(1) %out, i32 %o11
  store i32 %dpp11, ptr addrspace(1) %p11, align 4
  %o12 = add i32 %first, 12
  %p12 = getelementptr i32, ptr addrspace(1) %out, i32 %o12
  store i32 %dpp12, ptr addrspace(1) %p12, align 4
  %o13 = add i32 %first, 13
  %p13 = getelementptr i32, ptr addrspace(1) %out, i32 %o13
  store i32 %dpp13, ptr addrspace(1) %p13, align 4
  %o14 = add i32 %first, 14
  %p14 = getelementptr i32, ptr addrspace(1) %out, i32 %o14
  store i32 %dpp14, ptr addrspace(1) %p14, align 4
  %o15 = add i32 %first, 15
  %p15 = getelementptr i32, ptr addrspace(1) %out, i32 %o15
  store i32 %dpp15, ptr addrspace(1) %p15, align 4
  %o16 = add i32 %first, 16
  %p16 = getelementptr i32, ptr addrspace(1) %out, i32 %o16
  store i32 %bound, ptr addrspace(1) %p16, align 4
  %o17 = add i32 %first, 17
  %p17 = getelementptr i32, ptr addrspace(1) %out, i32 %o17
  store i32 %masked, ptr addrspace(1) %p17, align 4
  %o18 = add i32 %first, 18
  %p18 = getelementptr i32, ptr addrspace(1) %out, i32 %o18
  store i32 %bperm, ptr addrspace(1) %p18, align 4
  %o19 = add i32 %first, 19
  %p19 = getelementptr i32, ptr addrspace(1) %out, i32 %o19
  store i32 %quad, ptr addrspace(1) %p19, align 4
  %o20 = add i32 %first, 20
  %p20 = getelementptr i32, ptr addrspace(1) %out, i32 %o20
  store i32 %xor, ptr addrspace(1) %p20, align 4
  %o21 = add i32 %first, 21
  %p21 = getelementptr i32, ptr addrspace(1) %out, i32 %o21
  store i32 %read5, ptr addrspace(1) %p21, align 4
  %o22 = add i32 %first, 22
  %p22 = getelementptr i32, ptr addrspace(1) %out, i32 %o22
  store i32 %readfirst, ptr addrspace(1) %p22, align 4
  %o23 = add i32 %first, 23
  %p23 = getelementptr i32, ptr addrspace(1) %out, i32 %o23
  store i32 %ballot.lo, ptr addrspace(1) %p23, align 4
  %o24 = add i32 %first, 24
  %p24 = getelementptr i32, ptr addrspace(1) %out, i32 %o24
  store i32 %ballot.hi, ptr addrspace(1) %p24, align 4
  %o25 = add i32 %first, 25
  %p25 = getelementptr i32, ptr addrspace(1) %out, i32 %o25
  store i32 %write7, ptr addrspace(1) %p25, align 4
  %o26 = add i32 %first, 26
  %p26 = getelementptr i32, ptr addrspace(1) %out, i32 %o26
  store i32 %perm, ptr addrspace(1) %p26, align 4
  %o27 = add i32 %first, 27
  %p27 = getelementptr i32, ptr addrspace(1) %out, i32 %o27
  store i32 %dpp64.lo, ptr addrspace(1) %p27, align 4
  %o28 = add i32 %first, 28
  %p28 = getelementptr i32, ptr addrspace(1) %out, i32 %o28
  store i32 %dpp64.hi, ptr addrspace(1) %p28, align 4
  %o29 = add i32 %first, 29
  %p29 = getelementptr i32, ptr addrspace(1) %out, i32 %o29
  store i32 %read64.lo, ptr addrspace(1) %p29, align 4
  %o30 = add i32 %first, 30
  %p30 = getelementptr i32, ptr addrspace(1) %out, i32 %o30
  store i32 %read64.hi, ptr addrspace(1) %p30, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i64 @llvm.amdgcn.update.dpp.i64(i64, i64, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.ds.permute(i32, i32)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i64 @llvm.amdgcn.readlane.i64(i64, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.writelane.i32(i32, i32, i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)

!0 = !{i32 128, i32 1, i32 1}
