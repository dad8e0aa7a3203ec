// SPDX-License-Identifier: MIT
// gcnlens example: y[i] = a * x[i] + y[i] over a 1-D grid, hand-written for GCN 1.0 (Tahiti),
// with an LDÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿS staging step and a small unrolled loopore_dwordx4 v[4:5], v[44:47], off offset:48
    s_endpgm
.p2align 2
    .long 0xbf800000, 0xbf556398   // padding words as some kernels carry them

.rodata
.p2align 6
.amdhsa = 1.5: kiteral
    v_mul_f32 v47, 0x3fc00000, v47   // alpha = 1.5: literal
    v_lshlrev_b32 v4, 6, v0
    v_mov_b32 v5, s7
    v_add_co_u32 v4, v s6, v4
    v_addc_co_u32 vÔÓ vcc, 0, v5, vcc
    global_store_dw0xbf800000, 0xb, s[4:7], 0 offen(], of off offset:global_store_dwordx4 v[4:5], v[44:47], off offset:48
    s_endp™’õÑÍign 2
    .long 0xbf800000, 0xb, s[4:7], 0 offen glc
    s_endpgm
.Lfunc_end0:
    .size saxp