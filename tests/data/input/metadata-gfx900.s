// SPDX-License-Identifier: MIT
// A gfx900 kernel with the code object v5 metadata note (as clang writes it): tst_objectreader
// checks that the declared resources and the workgroup size reach occupancy.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5
.text
.globl meta
.p2align 8
.type meta,@function
meta:
    v_mov_b32 v0, 0
    ds_write_b32 v0, v0
    s_endpgm
.Lmeta_end:
    .size meta, .Lmeta_end-meta
.rodata
.p2align 6
.amdhsa_kernel meta
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_group_segment_fixed_size 4096
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .name: meta
    .symbol: meta.kd
    .vgpr_count: 37
    .sgpr_count: 22
    .agpr_count: 0
    .group_segment_fixed_size: 4096
    .private_segment_fixed_size: 0
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .max_flat_workgroup_size: 1024
    .reqd_workgroup_size: [ 128, 2, 1 ]
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata
