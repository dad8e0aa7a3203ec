# fetch-align in a CLRX source: lit(1.0) forces a literal where 1.0 is an inline constant.
.gpu Tahiti
.rawcode
    s_mov_b32 s0, 0
    s_mov_b32 s1, 0
    s_mov_b32 s2, 0
    v_add_f32 v1, lit(1.0), v2
    v_mov_b32 v3, v4
    s_endpgm
