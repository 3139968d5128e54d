/*
 * BRISC: writes the coprocessor's Config words (BackendConfiguration.md: RISC-V `sw` into
 * TENSIX_CFG_BASE, Config[0]), then releases TRISC0/1/2 from soft reset (NCRISC stays held)
 * and idles. Field values as in examples/tensix/data/copy_bf16.tsx, at this demo's addresses.
 */
#include "demo.h"

DEMO_ENTRY(0x4000)

#define CFG(i) REG(0xFFEF0000u + 4u * (i))
#define SOFT_RESET_0 0xFFB121B0u

int main(void) {
    CFG(1) = 0x0A0A0000u;   /* ALU_FORMAT_SPEC_REG0_SrcA = ALU_FORMAT_SPEC_REG2_Dstacc = BF16 (5) */
    CFG(12) = 0x08000000u;  /* PCK0_ADDR_CTRL_XY_REG_0_Ystride = 2048: Y counts 1024-datum tiles */
    CFG(18) = 0x4u;         /* PCK_DEST_RD_CTRL_Read_int8 = 1 (16-bit Dst read as is) */
    CFG(24) = 0xffffu;      /* PCK_EDGE_OFFSET_SEC0_mask: every column (tt-llk sets it) */
    CFG(49) = 128u;         /* UNP0_ADDR_BASE_REG_1_Base: SrcA row 0 */
    CFG(64) = 0x04000015u;  /* unpacker 0 tile descriptor: BF16, uncompressed, X = 1024 */
    CFG(65) = 1u;           /*   Y = 1 */
    CFG(69) = 0x2fffu;      /* THCON_SEC0_REG1_L1_Dest_addr: (0x30000 >> 4) - 1 */
    CFG(70) = 0x551u;       /* packer 0: In = Out = BF16, Disable_zero_compress */
    CFG(72) = 5u;           /* THCON_SEC0_REG2_Out_data_format = BF16 */
    CFG(76) = 0x1fffu;      /* THCON_SEC0_REG3_Base_address: tile A, (0x20000 >> 4) - 1 */
    CFG(112) = 0x04000015u; /* unpacker 1 tile descriptor, as unpacker 0 */
    CFG(113) = 1u;
    CFG(120) = 5u;          /* THCON_SEC1_REG2_Out_data_format = BF16 */
    CFG(124) = 0x207fu;     /* THCON_SEC1_REG3_Base_address: tile B, (0x20800 >> 4) - 1 */
    REG(SOFT_RESET_0) = 0x40000u; /* release TRISC0/1/2 (bits 12-14); NCRISC (bit 18) held */
    for (;;) {
    }
}
