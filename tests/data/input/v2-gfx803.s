// SPDX-License-Identifier: MIT
// A kernel written for code object v2 as AMD's assembler examples and gcnasm were (LLVM 14 took
// it): the .hsa_code_object_* header, .amdgpu_hsa_kernel, .amd_kernel_code_t and v2 metadata.
.hsa_code_object_version 2,1
.hsa_code_object_isa 8,0,3,"AMD","AMDGPU"
.text
.p2align 8
.amdgpu_hsa_kernel hello
hello:
  .amd_kernel_code_t
     enable_sgpr_kernarg_segment_ptr = 1
     is_ptr64 = 1
     compute_pgm_rsrc2_user_sgpr = 2
     kernarg_segment_byte_size = 8
     wavefront_sgpr_count = 8
     workitem_vgpr_count = 4
  .end_amd_kernel_code_t
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_mov_b32 v1, 1.0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, s0
  v_mov_b32 v3, s1
  flat_store_dword v[2:3], v1
  s_endpgm
.amd_amdgpu_isa "amdgcn-amd-amdhsa--gfx803"
.amd_amdgpu_hsa_metadata
Version: [ 1, 0 ]
Kernels:
  - Name: hello
    Args:
      - Size: 8
        Align: 8
.end_amd_amdgpu_hsa_metadata
