/*
 * tensix_poll: a bare-metal BRISC kernel for slow dispatch that feeds the Tensix coprocessor
 * and polls MMIO. BRISC pushes 40 TTNOPs into thread 0's instruction FIFO
 * (INSTRN_BUF_BASE, PushTensixInstruction.md) — more than the FIFO holds, so some pushes
 * stall — then polls RISCV_DEBUG_REG_INSTRN_BUF_STATUS until thread 0's FIFO reads empty
 * (bit 4), counting the polls.
 *
 *   L1 0x30000  number of status polls until empty
 *   L1 0x30004  mcycle at that point (low 32 bits)
 *   L1 0x30008  0x600DF00D ^ host_id
 */
#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define INSTRN_BUF_BASE 0xFFE40000u
#define INSTRN_BUF_STATUS (0xFFB12000u + 0xA8u)
#define TTNOP 0x02000000u
#define L1_OUT 0x30000u
#define LAUNCH_HOST_ID (0x70u + 108u)

__attribute__((section(".text.entry"))) uint32_t kernel_main(void) {
    for (int i = 0; i < 40; i++) REG(INSTRN_BUF_BASE) = TTNOP;
    uint32_t polls = 0;
    while ((REG(INSTRN_BUF_STATUS) & (1u << 4)) == 0) polls++;
    uint32_t cyc;
    __asm__ volatile("csrr %0, mcycle" : "=r"(cyc));
    REG(L1_OUT) = polls;
    REG(L1_OUT + 4) = cyc;
    REG(L1_OUT + 8) = 0x600DF00Du ^ REG(LAUNCH_HOST_ID);
    return 0;
}
