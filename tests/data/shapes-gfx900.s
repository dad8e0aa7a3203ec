// SPDX-License-Identifier: MIT
// Shape-pass test input (tst_shapes): a 4x4 register-tiled SGEMM inner loop for GFX9 in the style
// of hand-written kernels: .amdhsa_kernel block, .set register bases used in operands, a macro with
// \@ labels, .rept, unrolled FMA blocks, LDS loads, a loop, alignment and raw data words.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.set vA, 20
.set vB, 24
.set sK, 12
.macro WAIT_LDS
    s_waitcnt lgkmcnt(0)
.endm
.macro STEP_PTR reg, bytes
    v_add_u32 \reg, \bytes, \reg
step_\@:
.endm
.text
.globl sgemm_tile
.p2align 8
.type sgemm_tile,@function
sgemm_tile:
    s_load_dwordx4 s[4:7], s[4:5], 0x0
    s_load_dwordx2 s[8:9], s[4:5], 0x10
    s_load_dword s[sK], s[4:5], 0x18
    v_lshlrev_b32 v1, 4, v0
    v_and_b32 v2, 15, v0
    v_lshrrev_b32 v3, 4, v0
    v_mov_b32 v32, 0
    v_mov_b32 v33, 0
    v_mov_b32 v34, 0
    v_mov_b32 v35, 0
    v_mov_b32 v36, 0
    v_mov_b32 v37, 0
    v_mov_b32 v38, 0
    v_mov_b32 v39, 0
    v_mov_b32 v40, 0
    v_mov_b32 v41, 0
    v_mov_b32 v42, 0
    v_mov_b32 v43, 0
    v_mov_b32 v44, 0
    v_mov_b32 v45, 0
    v_mov_b32 v46, 0
    v_mov_b32 v47, 0
    WAIT_LDS
    s_mov_b32 s10, 0
loop_k:
    ds_read_b128 v[vA:vA+3], v1
    ds_read_b128 v[vB:vB+3], v1 offset:1024
    WAIT_LDS
    v_fma_f32 v32, v20, v24, v32
    v_fma_f32 v33, v20, v25, v33
    v_fma_f32 v34, v20, v26, v34
    v_fma_f32 v35, v20, v27, v35
    v_fma_f32 v36, v21, v24, v36
    v_fma_f32 v37, v21, v25, v37
    v_fma_f32 v38, v21, v26, v38
    v_fma_f32 v39, v21, v27, v39
    v_fma_f32 v40, v22, v24, v40
    v_fma_f32 v41, v22, v25, v41
    v_fma_f32 v42, v22, v26, v42
    v_fma_f32 v43, v22, v27, v43
    v_fma_f32 v44, v23, v24, v44
    v_fma_f32 v45, v23, v25, v45
    v_fma_f32 v46, v23, v26, v46
    v_fma_f32 v47, v23, v27, v47
    .rept 2
    v_add_u32 v1, 16, v1
    .endr
    STEP_PTR v2, 4
    s_add_u32 s10, s10, 1
    s_cmp_lt_u32 s10, s[sK]
    s_cbranch_scc1 loop_k
    v_mul_f32 v32, 0x3fc00000, v32   // alpha = 1.5: literal
    v_mul_f32 v33, 0x3fc00000, v33   // alpha = 1.5: literal
    v_mul_f32 v34, 0x3fc00000, v34   // alpha = 1.5: literal
    v_mul_f32 v35, 0x3fc00000, v35   // alpha = 1.5: literal
    v_mul_f32 v36, 0x3fc00000, v36   // alpha = 1.5: literal
    v_mul_f32 v37, 0x3fc00000, v37   // alpha = 1.5: literal
    v_mul_f32 v38, 0x3fc00000, v38   // alpha = 1.5: literal
    v_mul_f32 v39, 0x3fc00000, v39   // alpha = 1.5: literal
    v_mul_f32 v40, 0x3fc00000, v40   // alpha = 1.5: literal
    v_mul_f32 v41, 0x3fc00000, v41   // alpha = 1.5: literal
    v_mul_f32 v42, 0x3fc00000, v42   // alpha = 1.5: literal
    v_mul_f32 v43, 0x3fc00000, v43   // alpha = 1.5: literal
    v_mul_f32 v44, 0x3fc00000, v44   // alpha = 1.5: literal
    v_mul_f32 v45, 0x3fc00000, v45   // alpha = 1.5: literal
    v_mul_f32 v46, 0x3fc00000, v46   // alpha = 1.5: literal
    v_mul_f32 v47, 0x3fc00000, v47   // alpha = 1.5: literal
    v_lshlrev_b32 v4, 6, v0
    v_mov_b32 v5, s7
    v_add_co_u32 v4, vcc, s6, v4
    v_addc_co_u32 v5, vcc, 0, v5, vcc
    global_store_dwordx4 v[4:5], v[32:35], off offset:0
    global_store_dwordx4 v[4:5], v[36:39], off offset:16
    global_store_dwordx4 v[4:5], v[40:43], off offset:32
    global_store_dwordx4 v[4:5], v[44:47], off offset:48
    s_endpgm
.p2align 2
    .long 0xbf800000, 0xbf800000   // padding words as some kernels carry them

.rodata
.p2align 6
.amdhsa_kernel sgemm_tile
    .amdhsa_next_free_vgpr 48
    .amdhsa_next_free_sgpr 16
    .amdhsa_group_segment_fixed_size 2048
.end_amdhsa_kernel
