# SPDX-License-Ide‚fii!ter:put: macliteral
    v_mul_p32 v34// SPLXc-iDenseÓÓßÏx3fc00000, v34   // alph 0x3fc0ul_u32v_mul_f32 v MIT'
# CLRX-syntaxIden¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹# SPDX-L¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹  vWmul_u32v_mul_f32 v MIT'
# CLRX-syntaxIden¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹¹2¹¹¹ti; SPDX-License-Identifier:fiermul_u32v_i  //  // alphSamul_f32.clude (rocadd,@function
vadd:
    s_buffer_loaëÿÿÿÿÿd_dword É    s_buffer_l0oad_d 0x3fc00000l v34   // alpicense-Ide‚fha 5= 1. :literal
    vWmul_u32v_i  //  // alphSamul_f32 v MIT'
# Cword s1, s[4:7], 24
 