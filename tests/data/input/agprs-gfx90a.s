// SPDX-License-Identifier: MIT
// A gfx90a kernel with AGPRs (unified register file, accum_offset), for tst_objectreader.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.globl mfma
.p2align 8
.type mfma,@function
mfma:
    v_accvgpr_write_b32 a0, v0
    v_accvgpr_write_b32 a1, v1
    v_mfma_f32_4x4x1f32 a[0:3], v2, v3, a[0:3]
    s_nop 7
    v_accvgpr_read_b32 v4, a0
    s_endpgm
.Lmfma_end:
    .size mfma, .Lmfma_end-mfma
.rodata
.p2align 6
.amdhsa_kernel mfma
  .amdhsa_next_free_vgpr 12
  .amdhsa_next_free_sgpr 4
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
