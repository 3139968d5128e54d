# LLK idiom "datacopy", two bf16 tiles: unpack tile A to SrcA (unpacker 0) and tile B to
# SrcB (unpacker 1), move both to Dst (MOVA2D 8 rows at a time, MOVB2D 4 rows at a time),
# pack Dst rows 0..63 (tile A) to L1 as bfp8_b: 64 shared exponents (one per 16 datums),
# then 1024 sign-magnitude datums. Tiles are 1024 datums in L1 (row-major faces).
#
# L1: tile A at 0x10000, tile B at 0x10800, output at 0x20000.
sem 1 init 0 max 1
l1 0x10000 = bf16 ramp 0 1 256
l1 0x10200 = bf16 ramp -1 -1 256
l1 0x10400 = bf16 ramp 0.5 0.5 256
l1 0x10600 = bf16 ramp -0.5 -0.5 256
l1 0x10800 = bf16 ramp 1000 -8 256
l1 0x10a00 = bf16 ramp 0.0078125 0.0078125 256
l1 0x10c00 = bf16 ramp -256 2 256
l1 0x10e00 = bf16 ramp 0.125 0.125 256

# Unpacker 0: TileDescriptor word 0 = BF16 (5) | IsUncompressed | XDim 1024 << 16; YDim 1.
cfg 64 = 0x04000015
cfg 65 = 1
cfg THCON_SEC0_REG2_Out_data_format = 5
cfg THCON_SEC0_REG3_Base_address = 0xfff           # (0x10000 >> 4) - 1: a 16-byte header
cfg UNP0_ADDR_BASE_REG_1_Base = 128                # SrcA row 0 is output row 4 (BF16: 2 B)
# Unpacker 1: same shape, tile B.
cfg 112 = 0x04000015
cfg 113 = 1
cfg THCON_SEC1_REG2_Out_data_format = 5
cfg THCON_SEC1_REG3_Base_address = 0x107f
# Matrix Unit: SrcA holds BF16; packer: BF16 in, BF16 out, identity early conversion.
cfg ALU_FORMAT_SPEC_REG0_SrcA = 5
cfg ALU_FORMAT_SPEC_REG2_Dstacc = 5
cfg PCK_DEST_RD_CTRL_Read_int8 = 1
cfg THCON_SEC0_REG1_In_data_format = 5
cfg THCON_SEC0_REG1_Out_data_format = 6              # BFP8 (bfp8_b)
cfg THCON_SEC0_REG1_Exp_section_size = 4            # 64 exponent bytes, in 16-byte units
cfg THCON_SEC0_REG1_Disable_zero_compress = 1
cfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff
cfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff          # (0x20000 >> 4) - 1

[t0]                                               # unpack
cfg SRCA_SET_SetOvrdWithAddr = 1                   # SrcA rows 0..63 addressed directly
ttsetadcxx 3, 1023, 0                              # both unpackers: X 0..1023
ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1     # unpacker 0, FlipSrc
ttunpacr 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1     # unpacker 1, FlipSrc

[t1]                                               # math
cfg ADDR_MOD_AB_SEC0_SrcAIncr = 8                  # ADDR_MOD 0: SrcA += 8, Dst += 8
cfg ADDR_MOD_DST_SEC0_DestIncr = 8
cfg ADDR_MOD_AB_SEC1_SrcBIncr = 4                  # ADDR_MOD 1: SrcB += 4, Dst += 4
cfg ADDR_MOD_DST_SEC1_DestIncr = 4
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttsetrwc 3, 0, 0, 0, 0, 15                         # both banks back to the unpackers
ttstallwait 2, 2064                                # wait for the Matrix Unit, then
ttsempost 2                                        # post semaphore 1: Dst is full

[t2]                                               # pack
cfg PCK0_ADDR_CTRL_XY_REG_0_Ystride = 2048         # Y counts tiles: 1024 BF16 datums
cfg ADDR_MOD_PACK_SEC0_YsrcIncr = 1                # ADDR_MOD_PACK 0: next tile
ttsemwait 5, 2, 1                                  # TDMA|PACK wait while semaphore 1 is zero
ttsetadcxx 4, 1023, 0                              # packers: X 0..1023 (one tile)
ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1          # packer 0: tile A (Dst rows 0..63), Last
ttsemget 2

dump l1 0x20000 u8 64                              # exponents
dump l1 0x20040 u8 1024                            # datums
dump dst 0..127 bf16
