# Blackhole's tilize read: a row-major 32x32 bf16 matrix in L1 (rows of 64 bytes) read by one
# UNPACR in Tileize_mode. Blackhole's unpacker reads rows of 32 datums of 16 bits, then steps
# by RowStride = 64 bytes (Shift_amount_cntx0 = 4, in units of 16 bytes), and writes SrcA in
# order: each matrix row fills two SrcA rows (its left then its right half), 64 rows in all.
# The Matrix Unit moves SrcA to Dst and the packer writes Dst to L1 as bf16.
sem 1 init 0 max 1
l1 0x10000 = bf16 ramp 0 1 256
l1 0x10200 = bf16 ramp -1 -1 256
l1 0x10400 = bf16 ramp 0.5 0.5 256
l1 0x10600 = bf16 ramp -0.5 -0.5 256

cfg 64 = 0x04000015                                # BF16, uncompressed, XDim 1024
cfg 65 = 1
cfg THCON_SEC0_REG2_Out_data_format = 5
cfg THCON_SEC0_REG2_Tileize_mode = 1
cfg THCON_SEC0_REG2_Shift_amount_cntx0 = 4         # RowStride 64 bytes
cfg THCON_SEC0_REG3_Base_address = 0xfff
cfg UNP0_ADDR_BASE_REG_1_Base = 128
cfg UNP0_ADDR_CTRL_XY_REG_1_Ystride = 512          # one face of BF16 per Ch1 Y
cfg ALU_FORMAT_SPEC_REG0_SrcA = 5
cfg ALU_FORMAT_SPEC_REG2_Dstacc = 5
cfg PCK_DEST_RD_CTRL_Read_int8 = 1
cfg THCON_SEC0_REG1_In_data_format = 5
cfg THCON_SEC0_REG1_Out_data_format = 5
cfg THCON_SEC0_REG1_Disable_zero_compress = 1
cfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff
cfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff

[t0]
cfg SRCA_SET_SetOvrdWithAddr = 1
ttsetadcxx 1, 1023, 0                              # the whole matrix: 1024 datums
ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1     # FlipSrc

[t1]
cfg ADDR_MOD_AB_SEC0_SrcAIncr = 8
cfg ADDR_MOD_DST_SEC0_DestIncr = 8
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttsetrwc 1, 0, 0, 0, 0, 15
ttstallwait 2, 2064
ttsempost 2

[t2]
ttsemwait 5, 2, 1
ttsetadcxx 4, 1023, 0
ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1
ttsemget 2

dump l1 0x20000 bf16 1024
