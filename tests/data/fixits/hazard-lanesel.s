; W-lanesel: the SGPR a VALU wrote is the lane select right after it (fix: s_nop before line 6).
.text
.globl k
k:
  v_readfirstlane_b32 s4, v0
  v_readlane_b32 s5, v1, s4
  s_endpgm
