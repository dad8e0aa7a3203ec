// SPDX-License-Identifier: MIT
// tst_timingasm / the analyze JSON contract: every GFX6 penalty rule once, at known offsets.
.text
.globl k
.p2align 8
.type k,@function
k:
    v_add_i32 v0, vcc, v1, v2          // 0x00  4 B  VOP2, H-valu-salu writer
    s_mov_b32 s0, 0                    // 0x04  4 B  SALU directly after: valu-salu +16
    v_mov_b32 v1, 0x12345678           // 0x08  8 B  slot 2: R-first16
    v_mad_f32 v2, v0, v1, v3           // 0x10  8 B  slot 4, C 4: fetch-align +4
    v_cmp_eq_u32 vcc, v0, v1           // 0x18  4 B  writes VCC
    s_cbranch_vccz .Lend               // 0x1c  4 B  slot 7, forward: not taken, B-position 7-3 = 4 → +16; vcc-exec-branch +4
    v_mul_lo_u32 v3, v0, v1            // 0x20  8 B  slot 0, C 16: R-first16
.Lend:
    s_endpgm                           // 0x28  4 B
