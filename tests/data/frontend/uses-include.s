// SPDX-License-Identifier: MIT
// tst_cli: needs -I tests/data/frontend/inc and --defsym COUNT=N.
.include "defs.inc"
  clear_v 3
  s_mov_b32 s2, COUNT
  s_endpgm
