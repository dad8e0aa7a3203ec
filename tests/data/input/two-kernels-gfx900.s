// SPDX-License-Identifier: MIT
// Two code object v5 kernels for gfx900, assembled to an object by tst_objectreader: a loop with a
// backward branch and a literal, and an LDS kernel with a forward branch.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl first
.p2align 8
.type first,@function
first:
    s_load_dwordx2 s[0:1], s[4:5], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    v_add_f32 v2, 0x40490fdb, v1
loop:
    s_sub_u32 s2, s2, 1
    s_cmp_lg_u32 s2, 0
    s_cbranch_scc1 loop
    global_store_dword v1, v2, s[0:1]
    s_endpgm
.Lfirst_end:
    .size first, .Lfirst_end-first

.globl second
.p2align 8
.type second,@function
second:
    v_lshlrev_b32 v1, 7, v0
    ds_write_b32 v1, v0
    v_cmp_gt_u32 vcc, 32, v0
    s_cbranch_vccz skip
    ds_read_b32 v2, v1 offset:256
    s_waitcnt lgkmcnt(0)
    v_mac_f32 v3, v2, v2
skip:
    s_endpgm
.Lsecond_end:
    .size second, .Lsecond_end-second

.rodata
.p2align 6
.amdhsa_kernel first
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 6
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel second
  .amdhsa_next_free_vgpr 9
  .amdhsa_next_free_sgpr 2
  .amdhsa_group_segment_fixed_size 8192
.end_amdhsa_kernel
