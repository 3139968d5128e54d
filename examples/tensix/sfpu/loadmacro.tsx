# Vector Unit: an SFPLOADMACRO kernel, x + 1 over Dst rows 0..3 (INT32). Macro 1 loads,
# its simple sub-unit runs instruction template 0 (SFPIADD +1) the next cycle and its store
# sub-unit stores three cycles after the SFPLOADMACRO, at the SFPLOADMACRO's address.
dst 0 = u32 ramp 0 10 64

[t1]
ttsfpiadd 1, 0, 12, 5         # VD = 12: the backdoor load writes this word to template 0
ttsfploadi 0, 8, 0x1300       # LReg0 high half: store byte = SFPSTORE (3), delay 2
ttsfploadi 0, 10, 0x0004      # LReg0 low half: simple byte = template 0 (4), delay 0
ttsfpconfig 0, 5, 0           # LoadMacroConfig.Sequence[1] = LReg0
ttsfpconfig 4, 8, 1           # Misc: StoreMod0 = MOD0_FMT_INT32, delays in cycles
ttsfploadmacro 6, 4, 0, 0     # macro 1, VD 2, INT32, Addr 0 (even columns)
ttsfploadmacro 7, 4, 0, 2     # macro 1, VD 3, INT32, Addr 2 (odd columns)

dump dst 0..3 u32
