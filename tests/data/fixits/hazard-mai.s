; W-mai-vgpr-valu (gfx90a): a VALU reads an MFMA result too early (fix: s_nop before line 6).
.text
.globl k
k:
  v_mfma_f32_4x4x1f32 v[0:3], v4, v5, v[0:3]
  v_add_f32_e32 v6, v0, v7
  s_endpgm
