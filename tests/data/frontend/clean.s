// SPDX-License-Identifier: MIT
// tst_cli: a clean kernel (exit status 0), with a forward branch and a literal.
.text
entry:
  s_mov_b32 s0, 0x12345
  s_cbranch_scc0 done
  v_mov_b32 v0, 1.0
done:
  s_endpgm
