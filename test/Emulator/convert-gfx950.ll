; The gfx950 conversions under emulation against the formats' definitions
; (utils/amdref.py: shared/AMD.md's value table, round to nearest even by
; search over all codes) for every selector: the scaled fp4 conversions
; (byte select, low nibble first), the OCP fp8 and bf8 conversions (byte and
; half selects) and the scaled fp8 ones. Scales carry random mantissa bits,
; which the instructions ignore. llc shows the selector encodings the
; semantics rest on: OPSEL[1:0] picks the source byte of
; v_cvt_scalef32_pk_*_fp4 and OPSEL[3:2] the destination byte of
; v_cvt_scalef32_pk_fp4_* (LLVM PR 117417), SDWA BYTE_n and WORD_n those of
; the fp8 conversions. Every up and down conversion of fp4 and fp8 from and
; to f32, bf16 and f16 the chip has runs here.
;
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %s -o - | FileCheck %s --check-prefix=ISA
; RUN: mla-emu-compile %s --chip=gfx950 --workgroup-size=64 -o %t.so \
; RUN:   --arg-type=src=i32,scale=f32,values=f32,old=i32,out=f32 \
; RUN:   --arg-type=fp4_to_bf16.out=bf16,fp4_to_f16.out=f16,f32_to_fp4.out=i32 \
; RUN:   --arg-type=f32_to_fp8.out=i32,f32_to_bf8.out=i32,values16=bf16,out16=bf16 \
; RUN:   --arg-type=f16_to_fp4.values16=f16,scaled_f16_to_fp8.values16=f16 \
; RUN:   --arg-type=bf16_to_fp4.out=i32,f16_to_fp4.out=i32,old=i32 \
; RUN:   --arg-type=scaled_f32_to_fp8.out=i32,scaled_bf16_to_fp8.out=i32 \
; RUN:   --arg-type=scaled_f16_to_fp8.out=i32
; RUN: %amdref random %t.src.npy --dtype i4 --count 256 --values bits --seed 1
; RUN: %amdref random %t.scale.npy --dtype f4 --count 256 --values scale --seed 2
; RUN: %amdref random %t.near.npy --dtype f4 --count 256 --values scale --range 125,129 --seed 3
; RUN: %amdref random %t.values.npy --dtype f4 --count 512 --values edge --seed 4
; RUN: %amdref random %t.old.npy --dtype i4 --count 256 --values bits --seed 5
; RUN: %amdref random %t.bf16.npy --dtype u2 --count 512 --values bits --seed 6
; RUN: %amdref random %t.f16.npy --dtype u2 --count 512 --values bits --seed 7
;
; RUN: mla-run --target emu --module %t.so --kernel fp4_to_f32 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg scale=@%t.scale.npy --arg out=empty:2048 --save out=%t.fp4_to_f32.npy > /dev/null
; RUN: %amdref check-cvt fp4-f32 %t.src.npy %t.scale.npy %t.fp4_to_f32.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-FP4-TO-F32
;
; RUN: mla-run --target emu --module %t.so --kernel fp4_to_bf16 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg scale=@%t.scale.npy --arg out=empty:2048 --save out=%t.fp4_to_bf16.npy > /dev/null
; RUN: %amdref check-cvt fp4-bf16 %t.src.npy %t.scale.npy %t.fp4_to_bf16.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-FP4-TO-BF16
;
; RUN: mla-run --target emu --module %t.so --kernel fp4_to_f16 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg scale=@%t.scale.npy --arg out=empty:2048 --save out=%t.fp4_to_f16.npy > /dev/null
; RUN: %amdref check-cvt fp4-f16 %t.src.npy %t.scale.npy %t.fp4_to_f16.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-FP4-TO-F16
;
; RUN: mla-run --target emu --module %t.so --kernel f32_to_fp4 --grid 4 \
; RUN:   --arg values=@%t.values.npy --arg scale=@%t.near.npy --arg old=@%t.old.npy --arg out=empty:1024 --save out=%t.f32_to_fp4.npy > /dev/null
; RUN: %amdref check-cvt f32-fp4 %t.values.npy %t.near.npy %t.old.npy %t.f32_to_fp4.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-F32-TO-FP4
;
; RUN: mla-run --target emu --module %t.so --kernel fp8_to_f32 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg out=empty:2048 --save out=%t.fp8_to_f32.npy > /dev/null
; RUN: %amdref check-cvt fp8-f32 %t.src.npy %t.fp8_to_f32.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-FP8-TO-F32
;
; RUN: mla-run --target emu --module %t.so --kernel bf8_to_f32 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg out=empty:2048 --save out=%t.bf8_to_f32.npy > /dev/null
; RUN: %amdref check-cvt bf8-f32 %t.src.npy %t.bf8_to_f32.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-BF8-TO-F32
;
; RUN: mla-run --target emu --module %t.so --kernel f32_to_fp8 --grid 4 \
; RUN:   --arg values=@%t.values.npy --arg old=@%t.old.npy --arg out=empty:512 --save out=%t.f32_to_fp8.npy > /dev/null
; RUN: %amdref check-cvt f32-fp8 %t.values.npy %t.old.npy %t.f32_to_fp8.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-F32-TO-FP8
;
; RUN: mla-run --target emu --module %t.so --kernel f32_to_bf8 --grid 4 \
; RUN:   --arg values=@%t.values.npy --arg old=@%t.old.npy --arg out=empty:512 --save out=%t.f32_to_bf8.npy > /dev/null
; RUN: %amdref check-cvt f32-bf8 %t.values.npy %t.old.npy %t.f32_to_bf8.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-F32-TO-BF8
;
; RUN: mla-run --target emu --module %t.so --kernel scaled_fp8_to_f32 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg scale=@%t.scale.npy --arg out=empty:2048 --save out=%t.scaled_fp8_to_f32.npy > /dev/null
; RUN: %amdref check-cvt scaled-fp8-f32 %t.src.npy %t.scale.npy %t.scaled_fp8_to_f32.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-SCALED-FP8-TO-F32
;
; RUN: mla-run --target emu --module %t.so --kernel bf16_to_fp4 --grid 4 \
; RUN:   --arg values16=@%t.bf16.npy --arg scale=@%t.near.npy --arg old=@%t.old.npy --arg out=empty:1024 --save out=%t.bf16_to_fp4.npy > /dev/null
; RUN: %amdref check-cvt bf16-fp4 %t.bf16.npy %t.near.npy %t.old.npy %t.bf16_to_fp4.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-BF16-TO-FP4
;
; RUN: mla-run --target emu --module %t.so --kernel f16_to_fp4 --grid 4 \
; RUN:   --arg values16=@%t.f16.npy --arg scale=@%t.near.npy --arg old=@%t.old.npy --arg out=empty:1024 --save out=%t.f16_to_fp4.npy > /dev/null
; RUN: %amdref check-cvt f16-fp4 %t.f16.npy %t.near.npy %t.old.npy %t.f16_to_fp4.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-F16-TO-FP4
;
; RUN: mla-run --target emu --module %t.so --kernel scaled_fp8_to_16 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg scale=@%t.scale.npy --arg out16=empty:4096 --save out16=%t.scaled_fp8_to_16.npy > /dev/null
; RUN: %amdref check-cvt scaled-fp8-16 %t.src.npy %t.scale.npy %t.scaled_fp8_to_16.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-SCALED-FP8-TO-16
;
; RUN: mla-run --target emu --module %t.so --kernel scaled_bf8_to_f32 --grid 4 \
; RUN:   --arg src=@%t.src.npy --arg scale=@%t.scale.npy --arg out=empty:2048 --save out=%t.scaled_bf8_to_f32.npy > /dev/null
; RUN: %amdref check-cvt scaled-bf8-f32 %t.src.npy %t.scale.npy %t.scaled_bf8_to_f32.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-SCALED-BF8-TO-F32
;
; RUN: mla-run --target emu --module %t.so --kernel scaled_f32_to_fp8 --grid 4 \
; RUN:   --arg values=@%t.values.npy --arg scale=@%t.near.npy --arg old=@%t.old.npy --arg out=empty:1024 --save out=%t.scaled_f32_to_fp8.npy > /dev/null
; RUN: %amdref check-cvt scaled-f32-fp8 %t.values.npy %t.near.npy %t.old.npy %t.scaled_f32_to_fp8.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-SCALED-F32-TO-FP8
;
; RUN: mla-run --target emu --module %t.so --kernel scaled_bf16_to_fp8 --grid 4 \
; RUN:   --arg values16=@%t.bf16.npy --arg scale=@%t.near.npy --arg old=@%t.old.npy --arg out=empty:1024 --save out=%t.scaled_bf16_to_fp8.npy > /dev/null
; RUN: %amdref check-cvt scaled-bf16-fp8 %t.bf16.npy %t.near.npy %t.old.npy %t.scaled_bf16_to_fp8.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-SCALED-BF16-TO-FP8
;
; RUN: mla-run --target emu --module %t.so --kernel scaled_f16_to_fp8 --grid 4 \
; RUN:   --arg values16=@%t.f16.npy --arg scale=@%t.near.npy --arg old=@%t.old.npy --arg out=empty:1024 --save out=%t.scaled_f16_to_fp8.npy > /dev/null
; RUN: %amdref check-cvt scaled-f16-fp8 %t.f16.npy %t.near.npy %t.old.npy %t.scaled_f16_to_fp8.npy --chip gfx950 \
; RUN:   | FileCheck %s --check-prefix=CHECK-SCALED-F16-TO-FP8

; CHECK-FP4-TO-F32: check: cvt fp4-f32 gfx950 {{[0-9]+}} outputs PASS
; CHECK-FP4-TO-BF16: check: cvt fp4-bf16 gfx950 {{[0-9]+}} outputs PASS
; CHECK-FP4-TO-F16: check: cvt fp4-f16 gfx950 {{[0-9]+}} outputs PASS
; CHECK-F32-TO-FP4: check: cvt f32-fp4 gfx950 {{[0-9]+}} outputs PASS
; CHECK-FP8-TO-F32: check: cvt fp8-f32 gfx950 {{[0-9]+}} outputs PASS
; CHECK-BF8-TO-F32: check: cvt bf8-f32 gfx950 {{[0-9]+}} outputs PASS
; CHECK-F32-TO-FP8: check: cvt f32-fp8 gfx950 {{[0-9]+}} outputs PASS
; CHECK-F32-TO-BF8: check: cvt f32-bf8 gfx950 {{[0-9]+}} outputs PASS
; CHECK-SCALED-FP8-TO-F32: check: cvt scaled-fp8-f32 gfx950 {{[0-9]+}} outputs PASS
; CHECK-BF16-TO-FP4: check: cvt bf16-fp4 gfx950 {{[0-9]+}} outputs PASS
; CHECK-F16-TO-FP4: check: cvt f16-fp4 gfx950 {{[0-9]+}} outputs PASS
; CHECK-SCALED-FP8-TO-16: check: cvt scaled-fp8-16 gfx950 {{[0-9]+}} outputs PASS
; CHECK-SCALED-BF8-TO-F32: check: cvt scaled-bf8-f32 gfx950 {{[0-9]+}} outputs PASS
; CHECK-SCALED-F32-TO-FP8: check: cvt scaled-f32-fp8 gfx950 {{[0-9]+}} outputs PASS
; CHECK-SCALED-BF16-TO-FP8: check: cvt scaled-bf16-fp8 gfx950 {{[0-9]+}} outputs PASS
; CHECK-SCALED-F16-TO-FP8: check: cvt scaled-f16-fp8 gfx950 {{[0-9]+}} outputs PASS

; ISA-LABEL: {{^}}fp4_to_f32:
; ISA: v_cvt_scalef32_pk_f32_fp4 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, v{{[0-9]+}}{{$}}
; ISA: v_cvt_scalef32_pk_f32_fp4 {{.*}} op_sel:[1,0,0]
; ISA: v_cvt_scalef32_pk_f32_fp4 {{.*}} op_sel:[0,1,0]
; ISA: v_cvt_scalef32_pk_f32_fp4 {{.*}} op_sel:[1,1,0]
; ISA-LABEL: {{^}}fp4_to_bf16:
; ISA-COUNT-4: v_cvt_scalef32_pk_bf16_fp4
; ISA-LABEL: {{^}}fp4_to_f16:
; ISA-COUNT-4: v_cvt_scalef32_pk_f16_fp4
; ISA-LABEL: {{^}}f32_to_fp4:
; ISA: v_cvt_scalef32_pk_fp4_f32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}{{$}}
; ISA: v_cvt_scalef32_pk_fp4_f32 {{.*}} op_sel:[0,0,1,0]
; ISA: v_cvt_scalef32_pk_fp4_f32 {{.*}} op_sel:[0,0,0,1]
; ISA: v_cvt_scalef32_pk_fp4_f32 {{.*}} op_sel:[0,0,1,1]
; ISA-LABEL: {{^}}fp8_to_f32:
; ISA: v_cvt_f32_fp8_e32
; ISA: v_cvt_f32_fp8_sdwa {{.*}} src0_sel:BYTE_1
; ISA: v_cvt_f32_fp8_sdwa {{.*}} src0_sel:BYTE_2
; ISA: v_cvt_f32_fp8_sdwa {{.*}} src0_sel:BYTE_3
; ISA: v_cvt_pk_f32_fp8_e32
; ISA: v_cvt_pk_f32_fp8_sdwa {{.*}} src0_sel:WORD_1
; ISA-LABEL: {{^}}f32_to_fp8:
; ISA: v_cvt_pk_fp8_f32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}{{$}}
; ISA: v_cvt_pk_fp8_f32 {{.*}} op_sel:[0,0,1]
; ISA-LABEL: {{^}}scaled_fp8_to_f32:
; ISA: v_cvt_scalef32_f32_fp8 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}{{$}}
; ISA: v_cvt_scalef32_f32_fp8 {{.*}} op_sel:[1,0,0]
; ISA: v_cvt_scalef32_f32_fp8 {{.*}} op_sel:[0,1,0]
; ISA: v_cvt_scalef32_f32_fp8 {{.*}} op_sel:[1,1,0]
; ISA: v_cvt_scalef32_pk_f32_fp8 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, v{{[0-9]+}}{{$}}
; ISA: v_cvt_scalef32_pk_f32_fp8 {{.*}} op_sel:[1,0,0]

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @fp4_to_f32(ptr addrspace(1) %src, ptr addrspace(1) %scale, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %r0 = call <2 x float> @llvm.amdgcn.cvt.scalef32.pk.f32.fp4(i32 %s, float %k, i32 0)
  %r1 = call <2 x float> @llvm.amdgcn.cvt.scalef32.pk.f32.fp4(i32 %s, float %k, i32 1)
  %r2 = call <2 x float> @llvm.amdgcn.cvt.scalef32.pk.f32.fp4(i32 %s, float %k, i32 2)
  %r3 = call <2 x float> @llvm.amdgcn.cvt.scalef32.pk.f32.fp4(i32 %s, float %k, i32 3)
  %r01 = shufflevector <2 x float> %r0, <2 x float> %r1, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %r23 = shufflevector <2 x float> %r2, <2 x float> %r3, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %all = shufflevector <4 x float> %r01, <4 x float> %r23, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %pv = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %i
  store <8 x float> %all, ptr addrspace(1) %pv, align 4
  ret void
}

define amdgpu_kernel void @fp4_to_bf16(ptr addrspace(1) %src, ptr addrspace(1) %scale, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %r0 = call <2 x bfloat> @llvm.amdgcn.cvt.scalef32.pk.bf16.fp4(i32 %s, float %k, i32 0)
  %r1 = call <2 x bfloat> @llvm.amdgcn.cvt.scalef32.pk.bf16.fp4(i32 %s, float %k, i32 1)
  %r2 = call <2 x bfloat> @llvm.amdgcn.cvt.scalef32.pk.bf16.fp4(i32 %s, float %k, i32 2)
  %r3 = call <2 x bfloat> @llvm.amdgcn.cvt.scalef32.pk.bf16.fp4(i32 %s, float %k, i32 3)
  %r01 = shufflevector <2 x bfloat> %r0, <2 x bfloat> %r1, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %r23 = shufflevector <2 x bfloat> %r2, <2 x bfloat> %r3, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %all = shufflevector <4 x bfloat> %r01, <4 x bfloat> %r23, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %pv = getelementptr <8 x bfloat>, ptr addrspace(1) %out, i32 %i
  store <8 x bfloat> %all, ptr addrspace(1) %pv, align 4
  ret void
}

define amdgpu_kernel void @fp4_to_f16(ptr addrspace(1) %src, ptr addrspace(1) %scale, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %r0 = call <2 x half> @llvm.amdgcn.cvt.scalef32.pk.f16.fp4(i32 %s, float %k, i32 0)
  %r1 = call <2 x half> @llvm.amdgcn.cvt.scalef32.pk.f16.fp4(i32 %s, float %k, i32 1)
  %r2 = call <2 x half> @llvm.amdgcn.cvt.scalef32.pk.f16.fp4(i32 %s, float %k, i32 2)
  %r3 = call <2 x half> @llvm.amdgcn.cvt.scalef32.pk.f16.fp4(i32 %s, float %k, i32 3)
  %r01 = shufflevector <2 x half> %r0, <2 x half> %r1, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %r23 = shufflevector <2 x half> %r2, <2 x half> %r3, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %all = shufflevector <4 x half> %r01, <4 x half> %r23, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %pv = getelementptr <8 x half>, ptr addrspace(1) %out, i32 %i
  store <8 x half> %all, ptr addrspace(1) %pv, align 4
  ret void
}

define amdgpu_kernel void @f32_to_fp4(ptr addrspace(1) %values, ptr addrspace(1) %scale, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x float>, ptr addrspace(1) %values, i32 %i
  %v = load <2 x float>, ptr addrspace(1) %pv, align 4
  %a = extractelement <2 x float> %v, i32 0
  %b = extractelement <2 x float> %v, i32 1
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %po = getelementptr i32, ptr addrspace(1) %old, i32 %i
  %o = load i32, ptr addrspace(1) %po, align 4
  %w0 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.f32(i32 %o, float %a, float %b, float %k, i32 0)
  %w1 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.f32(i32 %o, float %a, float %b, float %k, i32 1)
  %w2 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.f32(i32 %o, float %a, float %b, float %k, i32 2)
  %w3 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.f32(i32 %o, float %a, float %b, float %k, i32 3)
  %x0 = insertelement <4 x i32> poison, i32 %w0, i32 0
  %x1 = insertelement <4 x i32> %x0, i32 %w1, i32 1
  %x2 = insertelement <4 x i32> %x1, i32 %w2, i32 2
  %x3 = insertelement <4 x i32> %x2, i32 %w3, i32 3
  %pr = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %i
  store <4 x i32> %x3, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @fp8_to_f32(ptr addrspace(1) %src, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %b0 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %s, i32 0)
  %b1 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %s, i32 1)
  %b2 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %s, i32 2)
  %b3 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %s, i32 3)
  %lo = call <2 x float> @llvm.amdgcn.cvt.pk.f32.fp8(i32 %s, i1 false)
  %hi = call <2 x float> @llvm.amdgcn.cvt.pk.f32.fp8(i32 %s, i1 true)
  %x0 = insertelement <8 x float> poison, float %b0, i32 0
  %x1 = insertelement <8 x float> %x0, float %b1, i32 1
  %x2 = insertelement <8 x float> %x1, float %b2, i32 2
  %x3 = insertelement <8 x float> %x2, float %b3, i32 3
  %pair = shufflevector <2 x float> %lo, <2 x float> %hi, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %all = shufflevector <8 x float> %x3, <8 x float> %pair, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  %pr = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %i
  store <8 x float> %all, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @bf8_to_f32(ptr addrspace(1) %src, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %b0 = call float @llvm.amdgcn.cvt.f32.bf8(i32 %s, i32 0)
  %b1 = call float @llvm.amdgcn.cvt.f32.bf8(i32 %s, i32 1)
  %b2 = call float @llvm.amdgcn.cvt.f32.bf8(i32 %s, i32 2)
  %b3 = call float @llvm.amdgcn.cvt.f32.bf8(i32 %s, i32 3)
  %lo = call <2 x float> @llvm.amdgcn.cvt.pk.f32.bf8(i32 %s, i1 false)
  %hi = call <2 x float> @llvm.amdgcn.cvt.pk.f32.bf8(i32 %s, i1 true)
  %x0 = insertelement <8 x float> poison, float %b0, i32 0
  %x1 = insertelement <8 x float> %x0, float %b1, i32 1
  %x2 = insertelement <8 x float> %x1, float %b2, i32 2
  %x3 = insertelement <8 x float> %x2, float %b3, i32 3
  %pair = shufflevector <2 x float> %lo, <2 x float> %hi, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %all = shufflevector <8 x float> %x3, <8 x float> %pair, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  %pr = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %i
  store <8 x float> %all, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @f32_to_fp8(ptr addrspace(1) %values, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x float>, ptr addrspace(1) %values, i32 %i
  %v = load <2 x float>, ptr addrspace(1) %pv, align 4
  %a = extractelement <2 x float> %v, i32 0
  %b = extractelement <2 x float> %v, i32 1
  %po = getelementptr i32, ptr addrspace(1) %old, i32 %i
  %o = load i32, ptr addrspace(1) %po, align 4
  %w0 = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %a, float %b, i32 %o, i1 false)
  %w1 = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %a, float %b, i32 %o, i1 true)
  %x0 = insertelement <2 x i32> poison, i32 %w0, i32 0
  %x1 = insertelement <2 x i32> %x0, i32 %w1, i32 1
  %pr = getelementptr <2 x i32>, ptr addrspace(1) %out, i32 %i
  store <2 x i32> %x1, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @f32_to_bf8(ptr addrspace(1) %values, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x float>, ptr addrspace(1) %values, i32 %i
  %v = load <2 x float>, ptr addrspace(1) %pv, align 4
  %a = extractelement <2 x float> %v, i32 0
  %b = extractelement <2 x float> %v, i32 1
  %po = getelementptr i32, ptr addrspace(1) %old, i32 %i
  %o = load i32, ptr addrspace(1) %po, align 4
  %w0 = call i32 @llvm.amdgcn.cvt.pk.bf8.f32(float %a, float %b, i32 %o, i1 false)
  %w1 = call i32 @llvm.amdgcn.cvt.pk.bf8.f32(float %a, float %b, i32 %o, i1 true)
  %x0 = insertelement <2 x i32> poison, i32 %w0, i32 0
  %x1 = insertelement <2 x i32> %x0, i32 %w1, i32 1
  %pr = getelementptr <2 x i32>, ptr addrspace(1) %out, i32 %i
  store <2 x i32> %x1, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @scaled_fp8_to_f32(ptr addrspace(1) %src, ptr addrspace(1) %scale, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %b0 = call float @llvm.amdgcn.cvt.scalef32.f32.fp8(i32 %s, float %k, i32 0)
  %b1 = call float @llvm.amdgcn.cvt.scalef32.f32.fp8(i32 %s, float %k, i32 1)
  %b2 = call float @llvm.amdgcn.cvt.scalef32.f32.fp8(i32 %s, float %k, i32 2)
  %b3 = call float @llvm.amdgcn.cvt.scalef32.f32.fp8(i32 %s, float %k, i32 3)
  %lo = call <2 x float> @llvm.amdgcn.cvt.scalef32.pk.f32.fp8(i32 %s, float %k, i1 false)
  %hi = call <2 x float> @llvm.amdgcn.cvt.scalef32.pk.f32.fp8(i32 %s, float %k, i1 true)
  %x0 = insertelement <8 x float> poison, float %b0, i32 0
  %x1 = insertelement <8 x float> %x0, float %b1, i32 1
  %x2 = insertelement <8 x float> %x1, float %b2, i32 2
  %x3 = insertelement <8 x float> %x2, float %b3, i32 3
  %pair = shufflevector <2 x float> %lo, <2 x float> %hi, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %all = shufflevector <8 x float> %x3, <8 x float> %pair, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  %pr = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %i
  store <8 x float> %all, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @bf16_to_fp4(ptr addrspace(1) %values16, ptr addrspace(1) %scale, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x bfloat>, ptr addrspace(1) %values16, i32 %i
  %v = load <2 x bfloat>, ptr addrspace(1) %pv, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %po = getelementptr i32, ptr addrspace(1) %old, i32 %i
  %o = load i32, ptr addrspace(1) %po, align 4
  %w0 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.bf16(i32 %o, <2 x bfloat> %v, float %k, i32 0)
  %w1 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.bf16(i32 %o, <2 x bfloat> %v, float %k, i32 1)
  %w2 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.bf16(i32 %o, <2 x bfloat> %v, float %k, i32 2)
  %w3 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.bf16(i32 %o, <2 x bfloat> %v, float %k, i32 3)
  %x0 = insertelement <4 x i32> poison, i32 %w0, i32 0
  %x1 = insertelement <4 x i32> %x0, i32 %w1, i32 1
  %x2 = insertelement <4 x i32> %x1, i32 %w2, i32 2
  %x3 = insertelement <4 x i32> %x2, i32 %w3, i32 3
  %pr = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %i
  store <4 x i32> %x3, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @f16_to_fp4(ptr addrspace(1) %values16, ptr addrspace(1) %scale, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x half>, ptr addrspace(1) %values16, i32 %i
  %v = load <2 x half>, ptr addrspace(1) %pv, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %po = getelementptr i32, ptr addrspace(1) %old, i32 %i
  %o = load i32, ptr addrspace(1) %po, align 4
  %w0 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.f16(i32 %o, <2 x half> %v, float %k, i32 0)
  %w1 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.f16(i32 %o, <2 x half> %v, float %k, i32 1)
  %w2 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.f16(i32 %o, <2 x half> %v, float %k, i32 2)
  %w3 = call i32 @llvm.amdgcn.cvt.scalef32.pk.fp4.f16(i32 %o, <2 x half> %v, float %k, i32 3)
  %x0 = insertelement <4 x i32> poison, i32 %w0, i32 0
  %x1 = insertelement <4 x i32> %x0, i32 %w1, i32 1
  %x2 = insertelement <4 x i32> %x1, i32 %w2, i32 2
  %x3 = insertelement <4 x i32> %x2, i32 %w3, i32 3
  %pr = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %i
  store <4 x i32> %x3, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @scaled_fp8_to_16(ptr addrspace(1) %src, ptr addrspace(1) %scale, ptr addrspace(1) %out16) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %po = getelementptr <16 x i16>, ptr addrspace(1) %out16, i32 %i
  %r0 = call <2 x bfloat> @llvm.amdgcn.cvt.scalef32.pk.bf16.fp8(i32 %s, float %k, i1 false)
  %b0 = bitcast <2 x bfloat> %r0 to <2 x i16>
  %r1 = call <2 x bfloat> @llvm.amdgcn.cvt.scalef32.pk.bf16.fp8(i32 %s, float %k, i1 true)
  %b1 = bitcast <2 x bfloat> %r1 to <2 x i16>
  %r2 = call <2 x bfloat> @llvm.amdgcn.cvt.scalef32.pk.bf16.bf8(i32 %s, float %k, i1 false)
  %b2 = bitcast <2 x bfloat> %r2 to <2 x i16>
  %r3 = call <2 x bfloat> @llvm.amdgcn.cvt.scalef32.pk.bf16.bf8(i32 %s, float %k, i1 true)
  %b3 = bitcast <2 x bfloat> %r3 to <2 x i16>
  %r4 = call <2 x half> @llvm.amdgcn.cvt.scalef32.pk.f16.fp8(i32 %s, float %k, i1 false)
  %b4 = bitcast <2 x half> %r4 to <2 x i16>
  %r5 = call <2 x half> @llvm.amdgcn.cvt.scalef32.pk.f16.fp8(i32 %s, float %k, i1 true)
  %b5 = bitcast <2 x half> %r5 to <2 x i16>
  %r6 = call <2 x half> @llvm.amdgcn.cvt.scalef32.pk.f16.bf8(i32 %s, float %k, i1 false)
  %b6 = bitcast <2 x half> %r6 to <2 x i16>
  %r7 = call <2 x half> @llvm.amdgcn.cvt.scalef32.pk.f16.bf8(i32 %s, float %k, i1 true)
  %b7 = bitcast <2 x half> %r7 to <2 x i16>
  %c01 = shufflevector <2 x i16> %b0, <2 x i16> %b1, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %c23 = shufflevector <2 x i16> %b2, <2 x i16> %b3, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %c45 = shufflevector <2 x i16> %b4, <2 x i16> %b5, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %c67 = shufflevector <2 x i16> %b6, <2 x i16> %b7, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %c0123 = shufflevector <4 x i16> %c01, <4 x i16> %c23, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %c4567 = shufflevector <4 x i16> %c45, <4 x i16> %c67, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %all = shufflevector <8 x i16> %c0123, <8 x i16> %c4567, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
  store <16 x i16> %all, ptr addrspace(1) %po, align 4
  ret void
}

define amdgpu_kernel void @scaled_bf8_to_f32(ptr addrspace(1) %src, ptr addrspace(1) %scale, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %ps = getelementptr i32, ptr addrspace(1) %src, i32 %i
  %s = load i32, ptr addrspace(1) %ps, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %b0 = call float @llvm.amdgcn.cvt.scalef32.f32.bf8(i32 %s, float %k, i32 0)
  %b1 = call float @llvm.amdgcn.cvt.scalef32.f32.bf8(i32 %s, float %k, i32 1)
  %b2 = call float @llvm.amdgcn.cvt.scalef32.f32.bf8(i32 %s, float %k, i32 2)
  %b3 = call float @llvm.amdgcn.cvt.scalef32.f32.bf8(i32 %s, float %k, i32 3)
  %lo = call <2 x float> @llvm.amdgcn.cvt.scalef32.pk.f32.bf8(i32 %s, float %k, i1 false)
  %hi = call <2 x float> @llvm.amdgcn.cvt.scalef32.pk.f32.bf8(i32 %s, float %k, i1 true)
  %x0 = insertelement <8 x float> poison, float %b0, i32 0
  %x1 = insertelement <8 x float> %x0, float %b1, i32 1
  %x2 = insertelement <8 x float> %x1, float %b2, i32 2
  %x3 = insertelement <8 x float> %x2, float %b3, i32 3
  %pair = shufflevector <2 x float> %lo, <2 x float> %hi, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %all = shufflevector <8 x float> %x3, <8 x float> %pair, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  %pr = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %i
  store <8 x float> %all, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @scaled_f32_to_fp8(ptr addrspace(1) %values, ptr addrspace(1) %scale, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x float>, ptr addrspace(1) %values, i32 %i
  %v = load <2 x float>, ptr addrspace(1) %pv, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %po = getelementptr <2 x i16>, ptr addrspace(1) %old, i32 %i
  %o = load <2 x i16>, ptr addrspace(1) %po, align 4
  %a = extractelement <2 x float> %v, i32 0
  %b = extractelement <2 x float> %v, i32 1
  %w0 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.fp8.f32(<2 x i16> %o, float %a, float %b, float %k, i1 false)
  %i0 = bitcast <2 x i16> %w0 to i32
  %w1 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.fp8.f32(<2 x i16> %o, float %a, float %b, float %k, i1 true)
  %i1 = bitcast <2 x i16> %w1 to i32
  %w2 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.bf8.f32(<2 x i16> %o, float %a, float %b, float %k, i1 false)
  %i2 = bitcast <2 x i16> %w2 to i32
  %w3 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.bf8.f32(<2 x i16> %o, float %a, float %b, float %k, i1 true)
  %i3 = bitcast <2 x i16> %w3 to i32
  %x0 = insertelement <4 x i32> poison, i32 %i0, i32 0
  %x1 = insertelement <4 x i32> %x0, i32 %i1, i32 1
  %x2 = insertelement <4 x i32> %x1, i32 %i2, i32 2
  %x3 = insertelement <4 x i32> %x2, i32 %i3, i32 3
  %pr = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %i
  store <4 x i32> %x3, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @scaled_bf16_to_fp8(ptr addrspace(1) %values16, ptr addrspace(1) %scale, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x bfloat>, ptr addrspace(1) %values16, i32 %i
  %v = load <2 x bfloat>, ptr addrspace(1) %pv, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %po = getelementptr <2 x i16>, ptr addrspace(1) %old, i32 %i
  %o = load <2 x i16>, ptr addrspace(1) %po, align 4
  %w0 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.fp8.bf16(<2 x i16> %o, <2 x bfloat> %v, float %k, i1 false)
  %i0 = bitcast <2 x i16> %w0 to i32
  %w1 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.fp8.bf16(<2 x i16> %o, <2 x bfloat> %v, float %k, i1 true)
  %i1 = bitcast <2 x i16> %w1 to i32
  %w2 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.bf8.bf16(<2 x i16> %o, <2 x bfloat> %v, float %k, i1 false)
  %i2 = bitcast <2 x i16> %w2 to i32
  %w3 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.bf8.bf16(<2 x i16> %o, <2 x bfloat> %v, float %k, i1 true)
  %i3 = bitcast <2 x i16> %w3 to i32
  %x0 = insertelement <4 x i32> poison, i32 %i0, i32 0
  %x1 = insertelement <4 x i32> %x0, i32 %i1, i32 1
  %x2 = insertelement <4 x i32> %x1, i32 %i2, i32 2
  %x3 = insertelement <4 x i32> %x2, i32 %i3, i32 3
  %pr = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %i
  store <4 x i32> %x3, ptr addrspace(1) %pr, align 4
  ret void
}

define amdgpu_kernel void @scaled_f16_to_fp8(ptr addrspace(1) %values16, ptr addrspace(1) %scale, ptr addrspace(1) %old, ptr addrspace(1) %out) #0 {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %group, 6
  %i = add i32 %base, %lane
  %pv = getelementptr <2 x half>, ptr addrspace(1) %values16, i32 %i
  %v = load <2 x half>, ptr addrspace(1) %pv, align 4
  %pk = getelementptr float, ptr addrspace(1) %scale, i32 %i
  %k = load float, ptr addrspace(1) %pk, align 4
  %po = getelementptr <2 x i16>, ptr addrspace(1) %old, i32 %i
  %o = load <2 x i16>, ptr addrspace(1) %po, align 4
  %w0 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.fp8.f16(<2 x i16> %o, <2 x half> %v, float %k, i1 false)
  %i0 = bitcast <2 x i16> %w0 to i32
  %w1 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.fp8.f16(<2 x i16> %o, <2 x half> %v, float %k, i1 true)
  %i1 = bitcast <2 x i16> %w1 to i32
  %w2 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.bf8.f16(<2 x i16> %o, <2 x half> %v, float %k, i1 false)
  %i2 = bitcast <2 x i16> %w2 to i32
  %w3 = call <2 x i16> @llvm.amdgcn.cvt.scalef32.pk.bf8.f16(<2 x i16> %o, <2 x half> %v, float %k, i1 true)
  %i3 = bitcast <2 x i16> %w3 to i32
  %x0 = insertelement <4 x i32> poison, i32 %i0, i32 0
  %x1 = insertelement <4 x i32> %x0, i32 %i1, i32 1
  %x2 = insertelement <4 x i32> %x1, i32 %i2, i32 2
  %x3 = insertelement <4 x i32> %x2, i32 %i3, i32 3
  %pr = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %i
  store <4 x i32> %x3, ptr addrspace(1) %pr, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
