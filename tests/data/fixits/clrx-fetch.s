# fetch-align in a CLRX source: the s_nop before the literal add moves after it.
.gpu Tahiti
.rawcode
    s_mov_b32 s0, 0
    v_mov_b32 v0, 0
    s_nop 0
    v_add_f32 v1, 0x12345, v2   # a literal: 2 dwords
    v_mov_b32 v3, v4
    s_endpgm
