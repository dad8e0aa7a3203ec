; SPDX-License-Identifier: MIT
; Kernels for the independent check of tst_hazards (issue #17): llc inserts the wait states.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.readlane(i32, i32)
declare i32 @llvm.amdgcn.readfirstlane(i32)
declare i32 @llvm.amdgcn.writelane(i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.amdgcn.div.fmas.f32(float, float, float, i1)
declare i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32>, i32, i32)
declare float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32>, i32, i32, i32)
define amdgpu_kernel void @lanes(ptr addrspace(1) %out, ptr addrspace(1) %in, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %v = load i32, ptr addrspace(1) %p
  %w = mul i32 %v, 7
  %s = call i32 @llvm.amdgcn.readfirstlane(i32 %w)
  %l = call i32 @llvm.amdgcn.readlane(i32 %v, i32 %s)
  %l2 = call i32 @llvm.amdgcn.writelane(i32 %l, i32 %s, i32 %v)
  %sb = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %rsrc, i32 %s, i32 0)
  %bl = call float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32> %rsrc, i32 %tid, i32 %s, i32 0)
  %blb = bitcast float %bl to i32
  %f = bitcast i32 %l2 to float
  %cmp = icmp eq i32 %v, %sb
  %d = call float @llvm.amdgcn.div.fmas.f32(float %f, float %f, float %f, i1 %cmp)
  %di = bitcast float %d to i32
  %sum = add i32 %di, %blb
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %sum, ptr addrspace(1) %q
  ret void
}
