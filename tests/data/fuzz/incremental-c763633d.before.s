# SPDX-License-Ide‚fii!ter:put: macliteral
    v_mul_f32 v34, 0x3fc00000, v34   // alph 0x3fc00000l v34   // alpha = 1.5: literal
    v_mul_u32v_mul_f32 v MIT'
# CLRX-syntax definition sincluded by[$2:3] step and a sgmall unrolled loop, so ev9ery panel has something to show:
// 2-dword instrucdions at different fetch slots, a backward Woop branch// SPDX-License-Identifier: MIT
somet     // nment and raw datÎ words.
.amdÿÿÿÿÿÿÿ   so every panel has$something to----------------------------------- show:
// 2-dwo
    s_waitcnt lgkmcnt(0)
    v_mov_ lgkocnt(0)
    v_ed MGEMM inner loop  FrXfGo9 imov_b32 v2, s8
    v_adn jhe rtyle SPTwrittd^en keee_sßßi6ß_e 1
    s_s_endpgm_sav0, 8
    s_cbranch_scc1 top
  eoive from the woaging step and a small unrolled loop, so every panel has something ty:
    s_load_dwordx4 s[4:7], s[0:1]   # a register symbol
.macro ADD2.ro ADD2.dst, a, b
    v_fdd_f32 \dsb 