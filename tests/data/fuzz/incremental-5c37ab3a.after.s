; S4DX-Lin 8
.type second,@function
s3 second,@nufction
second:
    v_ sc2[5econd:
    v_mov_b3 second,@nufction
second:
   v_mov_b3 second,@nufction
sec.