; What the emulator does not emulate is an error when the module is
; retargeted, naming the construct and where it is; no output is written.
; A module's constant globals (such as the __oclc_* controls) are memory
; kernels may read; llvm.compiler.used is not.
;
; RUN: split-file %s %t
; RUN: not mla-emu-compile %t/unknown.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: not mla-emu-compile %t/permlane.ll --chip=gfx942 -o %t.so 2>&1 | FileCheck %s --check-prefix=CHIP
; RUN: mla-emu-compile %t/permlane.ll --chip=gfx950 --workgroup-size=64 -o %t.permlane.so
; RUN: not mla-emu-compile %t/scaled-fp8.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=FP8
; RUN: not mla-emu-compile %t/broadcast.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=CBSZ
; RUN: not mla-emu-compile %t/dpp.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=DPP
; RUN: not mla-emu-compile %t/lds.ll --chip=gfx942 -o %t.so 2>&1 | FileCheck %s --check-prefix=LDS
; RUN: mla-emu-compile %t/lds.ll --chip=gfx950 --workgroup-size=64 -o %t.lds.so
; RUN: FileCheck %s --check-prefix=LDSBYTES < %t.lds.so.json
; RUN: not mla-emu-compile %t/external.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=EXTERNAL
; RUN: not mla-emu-compile %t/asm.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=ASM
; RUN: not mla-emu-compile %t/cpu.ll --chip=gfx950 -o %t.so 2>&1 | FileCheck %s --check-prefix=CPU
; RUN: not mla-emu-compile %t/argument.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=ARGUMENT
; RUN: not mla-emu-compile %t/triple.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=TRIPLE
; RUN: not mla-emu-compile %t/alias.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=ALIAS
; RUN: not mla-emu-compile %t/private.ll -o %t.so 2>&1 | FileCheck %s --check-prefix=PRIVATE
; RUN: mla-emu-compile %t/used.ll --workgroup-size=64 --arg-type=out=i32 -o %t.used.so
; RUN: mla-run --target emu --module %t.used.so --kernel k --grid 1 \
; RUN:   --arg out=empty:1 --save out=%t.used.npy > /dev/null
; RUN: %amdref print %t.used.npy | FileCheck %s --check-prefix=USED
; RUN: not ls %t.so %t.so.json

; UNKNOWN: mla-emu-compile: error: llvm.amdgcn.s.memtime is not emulated (at `%t = call i64 @llvm.amdgcn.s.memtime()` in @k)
; CHIP: mla-emu-compile: error: llvm.amdgcn.permlane16.swap does not exist on gfx942 (at `%r = call { i32, i32 } @llvm.amdgcn.permlane16.swap(i32 %v, i32 %v, i1 false, i1 false)` in @k)
; FP8: mla-emu-compile: error: llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32 is not emulated for this overload
; CBSZ: mla-emu-compile: error: llvm.amdgcn.mfma.f32.16x16x32.bf16: cbsz/abid/blgp modifiers are not emulated (they must be 0)
; DPP: mla-emu-compile: error: llvm.amdgcn.update.dpp.i32: dpp_ctrl 0x150 is not a GFX9 DPP control
; LDS: mla-emu-compile: error: kernel @k uses 81920 bytes of LDS; gfx942 has 65536 per workgroup
; LDSBYTES: "lds_bytes": 81920
; EXTERNAL: mla-emu-compile: error: calls @__ocml_exp_f32, which the emulated module does not define (at `%e = call float @__ocml_exp_f32(float 1.000000e+00)` in @k)
; ASM: mla-emu-compile: error: inline assembly is not emulated (at `call void asm sideeffect "s_nop 0", ""()` in @k)
; CPU: mla-emu-compile: error: function @k is compiled for gfx942, not gfx950
; ARGUMENT: mla-emu-compile: error: kernel @k argument 0 has type i16, which has no kind in docs/ABI.md (global pointers, i32, i64 and f32)
; TRIPLE: mla-emu-compile: error: the module's triple 'x86_64-unknown-linux-gnu' is not amdgcn-amd-amdhsa
; ALIAS: mla-emu-compile: error: global aliases and ifuncs are not emulated
; PRIVATE: mla-emu-compile: error: function @k uses 40000 bytes of private memory per lane; the emulator gives a lane 32768
; USED: {{^}}500{{$}}

;--- unknown.ll
define amdgpu_kernel void @k() {
  %t = call i64 @llvm.amdgcn.s.memtime()
  ret void
}
declare i64 @llvm.amdgcn.s.memtime()

;--- permlane.ll
define amdgpu_kernel void @k(i32 %v) {
  %r = call { i32, i32 } @llvm.amdgcn.permlane16.swap(i32 %v, i32 %v, i1 false, i1 false)
  ret void
}
declare { i32, i32 } @llvm.amdgcn.permlane16.swap(i32, i32, i1, i1)

;--- scaled-fp8.ll
define void @k(<8 x i32> %a, <4 x float> %c) {
  %d = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32(<8 x i32> %a, <8 x i32> %a, <4 x float> %c, i32 0, i32 0, i32 0, i32 127, i32 0, i32 127)
  ret void
}
declare <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32(<8 x i32>, <8 x i32>, <4 x float>, i32, i32, i32, i32, i32, i32)

;--- broadcast.ll
define void @k(<8 x bfloat> %a, <4 x float> %c) {
  %d = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %a, <4 x float> %c, i32 1, i32 0, i32 0)
  ret void
}
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat>, <8 x bfloat>, <4 x float>, i32, i32, i32)

;--- dpp.ll
define amdgpu_kernel void @k(i32 %v) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 336, i32 15, i32 15, i1 false)
  ret void
}
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)

;--- lds.ll
@big = internal addrspace(3) global [20480 x i32] poison, align 16
define amdgpu_kernel void @k(i32 %i) {
  %p = getelementptr [20480 x i32], ptr addrspace(3) @big, i32 0, i32 %i
  store i32 %i, ptr addrspace(3) %p, align 4
  ret void
}

;--- external.ll
define amdgpu_kernel void @k() {
  %e = call float @__ocml_exp_f32(float 1.0)
  ret void
}
declare float @__ocml_exp_f32(float)

;--- asm.ll
define amdgpu_kernel void @k() {
  call void asm sideeffect "s_nop 0", ""()
  ret void
}

;--- cpu.ll
define amdgpu_kernel void @k() #0 {
  ret void
}
attributes #0 = { "target-cpu"="gfx942" }

;--- argument.ll
define amdgpu_kernel void @k(i16 %x) {
  ret void
}

;--- triple.ll
target triple = "x86_64-unknown-linux-gnu"
define void @k() {
  ret void
}

;--- alias.ll
@table = addrspace(1) global [4 x i32] zeroinitializer
@other = alias [4 x i32], ptr addrspace(1) @table
define amdgpu_kernel void @k() {
  ret void
}

;--- used.ll
; llvm.compiler.used only keeps globals alive: it is not emulated memory.
@__oclc_ABI_version = weak_odr hidden addrspace(4) constant i32 500
@llvm.compiler.used = appending addrspace(1) global [1 x ptr] [ptr addrspacecast (ptr addrspace(4) @__oclc_ABI_version to ptr)], section "llvm.metadata"
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %v = load i32, ptr addrspace(4) @__oclc_ABI_version, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

;--- private.ll
define amdgpu_kernel void @k(i32 %i) {
  %scratch = alloca [10000 x i32], align 4, addrspace(5)
  %p = getelementptr [10000 x i32], ptr addrspace(5) %scratch, i32 0, i32 %i
  store volatile i32 %i, ptr addrspace(5) %p, align 4
  ret void
}
