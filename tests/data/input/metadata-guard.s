// SPDX-License-Identifier: MIT
// A MIOpen-style source: v2 or v3+ directives chosen by ROCM_METADATA_VERSION (--defsym), built
// with amdgcn-amd-amdhsa when the version is 5.
.include "metadata-guard.inc"
.text
.globl guarded
.p2align 8
.type guarded,@function
guarded:
.if .option.machine_version_major == 9
    v_mov_b32 v0, 1.0
.endif
    s_endpgm
.if ROCM_METADATA_VERSION == 5
.rodata
.p2align 6
.amdhsa_kernel guarded
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
.end_amdhsa_kernel
.else
.amdgpu_hsa_kernel guarded
.endif
