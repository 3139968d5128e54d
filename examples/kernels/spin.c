/*
 * spin: a bare-metal BRISC kernel for slow dispatch that keeps BRISC busy with private work:
 * a 7-instruction register-only loop, run N times (N from L1 0x30040, 100000 when 0). The
 * other cores stay in the firmware's idle loops. Used by `bhemu bench chip` (the "spin"
 * workload) and by the schedule-equivalence test.
 *
 *   L1 0x30000  the loop's checksum
 *   L1 0x30004  mcycle at the end (low 32 bits), so the result depends on the timing; 0 when
 *               built with -DSPIN_NO_MCYCLE (for simulators that refuse the CSR)
 */
#include <stdint.h>

#include "spin_loop.h"

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define L1_OUT 0x30000u
#define L1_ARG 0x30040u

__attribute__((section(".text.entry"))) uint32_t kernel_main(void) {
    uint32_t n = REG(L1_ARG);
    if (n == 0) n = 100000;
    uint32_t a = 1, b = 2, c = 3;
    SPIN_LOOP(n, a, b, c);
    uint32_t cyc = 0;
#ifndef SPIN_NO_MCYCLE
    __asm__ volatile("csrr %0, mcycle" : "=r"(cyc));
#endif
    REG(L1_OUT) = a ^ b ^ c;
    REG(L1_OUT + 4) = cyc;
    return 0;
}
