.rept 3
x: .rept 3
.endr
