# Vector Unit: one compare-exchange step of a sort (SFPSWAP, min/max in every lane): each
# even column gets min(even, odd) of its pair, the odd column the max.
dst 0 = fp32 ramp 7.75 -0.25 32
dst 2 = fp32 ramp -3 0.375 32

[t1]
ttsfpload 0, 3, 0, 0          # even columns
ttsfpload 1, 3, 0, 2          # odd columns
ttsfpswap 0, 1, 0, 1          # SFPSWAP_MOD1_VEC_MIN_MAX: LReg0 = min, LReg1 = max
ttsfpnop                      # only SFPNOP may follow SFPSWAP next cycle
ttsfpstore 0, 3, 0, 0
ttsfpstore 1, 3, 0, 2

dump dst 0..3 fp32
