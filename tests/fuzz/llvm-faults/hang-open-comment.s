l ?/*
s_nop 0
