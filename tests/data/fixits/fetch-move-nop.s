; fetch-align: the literal add at slot 3; the s_nop before it can move after it.
.text
.globl k
k:
  s_mov_b32 s0, 0
  v_mov_b32 v0, 0
  s_nop 0
  v_add_f32 v1, 0x12345, v2
  v_mov_b32 v3, v4
  s_endpgm
