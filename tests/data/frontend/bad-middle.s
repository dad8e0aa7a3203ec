// SPDX-License-Identifier: MIT
// tst_cli / tst_frontend: one bad line in the middle; the rest must still be listed.
.text
  s_mov_b32 s0, 1
  v_not_an_instruction v0, v1
  s_mov_b32 s1, 0x12345
  s_endpgm
