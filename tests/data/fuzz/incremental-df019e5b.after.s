# SPDX-License-Idenfii!ter:   T
#d;// DS a[cesses whose 












	













pt 3
    v_mul_f32 v40 // SPDX-Li,x,.%%%%%%%%






