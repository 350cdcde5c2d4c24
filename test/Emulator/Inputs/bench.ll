; A kernel of the flagship's shape for measuring the emulator: per
; iteration every wave stages 16 bytes per lane in LDS, synchronizes with
; the other three waves, reads its operands back (one from another wave's
; part), and runs 64 chained MFMA 16x16x32 bf16.
target triple = "amdgcn-amd-amdhsa"

@tile = internal addrspace(3) global [4 x [64 x <8 x bfloat>]] poison, align 16

define amdgpu_kernel void @bench(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %iterations) !reqd_work_group_size !0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %wave = lshr i32 %tid, 6
  %lane = and i32 %tid, 63
  %base = shl i32 %group, 8
  %item = add i32 %base, %tid
  %src = getelementptr <8 x bfloat>, ptr addrspace(1) %in, i32 %item
  %mine = getelementptr [4 x [64 x <8 x bfloat>]], ptr addrspace(3) @tile, i32 0, i32 %wave, i32 %lane
  %next = add i32 %wave, 1
  %other.wave = and i32 %next, 3
  %other = getelementptr [4 x [64 x <8 x bfloat>]], ptr addrspace(3) @tile, i32 0, i32 %other.wave, i32 %lane
  %neighbour.lane = xor i32 %lane, 1
  %neighbour = getelementptr [4 x [64 x <8 x bfloat>]], ptr addrspace(3) @tile, i32 0, i32 %wave, i32 %neighbour.lane
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc0 = phi <4 x float> [ zeroinitializer, %entry ], [ %acc64, %loop ]
  %g = load <8 x bfloat>, ptr addrspace(1) %src, align 16
  store <8 x bfloat> %g, ptr addrspace(3) %mine, align 16
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %a = load <8 x bfloat>, ptr addrspace(3) %neighbour, align 16
  %b = load <8 x bfloat>, ptr addrspace(3) %other, align 16
  %acc1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc0, i32 0, i32 0, i32 0)
  %acc2 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc1, i32 0, i32 0, i32 0)
  %acc3 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc2, i32 0, i32 0, i32 0)
  %acc4 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc3, i32 0, i32 0, i32 0)
  %acc5 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc4, i32 0, i32 0, i32 0)
  %acc6 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc5, i32 0, i32 0, i32 0)
  %acc7 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc6, i32 0, i32 0, i32 0)
  %acc8 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc7, i32 0, i32 0, i32 0)
  %acc9 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc8, i32 0, i32 0, i32 0)
  %acc10 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc9, i32 0, i32 0, i32 0)
  %acc11 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc10, i32 0, i32 0, i32 0)
  %acc12 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc11, i32 0, i32 0, i32 0)
  %acc13 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc12, i32 0, i32 0, i32 0)
  %acc14 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc13, i32 0, i32 0, i32 0)
  %acc15 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc14, i32 0, i32 0, i32 0)
  %acc16 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc15, i32 0, i32 0, i32 0)
  %acc17 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc16, i32 0, i32 0, i32 0)
  %acc18 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc17, i32 0, i32 0, i32 0)
  %acc19 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc18, i32 0, i32 0, i32 0)
  %acc20 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc19, i32 0, i32 0, i32 0)
  %acc21 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc20, i32 0, i32 0, i32 0)
  %acc22 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc21, i32 0, i32 0, i32 0)
  %acc23 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc22, i32 0, i32 0, i32 0)
  %acc24 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc23, i32 0, i32 0, i32 0)
  %acc25 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc24, i32 0, i32 0, i32 0)
  %acc26 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc25, i32 0, i32 0, i32 0)
  %acc27 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc26, i32 0, i32 0, i32 0)
  %acc28 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc27, i32 0, i32 0, i32 0)
  %acc29 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc28, i32 0, i32 0, i32 0)
  %acc30 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc29, i32 0, i32 0, i32 0)
  %acc31 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc30, i32 0, i32 0, i32 0)
  %acc32 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc31, i32 0, i32 0, i32 0)
  %acc33 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc32, i32 0, i32 0, i32 0)
  %acc34 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc33, i32 0, i32 0, i32 0)
  %acc35 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc34, i32 0, i32 0, i32 0)
  %acc36 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc35, i32 0, i32 0, i32 0)
  %acc37 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc36, i32 0, i32 0, i32 0)
  %acc38 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc37, i32 0, i32 0, i32 0)
  %acc39 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc38, i32 0, i32 0, i32 0)
  %acc40 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc39, i32 0, i32 0, i32 0)
  %acc41 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc40, i32 0, i32 0, i32 0)
  %acc42 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc41, i32 0, i32 0, i32 0)
  %acc43 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc42, i32 0, i32 0, i32 0)
  %acc44 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc43, i32 0, i32 0, i32 0)
  %acc45 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc44, i32 0, i32 0, i32 0)
  %acc46 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc45, i32 0, i32 0, i32 0)
  %acc47 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc46, i32 0, i32 0, i32 0)
  %acc48 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc47, i32 0, i32 0, i32 0)
  %acc49 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc48, i32 0, i32 0, i32 0)
  %acc50 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc49, i32 0, i32 0, i32 0)
  %acc51 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc50, i32 0, i32 0, i32 0)
  %acc52 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc51, i32 0, i32 0, i32 0)
  %acc53 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc52, i32 0, i32 0, i32 0)
  %acc54 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc53, i32 0, i32 0, i32 0)
  %acc55 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc54, i32 0, i32 0, i32 0)
  %acc56 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc55, i32 0, i32 0, i32 0)
  %acc57 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc56, i32 0, i32 0, i32 0)
  %acc58 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc57, i32 0, i32 0, i32 0)
  %acc59 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc58, i32 0, i32 0, i32 0)
  %acc60 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc59, i32 0, i32 0, i32 0)
  %acc61 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc60, i32 0, i32 0, i32 0)
  %acc62 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc61, i32 0, i32 0, i32 0)
  %acc63 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc62, i32 0, i32 0, i32 0)
  %acc64 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %a, <8 x bfloat> %b, <4 x float> %acc63, i32 0, i32 0, i32 0)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %iterations
  br i1 %more, label %loop, label %done

done:
  %dst = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %item
  store <4 x float> %acc64, ptr addrspace(1) %dst, align 16
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat>, <8 x bfloat>, <4 x float>, i32, i32, i32)

!0 = !{i32 256, i32 1, i32 1}
