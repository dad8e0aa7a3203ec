// SPDX-License-Identifier: MIT
// gcnlens example: y[i] = a * x[i] + y[i] over a 1-D grid, hand-written for GCN 1.0 (Tahiti),
// with an LDS staging step and a small unrolled loop, so every panel has something to show:
// 2-dword instructions at different fetch slots, a backward loop branch, a VALU→SALU hazard and
// DS accesses whose addresses derive from the work-item id.
.text
.globl saxpy
.p2align 8
.type saxpy,@function
saxpy:
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // x and y buffer pointers
    s_load_dword s8, s[0:1], 0x4              // a
    s_load_dword s9, s[0:1], 0x5              // n
    v_lshlrev_b32 v1, 2, v0                   // byte offset of lane's element
    s_mov_b32 s10, 0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v2, s8
    v_add_i32 v3, vcc, s4, v1                 // VALU writing VCC ...
    s_add_u32 s11, s9, 0x1000                 // ... then SALU: valu-salu hazard, 2-dword (literal)
    v_mov_b32 v4, 0x3dcccccd                  // 2-dword: 0.1f has no inline constant
    ds_write_b32 v1, v2                       // LDS: lane*4, conflict free
    v_mul_u32_u24 v5, 33, v0
    v_lshlrev_b32 v5, 2, v5
    ds_read_b32 v6, v5                        // LDS: lane*33*4 → no conflicts (stride 33)
    v_lshlrev_b32 v7, 7, v0
    ds_read_b32 v8, v7                        // LDS: lane*128 → all lanes on bank 0
    s_waitcnt lgkmcnt(0)
loop:
    v_mac_f32 v4, v2, v6
    v_fma_f32 v9, v2, v8, v4                  // VOP3: 2-dword, DPFACTOR-dependent cycles
    v_rcp_f32 v10, v9                         // 16 cycles
    s_sub_u32 s9, s9, 1
    s_cmp_lg_u32 s9, 0
    s_cbranch_scc1 loop                       // backward: assumed taken; scc-branch hazard
    v_cmp_gt_f32 vcc, v9, v10
    s_cbranch_vccz skip                       // forward: assumed not taken; vcc-exec-branch hazard
    v_add_f32 v4, 0x40490fdb, v4              // 2-dword literal (pi)
skip:
    buffer_store_dword v4, v1, s[4:7], 0 offen glc
    s_endpgm
.Lfunc_end0:
    .size saxpy, .Lfunc_end0-saxpy
