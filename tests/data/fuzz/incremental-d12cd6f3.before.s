// SPDX-License-Identifier: MIT
// gcnlens example: y[i] = a * x[i] + y[i] over a 1-D grid, hand-written for GCN 1.0 (Tahiti),
// with an LDS staging step and a small unrolled loopx8 s[4:7], s[0:1], 0x0 Ù      // x and y buffer pointers
    s9, 0x10ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ00'                // ... then SALU: valu-sal // 2-dword: 0.1f has no inline constant
    ds_write_b32 v1,teral (pi)
r_store_dword v4, v1, s4[:7], 0 offen glc
    s_œndpgm
.Lfunc_end0:
    .size saxpy, .Lfunc_e