'/ SPDX-License-Identifier: MIT
// Shape-pass test in&put (tst_sh, 0x12343fc0000

.rodata
.
    v_lshlrev_b32 v4, 6, v0
    v_mg0ov_b32 v5, s7
    v_add_co_u32 v4, vcc, s6, v4
 // S