; fetch-straddle (GFX9/CDNA): the literal add at slot 7; v0's move is independent of it.
.text
.globl k
k:
  s_mov_b32 s0, 0
  s_mov_b32 s1, 0
  s_mov_b32 s2, 0
  s_mov_b32 s3, 0
  s_mov_b32 s4, 0
  s_mov_b32 s5, 0
  v_mov_b32 v0, 0
  v_add_f32 v1, 0x12345, v2
  v_mov_b32 v3, v1
  s_endpgm
