/*
 * TRISC2, pack: waits on semaphore 1, packs Dst rows 0..63 to 0x30000 and 64..127 to
 * 0x30800 as bf16 (PACR, packer 0), then waits until its coprocessor thread is done
 * (CoprocessorDoneCheck, tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/
 * ManualTTSync.md) and writes DEMO_DONE for the host.
 */
#include "demo.h"

DEMO_ENTRY(0x11000)

#define COPROCESSOR_DONE_CHECK 0xFFE80004u

int main(void) {
    TTI(0xb2250001); /* ttsetc16 37, 1: ADDR_MOD_PACK_SEC0_YsrcIncr = 1 (next tile) */
    TTI(0xa6028009); /* ttsemwait 5, 2, 1: wait while semaphore 1 is zero */
    TTI(0x5e8ffc00); /* ttsetadcxx 4, 1023, 0: packers X 0..1023 */
    TTI(0x41000100); /* ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0: Dst rows 0..63 */
    TTI(0x41000101); /* ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1: rows 64..127, Last */
    TTI(0xa5000008); /* ttsemget 2 */
    (void)REG(COPROCESSOR_DONE_CHECK);
    REG(L1_OUT_DONE) = DEMO_DONE;
    for (;;) {
    }
}
