"""Prints an AMDGPU kernel that chains COUNT MFMA 16x16x16 bf16 on
operands of 1.0 (bf16 0x3F80) and stores the accumulators."""
import sys

count = int(sys.argv[1])
print('target triple = "amdgcn-amd-amdhsa"')
print()
print("define amdgpu_kernel void @many(ptr addrspace(1) %out) "
      "!reqd_work_group_size !0 {")
print("  %acc0 = bitcast <4 x float> zeroinitializer to <4 x float>")
for i in range(count):
    print("  %%acc%d = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16bf16.1k("
          "<4 x i16> <i16 16256, i16 16256, i16 16256, i16 16256>, "
          "<4 x i16> <i16 16256, i16 16256, i16 16256, i16 16256>, "
          "<4 x float> %%acc%d, i32 0, i32 0, i32 0)" % (i + 1, i))
print("  %lane = call i32 @llvm.amdgcn.workitem.id.x()")
print("  %p = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %lane")
print("  store <4 x float> %%acc%d, ptr addrspace(1) %%p, align 16" % count)
print("  ret void")
print("}")
print()
print("declare i32 @llvm.amdgcn.workitem.id.x()")
print("declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x16bf16.1k("
      "<4 x i16>, <4 x i16>, <4 x float>, i32, i32, i32)")
print()
print("!0 = !{i32 64, i32 1, i32 1}")
