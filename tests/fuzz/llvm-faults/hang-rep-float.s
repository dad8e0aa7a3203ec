.rep .3
.endr
