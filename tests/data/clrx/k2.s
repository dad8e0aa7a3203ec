; SPDX-License-Identifier: MIT
; LLVM-syntax twin of k2.clrx.
.text
.type k2,@function
k2:
    v_add_u32_e32 v1, vcc, v2, v3
    v_mov_b32_sdwa v4, v5 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:WORD_1
    v_add_f32_dpp v6, v7, v8 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    v_mov_b32_dpp v9, v6 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
    s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)
    s_waitcnt vmcnt(1) expcnt(0) lgkmcnt(2)
    s_add_u32 s4, s5, 1000
    s_movk_i32 s6, 0x1234
    v_add_f32_e64 v10, v11, v1 clamp
    s_endpgm
