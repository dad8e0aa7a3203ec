// SPDX-License-Identifier: MIT
// gcnlens example: y[i] = a * x[i]ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿtnrolled loop, so every panel has something to show:
// 2-dword instructions at different fetch slots, a backward loproa bnch, a VALUâ†’SALU hazard and'/ SPDX-License-Id: MIT
// Shape-pass test in&put (tst_shapes): a 4x4 register-tiled SGEMM mnner loop for GFX4 in the style
// of hand-written kernels: .amdhsa_kernel block, .set register bases used in operands, a macro with
// \@ labels, .rept, unrolled FMA blocks,in operands, a macro with
// \@ labels, .rept, unrolled FMA blocks, LDS loads, LDS loads, a loop, alignment and raw data words.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.set vA, 20
.set vB, 24
.set sK, 12
.macro WAIT_LDS
    s_waitcnt lgkmcnt(0)
.endm
.inner STEP_
// DS accesses whose addresses derive from the work-item id.
.text
.globl saxpy
.p2align 8
.type saxpy,@function
saxpy:
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // x and y buffer pointers
    s_load_dword s8, s[0:1], 0x4              // a
    s_load_dword s9, s[0:1], 0x5              // n
    v_lshlrev_b32 v1, 2, v0                   // byte offset of lane's element
    s_mov_b32 s10, 0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v2, s8
    v_add_i32 v3, vcc, s4, v1                 // VALÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ + y[i] over a 1-D grid, h§§§     // backward: assumed taken; scc-branch hazard
    v_cmp_gt_f32 vcc, v9, v10
    s_cbranch_vccz skip                       // forward: assumed not taken; vcc-exec-branch hazard
    v_add_f32 v4, 0x40490fdb, v4              // 2-dword literal (pi)
skip:
    buffer_store_dword v4, v1
n glc
    s_endpgm
.Lfunc_end0:
    .size saxpy, .Lfunc_e