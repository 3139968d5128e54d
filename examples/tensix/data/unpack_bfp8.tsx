# LLK idiom "unpack a bfp8_b tile": unpacker 0 reads a BFP8 tile from L1 (an exponent section of
# 64 shared exponents, one per 16 datums, then 1024 sign-magnitude datums) and writes BF16 to
# SrcA (BFP8ToBF16, FloatBitPatterns.md); the Matrix Unit moves it to Dst and the packer writes
# it to L1 as bf16. Shared-exponent edge cases: block 0 has exponent 0 (normalising wraps the
# uint8_t exponent, or leaves exponent 0: flushed by MOVA2D), block 1 exponent 255 (infinities
# and NaNs), blocks 2..63 exponents 13, 16, ..., 196 with datums running through all 256
# patterns (sign with zero magnitude, -2^128, included) once every 16 blocks.
#
# L1: the tile at 0x10000 (exponents) and 0x10040 (datums), output at 0x20000.
sem 1 init 0 max 1
l1 0x10000 = u8 [0, 255]
l1 0x10002 = u8 ramp 13 3 62
l1 0x10040 = u8 ramp 0 1 256
l1 0x10140 = u8 ramp 0 1 256
l1 0x10240 = u8 ramp 0 1 256
l1 0x10340 = u8 ramp 0 1 256
# Blocks 0 and 1: chosen datums, written over the first 32 of the ramp.
l1 0x10040 = u8 [0x00, 0x80, 0x01, 0x81, 0x40, 0xc0, 0x7f, 0x20, 0x10, 0x08, 0x04, 0x02, 0x60, 0x3f, 0x41, 0xff]
l1 0x10050 = u8 [0x40, 0xc0, 0x41, 0xc1, 0x7f, 0x20, 0x01, 0x80, 0x00, 0x60, 0x10, 0xa0, 0x3f, 0x02, 0x7e, 0xff]

# Unpacker 0: TileDescriptor word 0 = BFP8 (6) | IsUncompressed | XDim 1024 << 16; YDim 1.
cfg 64 = 0x04000016
cfg 65 = 1
cfg THCON_SEC0_REG2_Out_data_format = 6            # = In (UNPACR_Regular.md): BFP8 -> BF16
cfg THCON_SEC0_REG3_Base_address = 0xfff           # (0x10000 >> 4) - 1: a 16-byte header
cfg UNP0_ADDR_BASE_REG_1_Base = 64                 # SrcA row 0 is output row 4 (BFP8: in datums)
# Matrix Unit: SrcA holds BF16 (what BFP8 becomes); packer: BF16 in, BF16 out, identity
# early conversion.
cfg ALU_FORMAT_SPEC_REG0_SrcA = 5
cfg ALU_FORMAT_SPEC_REG2_Dstacc = 5
cfg PCK_DEST_RD_CTRL_Read_int8 = 1
cfg THCON_SEC0_REG1_In_data_format = 5
cfg THCON_SEC0_REG1_Out_data_format = 5
cfg THCON_SEC0_REG1_Disable_zero_compress = 1
cfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff
cfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff          # (0x20000 >> 4) - 1

[t0]                                               # unpack
cfg SRCA_SET_SetOvrdWithAddr = 1                   # SrcA rows 0..63 addressed directly
ttsetadcxx 1, 1023, 0                              # unpacker 0: X 0..1023
ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1     # FlipSrc

[t1]                                               # math
cfg ADDR_MOD_AB_SEC0_SrcAIncr = 8                  # ADDR_MOD 0: SrcA += 8, Dst += 8
cfg ADDR_MOD_DST_SEC0_DestIncr = 8
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttsetrwc 1, 0, 0, 0, 0, 15                         # SrcA back to the unpackers
ttstallwait 2, 2064                                # wait for the Matrix Unit, then
ttsempost 2                                        # post semaphore 1: Dst is full

[t2]                                               # pack
ttsemwait 5, 2, 1                                  # TDMA|PACK wait while semaphore 1 is zero
ttsetadcxx 4, 1023, 0                              # packers: X 0..1023 (one tile)
ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1          # Last
ttsemget 2

dump l1 0x10000 u8 64
dump l1 0x10040 u8 1024
dump l1 0x20000 bf16 1024
dump dst 0..63 bf16
