; fetch-align: a VOP3 add written _e64 at slot 3 has a 1-dword encoding.
.text
.globl k
k:
  s_mov_b32 s0, 0
  s_mov_b32 s1, 0
  s_mov_b32 s2, 0
  v_add_f32_e64 v1, v2, v3
  v_mov_b32 v3, v4
  s_endpgm
