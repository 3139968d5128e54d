# A Dst read-after-write hazard (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/
# Dst.md, Instruction scheduling): for four cycles after an instruction writes Dst, its aligned
# 8x16 block cannot be read. The Matrix Unit and the packers are stalled by the hardware; the
# SFPU is not, so an SFPLOAD right after ELWADD reads stale data unless a STALLWAIT separates
# them. `bhemu tensix run examples/tensix/dst_hazard.tsx --check-hazards` reports it;
# uncommenting the STALLWAIT (tt-llk's TTI_STALLWAIT(p_stall::STALL_SFPU, p_stall::MATH))
# makes the report go away.
l1 0x10000 = bf16 ramp 0 1 1024
l1 0x10800 = bf16 ramp 1 0.5 1024

# Unpackers 0 and 1: one BF16 tile each into SrcA / SrcB (as data/copy_bf16.tsx).
cfg 64 = 0x04000015
cfg 65 = 1
cfg THCON_SEC0_REG2_Out_data_format = 5
cfg THCON_SEC0_REG3_Base_address = 0xfff
cfg UNP0_ADDR_BASE_REG_1_Base = 128
cfg 112 = 0x04000015
cfg 113 = 1
cfg THCON_SEC1_REG2_Out_data_format = 5
cfg THCON_SEC1_REG3_Base_address = 0x107f
cfg ALU_FORMAT_SPEC_REG0_SrcA = 5

[t0]
cfg SRCA_SET_SetOvrdWithAddr = 1
ttsetadcxx 3, 1023, 0
ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1
ttunpacr 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1

[t1]
ttelwadd 0, 0, 0, 0, 0          # Dst rows 0..7 = SrcA + SrcB
# ttstallwait 256, 16           # STALL_SFPU (B8) while this thread is in the Matrix Unit (C4)
ttsfpload 0, 2, 0, 0            # LReg0 = Dst rows 0..3 (BF16): too early without the STALLWAIT

dump dst 0..1 bf16
