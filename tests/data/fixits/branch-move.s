; branch-position: the conditional jump falls through at slot 6; s2, s3 and v5 are dead where it jumps.
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
  s_endpgm
