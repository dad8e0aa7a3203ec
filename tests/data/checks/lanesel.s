// W-lanesel: v_readlane's lane select written by a VALU one wait state before (4 needed).
k:
  v_readfirstlane_b32 s4, v0
  s_nop 0
  v_readlane_b32 s5, v1, s4
  s_endpgm
