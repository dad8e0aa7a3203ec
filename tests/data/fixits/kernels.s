; Four kernels, each with a literal add straddling a fetch block (GFX9, fetch-straddle), for the
; kernel-scoped fix-it runs (core/model/fixits.cpp): a is exactly 256 bytes, so an s_nop in it moves b
; (whole-text runs decide); b is measured on a prefix; c reads a symbol set after the last kernel; d is
; the last kernel (whole-text runs).
.text
.globl a
.type a,@function
.p2align 8
a:
  s_mov_b32 s0, 0
  s_mov_b32 s1, 0
  s_mov_b32 s2, 0
  s_mov_b32 s3, 0
  s_mov_b32 s4, 0
  s_mov_b32 s5, 0
  v_mov_b32 v0, 0
  v_add_f32 v1, 0x12345, v2
  v_mov_b32 v3, v1
  s_mov_b32 s10, 0
  s_mov_b32 s10, 1
  s_mov_b32 s10, 2
  s_mov_b32 s10, 3
  s_mov_b32 s10, 4
  s_mov_b32 s10, 5
  s_mov_b32 s10, 6
  s_mov_b32 s10, 7
  s_mov_b32 s10, 8
  s_mov_b32 s10, 9
  s_mov_b32 s10, 10
  s_mov_b32 s10, 11
  s_mov_b32 s10, 12
  s_mov_b32 s10, 13
  s_mov_b32 s10, 14
  s_mov_b32 s10, 15
  s_mov_b32 s10, 16
  s_mov_b32 s10, 17
  s_mov_b32 s10, 18
  s_mov_b32 s10, 19
  s_mov_b32 s10, 20
  s_mov_b32 s10, 21
  s_mov_b32 s10, 22
  s_mov_b32 s10, 23
  s_mov_b32 s10, 24
  s_mov_b32 s10, 25
  s_mov_b32 s10, 26
  s_mov_b32 s10, 27
  s_mov_b32 s10, 28
  s_mov_b32 s10, 29
  s_mov_b32 s10, 30
  s_mov_b32 s10, 31
  s_mov_b32 s10, 32
  s_mov_b32 s10, 33
  s_mov_b32 s10, 34
  s_mov_b32 s10, 35
  s_mov_b32 s10, 36
  s_mov_b32 s10, 37
  s_mov_b32 s10, 38
  s_mov_b32 s10, 39
  s_mov_b32 s10, 40
  s_mov_b32 s10, 41
  s_mov_b32 s10, 42
  s_mov_b32 s10, 43
  s_mov_b32 s10, 44
  s_mov_b32 s10, 45
  s_mov_b32 s10, 46
  s_mov_b32 s10, 47
  s_mov_b32 s10, 48
  s_mov_b32 s10, 49
  s_mov_b32 s10, 50
  s_mov_b32 s10, 51
  s_mov_b32 s10, 52
  s_endpgm
.globl b
.type b,@function
.p2align 8
b:
  s_mov_b32 s0, 0
  s_mov_b32 s1, 0
  s_mov_b32 s2, 0
  s_mov_b32 s3, 0
  s_mov_b32 s4, 0
  s_mov_b32 s5, 0
  v_mov_b32 v0, 0
  v_add_f32 v1, 0x12345, v2
  v_mov_b32 v3, v1
  s_mov_b32 s10, 0
  s_mov_b32 s10, 1
  s_mov_b32 s10, 2
  s_endpgm
.globl c
.type c,@function
.p2align 8
c:
  s_mov_b32 s0, 0
  s_mov_b32 s1, 0
  s_mov_b32 s2, 0
  s_mov_b32 s3, 0
  s_mov_b32 s4, 0
  s_mov_b32 s5, 0
  v_mov_b32 v0, 0
  v_add_f32 v1, 0x12345, v2
  v_mov_b32 v3, v1
  s_mov_b32 s10, 0
  s_mov_b32 s10, 1
  s_mov_b32 s7, later_value
  s_endpgm
.globl d
.type d,@function
.p2align 8
d:
  s_mov_b32 s0, 0
  s_mov_b32 s1, 0
  s_mov_b32 s2, 0
  s_mov_b32 s3, 0
  s_mov_b32 s4, 0
  s_mov_b32 s5, 0
  v_mov_b32 v0, 0
  v_add_f32 v1, 0x12345, v2
  v_mov_b32 v3, v1
  s_mov_b32 s10, 0
  s_endpgm
.set later_value, 0x4567
