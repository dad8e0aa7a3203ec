.macro addk
addk
addk
.endm
addk
