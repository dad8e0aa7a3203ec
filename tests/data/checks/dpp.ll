; SPDX-License-Identifier: MIT
; Kernels for the independent check of tst_hazards (issue #17): llc inserts the wait states.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readlane(i32, i32)
define amdgpu_kernel void @dpp(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %v = load i32, ptr addrspace(1) %p
  %a = add i32 %v, 3
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %a, i32 273, i32 15, i32 15, i1 false)
  %b = mul i32 %d, %a
  %d2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %b, i32 321, i32 15, i32 15, i1 false)
  %c = icmp sgt i32 %d2, 10
  br i1 %c, label %then, label %done
then:
  %e = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d2, i32 %b, i32 273, i32 15, i32 15, i1 false)
  br label %done
done:
  %r = phi i32 [ %d2, %0 ], [ %e, %then ]
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %r, ptr addrspace(1) %q
  ret void
}
