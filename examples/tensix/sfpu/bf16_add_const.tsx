# Vector Unit on a 16-bit Dst holding BF16, as the SFPU example kernels run
# (examples/kernels/compute/sfpu_add_const.cpp): SFPLOAD / SFPSTORE with Mod0 0
# (MOD0_FMT_SRCB, which resolves to BF16 here) around SFPADDI 0.5. Rows 0..1 hold odd integers
# from 129, whose sum with 0.5 needs 9 significant bits: SFPSTORE truncates it to BF16.
dst 0 = bf16 ramp 129 2 32
dst 2 = bf16 ramp -1 0.125 32

[t1]
ttsfpload 0, 0, 0, 0
ttsfpaddi 0x3f00, 0, 0
ttsfpstore 0, 0, 0, 0
ttsfpload 0, 0, 0, 2
ttsfpaddi 0x3f00, 0, 0
ttsfpstore 0, 0, 0, 2

dump dst 0..3 bf16
