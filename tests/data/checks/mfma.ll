; SPDX-License-Identifier: MIT
; Kernels for the independent check of tst_hazards (issue #17): llc inserts the wait states.
target triple = "amdgcn-amd-amdhsa"
declare <4 x float> @llvm.amdgcn.mfma.f32.4x4x1f32(float, float, <4 x float>, i32, i32, i32)
declare <16 x float> @llvm.amdgcn.mfma.f32.16x16x1f32(float, float, <16 x float>, i32, i32, i32)
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x2f32(float, float, <16 x float>, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half>, <4 x half>, <4 x float>, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @mfma(ptr addrspace(1) %out, ptr addrspace(1) %in, float %a, float %b) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr <16 x float>, ptr addrspace(1) %in, i32 %tid
  %c = load <16 x float>, ptr addrspace(1) %p
  %x = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %xa = load float, ptr addrspace(1) %x
  %r1 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x2f32(float %xa, float %b, <16 x float> %c, i32 0, i32 0, i32 0)
  %e = extractelement <16 x float> %r1, i32 3
  %r2 = call <16 x float> @llvm.amdgcn.mfma.f32.16x16x1f32(float %e, float %b, <16 x float> %r1, i32 0, i32 0, i32 0)
  %c4 = shufflevector <16 x float> %r2, <16 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %r3 = call <4 x float> @llvm.amdgcn.mfma.f32.4x4x1f32(float %a, float %e, <4 x float> %c4, i32 0, i32 0, i32 0)
  %e2 = extractelement <4 x float> %r3, i32 1
  %h = bitcast <2 x float> <float 1.0, float 2.0> to <4 x half>
  %r4 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %h, <4 x half> %h, <4 x float> %r3, i32 0, i32 0, i32 0)
  %r5 = call <4 x float> @llvm.amdgcn.mfma.f32.4x4x1f32(float %e2, float %a, <4 x float> %r4, i32 0, i32 0, i32 0)
  %q = getelementptr <16 x float>, ptr addrspace(1) %out, i32 %tid
  store <16 x float> %r2, ptr addrspace(1) %q
  %q2 = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %r5, ptr addrspace(1) %q2
  ret void
}
