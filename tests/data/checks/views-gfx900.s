// SPDX-License-Identifier: MIT
// gcnlens test kernel (gfx900): a diamond, a loop, a W-lanesel hazard, an s_waitcnt finding the
// out-of-order lgkm returns make "not guaranteed", and a VGPR pressure peak inside the loop
// (16 four-dword loads live at once), for the window's pressure column, strip, markers and report.
.text
.globl pressure
.p2align 8
.type pressure,@function
pressure:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dword s8, s[0:1], 0x10
  ds_read_b32 v1, v0
  s_waitcnt lgkmcnt(1)
  v_add_u32_e32 v2, v1, v0
  v_readfirstlane_b32 s9, v2
  v_readlane_b32 s10, v2, s9
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 else
  v_mov_b32 v3, s10
  s_branch join
else:
  v_mov_b32 v3, s8
join:
  s_mov_b32 s11, 4
loop:
  buffer_load_dwordx4 v[4:7], v0, s[4:7], 0 offen offset:0
  buffer_load_dwordx4 v[8:11], v0, s[4:7], 0 offen offset:16
  buffer_load_dwordx4 v[12:15], v0, s[4:7], 0 offen offset:32
  buffer_load_dwordx4 v[16:19], v0, s[4:7], 0 offen offset:48
  buffer_load_dwordx4 v[20:23], v0, s[4:7], 0 offen offset:64
  buffer_load_dwordx4 v[24:27], v0, s[4:7], 0 offen offset:80
  buffer_load_dwordx4 v[28:31], v0, s[4:7], 0 offen offset:96
  buffer_load_dwordx4 v[32:35], v0, s[4:7], 0 offen offset:112
  buffer_load_dwordx4 v[36:39], v0, s[4:7], 0 offen offset:128
  buffer_load_dwordx4 v[40:43], v0, s[4:7], 0 offen offset:144
  buffer_load_dwordx4 v[44:47], v0, s[4:7], 0 offen offset:160
  buffer_load_dwordx4 v[48:51], v0, s[4:7], 0 offen offset:176
  buffer_load_dwordx4 v[52:55], v0, s[4:7], 0 offen offset:192
  buffer_load_dwordx4 v[56:59], v0, s[4:7], 0 offen offset:208
  buffer_load_dwordx4 v[60:63], v0, s[4:7], 0 offen offset:224
  buffer_load_dwordx4 v[64:67], v0, s[4:7], 0 offen offset:240
  s_waitcnt vmcnt(0)
  buffer_store_dwordx4 v[4:7], v3, s[4:7], 0 offen offset:0
  buffer_store_dwordx4 v[8:11], v3, s[4:7], 0 offen offset:16
  buffer_store_dwordx4 v[12:15], v3, s[4:7], 0 offen offset:32
  buffer_store_dwordx4 v[16:19], v3, s[4:7], 0 offen offset:48
  buffer_store_dwordx4 v[20:23], v3, s[4:7], 0 offen offset:64
  buffer_store_dwordx4 v[24:27], v3, s[4:7], 0 offen offset:80
  buffer_store_dwordx4 v[28:31], v3, s[4:7], 0 offen offset:96
  buffer_store_dwordx4 v[32:35], v3, s[4:7], 0 offen offset:112
  buffer_store_dwordx4 v[36:39], v3, s[4:7], 0 offen offset:128
  buffer_store_dwordx4 v[40:43], v3, s[4:7], 0 offen offset:144
  buffer_store_dwordx4 v[44:47], v3, s[4:7], 0 offen offset:160
  buffer_store_dwordx4 v[48:51], v3, s[4:7], 0 offen offset:176
  buffer_store_dwordx4 v[52:55], v3, s[4:7], 0 offen offset:192
  buffer_store_dwordx4 v[56:59], v3, s[4:7], 0 offen offset:208
  buffer_store_dwordx4 v[60:63], v3, s[4:7], 0 offen offset:224
  buffer_store_dwordx4 v[64:67], v3, s[4:7], 0 offen offset:240
  s_sub_u32 s11, s11, 1
  s_cmp_lg_u32 s11, 0
  s_cbranch_scc1 loop
  s_endpgm
