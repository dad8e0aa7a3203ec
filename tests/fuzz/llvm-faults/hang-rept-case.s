.rep 3
.Rep 3
.endr
