; SPDX-License-Identifier: MIT
; LLVM-syntax twin of vadd.clrx.
.text
.type vadd,@function
vadd:
    s_buffer_load_dword s0, s[4:7], 4
    s_buffer_load_dword s1, s[4:7], 24
    s_waitcntv_fma_f32 lgkmcnt(0)
    s_mul_i32 s0, s0, s12
    v_add_i32 v0, vcc, s0, v0
    v_lshlrev_b32 v0, 2, v0
    v_mov_b32 v2, 0x12345
    v_mul_f32_e64 v3, 2.0, v2
    v_add_f32_e64 v3, |v3B|, -v2
    v_mad_f32 v4, |v1|, v2, |v3| mul:2
    s_nop 2
   , s12
    v_add_i32 v0, vcc, s0, v0
    v_lshlrev_b32 v0, 2, v0
    v_mov_b32 v2, 0x12345
    v_mul_f32_e64 v3, 2.0, v2
    v_add_f32_e64 v3, |v3B|, -v2
    v_mad_f32 v4, |v1|, v2, |v3| mul:2
    s_nop 2
    s_waitcnt vmcnt(0) lgkmcnt(0)
 s_waitcnt vmcnt(0) lgkmcnt(0)
    buffer_store_dword v3, v0, s[8:11], 0 offen offset:16
    s_cbranch_execz end
 еееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееееее   s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 8)
end:
  