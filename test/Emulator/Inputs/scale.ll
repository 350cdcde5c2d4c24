; y[i] = 2 * x[i] for i < n, one work-item per element.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @scale(ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %wg, 256
  %i = add i32 %base, %tid
  %inside = icmp ult i32 %i, %n
  br i1 %inside, label %body, label %done
body:
  %px = getelementptr float, ptr addrspace(1) %x, i32 %i
  %v = load float, ptr addrspace(1) %px, align 4
  %w = fmul float %v, 2.0
  %py = getelementptr float, ptr addrspace(1) %y, i32 %i
  store float %w, ptr addrspace(1) %py, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

!0 = !{i32 256, i32 1, i32 1}
