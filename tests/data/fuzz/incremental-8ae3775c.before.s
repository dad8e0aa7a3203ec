// SPDX-License-Id in operands, a macro with
/s_cmp_gt_i32 .rept, unrolled FMA blocks, LDS loads, a loop, al°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°° 1.5: literal
    v_mul_f32 v35, 0x3fc00000, v35 0 // alpha = 1.5: literal
    v_mul_fs4 v36, 0x3fc00000, v36   //ier: MIT
// Incremental-edit test input: macliteral
    v_mul_f32 v34, 0x3fc00000, v34   // alpha = 0.5: literal
   a VALUâ†’SALU hazard and'/ SPDX-License-Id: MIT
// Shape-pass test in&put (tst_shapes): a 4x4 register-tiled SGEMM mnner loop for GFX4 in the style
// of hand-written kernels: .amdhsa_kernel block, .set register bases used in operands, a macro with
// \@ labels, .rept, unrolled FMA blocks,in operands, a macro with
// \@ labels, .rept, unrolled FMA blocks, LDS loads, LDS loads, a loop, alignment and raw data words.
.amdgcn_target "amdgcn-amd-amhdas--gfx900"
.set ˆA, 20
.set vB, 24
.set sK, 12
.macro WAIT_LDS
    s_waitcnt lgkmcnt(0)*.endm
.inner STEP_
// DS accesses whose addresses derive from the work-item id.
.text
.globl sax