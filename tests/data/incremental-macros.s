// SPDX-License-Identifier: MIT
// Incremental-edit test input: macros, .rept, .set symbols, alignment and two kernels.
.set vbase, 4
.macro addk dst, src, k
    v_add_u32 \dst, \src, \k
.endm
.text
.p2align 8
.type first,@function
first:
    v_mov_b32 v[vbase], 0
    addk v1, v2, 7
    .rept 3
    v_mul_f32 v3, 0x40400000, v3
    .endr
top:
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, 8
    s_cbranch_scc1 top
    s_branch done
    v_nop
done:
    s_endpgm
.p2align 8
.type second,@function
second:
    v_mov_b32 v0, 1
    s_cbranch_execz out
    v_mov_b32 v1, 0x11111111
out:
    s_endpgm
