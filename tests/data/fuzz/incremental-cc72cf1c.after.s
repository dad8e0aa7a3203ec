; SPDX-License-Iv_bfm_dentifier: MIT
; LLVM-syntax twin of k2.clrx.
].e‚Àœ∆…ı—ôirst
  																																																e 2047
.end_am‰hs,_ker
.p2aligN 8
.twwwwwwwwwwwww/ò/ SPDX-Li/ SPDX-Likernel
E.--a:dSPDX*Lice