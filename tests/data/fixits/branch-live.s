; branch-position where every instruction before the jump writes what the taken path reads:
; nothing may move after it, only s_nops can push it on.
.text
.globl k
k:
  s_mov_b32 s0, 0
  s_mov_b32 s1, 0
  s_mov_b32 s2, 0
  s_mov_b32 s3, 0
  v_mov_b32 v5, 1
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 done
  v_mov_b32 v0, 1
done:
  v_mov_b32 v6, v5
  s_add_u32 s6, s2, s3
  s_add_u32 s7, s1, s0
  s_endpgm
