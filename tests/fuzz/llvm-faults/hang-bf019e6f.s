# fetch-alignia n  CLRX source: the s_nop before t   compute_pgmrsrc2_user_scpr = 2
   r = 2
     kernarg_segment_byte_size = 8
     wavefront_sgpr_count = 8
     workitem_vgpr_cmovbï2 s0, ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿzzzzzzzzzzzzzzzzzz/* SPDX-Lizzzzzzznarg_segment_byte_size = 8
     wavefront_sgpr_councenst