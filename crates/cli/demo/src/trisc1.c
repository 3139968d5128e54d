/*
 * TRISC1, math (Matrix Unit, bf16 Dst):
 *   Dst rows 0..63   = A + B          (8 x ELWADD, 8 rows each)
 *   Dst rows 64..127 = B @ A, 32x32   (64 x MVMUL: 4 output faces x 2 k-faces x 2 row
 *                                      halves, each in 4 fidelity phases = full bf16 products)
 * then waits for the Matrix Unit and posts semaphore 1 for the packer.
 * MVMUL: Dst[DstRow + i][j] += SrcB[RWC.SrcB + i][k] * SrcA[RWC.SrcA + k][j]
 * (tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/MVMUL.md). The RWCs walk the
 * faces through ADDR_MODs 1-6 (RWCs.md; SrcA/SrcB counters are 6 bits, so +48 is -16):
 *   output face (I,J), row half h, k-face K:  SrcA = (2K+J)*16, SrcB = (2I+K)*16 + 8h,
 *   Dst = 64 + (2I+J)*16 + 8h (the MVMUL's DstRow).
 */
#include "demo.h"

DEMO_ENTRY(0xD000)

/* ttmvmul FlipSrc, 0, AddrMod, DstRow */
#define MVMUL(flip, mod, row) (0x26000000u | ((flip) << 22) | ((mod) << 14) | (row))
/* Four fidelity phases (ADDR_MOD 1: phase + 1), the last one moving on with ADDR_MOD m. */
#define PHASES(m, row)                                                         \
    TTI(MVMUL(0, 1, row));                                                     \
    TTI(MVMUL(0, 1, row));                                                     \
    TTI(MVMUL(0, 1, row));                                                     \
    TTI(MVMUL(0, m, row))

int main(void) {
    /* ADDR_MODs (ThreadConfig ADDR_MOD_AB_SEC<i> = word 12+i, ADDR_MOD_DST_SEC<i> = 28+i) */
    TTI(0xb20c0808); /* ttsetc16 12, 0x0808: 0 (ELWADD) SrcA += 8, SrcB += 8 */
    TTI(0xb21c0008); /* ttsetc16 28, 0x0008:            Dst += 8 */
    TTI(0xb21d2000); /* ttsetc16 29, 0x2000: 1 fidelity phase + 1 */
    TTI(0xb20e0010); /* ttsetc16 14, 0x0010: 2 next J: SrcA += 16 */
    TTI(0xb21e8000); /* ttsetc16 30, 0x8000:   phase = 0 */
    TTI(0xb20f0830); /* ttsetc16 15, 0x0830: 3 next h: SrcA -= 16, SrcB += 8 */
    TTI(0xb21f8000); /* ttsetc16 31, 0x8000:   phase = 0 */
    TTI(0xb2101830); /* ttsetc16 16, 0x1830: 4 next I: SrcA -= 16, SrcB += 24 */
    TTI(0xb2208000); /* ttsetc16 32, 0x8000:   phase = 0 */
    TTI(0xb2112810); /* ttsetc16 17, 0x2810: 5 next K: SrcA += 16, SrcB -= 24 */
    TTI(0xb2218000); /* ttsetc16 33, 0x8000:   phase = 0 */
    TTI(0xb2128080); /* ttsetc16 18, 0x8080: 6 the end: clear SrcA, SrcB */
    TTI(0xb2228800); /* ttsetc16 34, 0x8800:   clear Dst, phase = 0 */

    TTI(0x10180000); /* ttzeroacc 3, 0, 0, 0, 0: all of Dst reads as zero */
    for (int n = 0; n < 8; n++)
        TTI(0x28000000); /* ttelwadd 0, 0, 0, 0, 0: Dst = SrcA + SrcB, 8 rows */
    TTI(0x3700000f);     /* ttsetrwc 0, 0, 0, 0, 0, 15: RWCs and phase to 0 */

    /* K = 0 */
    PHASES(2, 64);  PHASES(3, 80);  PHASES(2, 72);  PHASES(4, 88);  /* I = 0 */
    PHASES(2, 96);  PHASES(3, 112); PHASES(2, 104); PHASES(5, 120); /* I = 1 */
    /* K = 1 */
    PHASES(2, 64);  PHASES(3, 80);  PHASES(2, 72);  PHASES(4, 88);
    PHASES(2, 96);  PHASES(3, 112); PHASES(2, 104);
    TTI(MVMUL(0, 1, 120)); TTI(MVMUL(0, 1, 120)); TTI(MVMUL(0, 1, 120));
    TTI(MVMUL(3, 6, 120)); /* last: both banks back to the unpackers */

    TTI(0xa2010810); /* ttstallwait 2, 2064: wait for the Matrix Unit, then */
    TTI(0xa4000008); /* ttsempost 2: semaphore 1, Dst is ready */
    for (;;) {
    }
}
