; fetch-align with no independent instruction: each reads the one before, and an s_nop gains nothing.
.text
.globl k
k:
  v_mov_b32 v0, 1
  v_mov_b32 v1, v0
  v_mov_b32 v2, v1
  v_add_f32 v3, 0x12345, v2
  v_mov_b32 v4, v3
  s_endpgm
