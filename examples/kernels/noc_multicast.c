/*
 * noc_multicast: a bare-metal BRISC kernel for slow dispatch that loads the NoC. Every tile
 * multicasts a 64-byte record into slot `index` of every tile's table at L1 0x40000, then
 * polls its own table until all `tiles` records of this launch have arrived. `tiles` comes
 * from L1 0x30040 (written by the host), `index` from L1 0x30044 (the tile's position in the
 * host's list). Drives the NIU command buffers directly (MemoryMap.md "NOC_CTRL").
 *
 *   L1 0x40000 + 64*i  record of tile i: host_id, x, y, i, then 12 words i*k
 *   L1 0x30000         0x600DF00D ^ host_id once every record arrived
 *   L1 0x30004         mcycle at that point (low 32 bits)
 */
#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))

#define NIU0 0xFFB20000u
#define CMD_BUF(i) (NIU0 + (i) * 0x800u)
#define NOC_TARG_ADDR_LO 0x00u
#define NOC_TARG_ADDR_MID 0x04u
#define NOC_TARG_ADDR_HI 0x08u
#define NOC_RET_ADDR_LO 0x0Cu
#define NOC_RET_ADDR_MID 0x10u
#define NOC_RET_ADDR_HI 0x14u
#define NOC_CTRL 0x1Cu
#define NOC_AT_LEN_BE 0x20u
#define NOC_CMD_CTRL 0x40u
#define NOC_ID_LOGICAL (NIU0 + 0x100u + 4u * 0x12u)

#define NOC_CMD_WR 2u
#define NOC_CMD_BRCST_PACKET (1u << 5)
#define NOC_CMD_VC_STATIC (1u << 7)
#define NOC_CMD_STATIC_VC(vc) ((uint32_t)(vc) << 13)
#define NOC_CMD_BRCST_SRC_INCLUDE (1u << 17)

#define L1_OUT 0x30000u
#define L1_ARG 0x30040u
#define TABLE 0x40000u
#define STAGE 0x30080u
#define LAUNCH_HOST_ID (0x70u + 108u)

__attribute__((section(".text.entry"))) uint32_t kernel_main(void) {
    uint32_t id = REG(NOC_ID_LOGICAL);
    uint32_t x = id & 0x3F, y = (id >> 6) & 0x3F;
    uint32_t host = REG(LAUNCH_HOST_ID);
    uint32_t tiles = REG(L1_ARG), index = REG(L1_ARG + 4);
    volatile uint32_t *stage = (volatile uint32_t *)(uintptr_t)STAGE;
    stage[0] = host;
    stage[1] = x;
    stage[2] = y;
    stage[3] = index;
    for (uint32_t k = 4; k < 16; k++) stage[k] = index * k;

    /* Posted multicast to the whole Tensix grid (translated x 1..16, y 2..11), self included. */
    uint32_t self_xy = (y << 6) | x;
    uint32_t rect = (2u << 18) | (1u << 12) | (11u << 6) | 16u;
    uint32_t b = CMD_BUF(0);
    while (REG(b + NOC_CMD_CTRL) != 0) {
    }
    REG(b + NOC_CTRL) = NOC_CMD_WR | NOC_CMD_BRCST_PACKET | NOC_CMD_BRCST_SRC_INCLUDE |
                        NOC_CMD_VC_STATIC | NOC_CMD_STATIC_VC(4);
    REG(b + NOC_TARG_ADDR_LO) = STAGE;
    REG(b + NOC_TARG_ADDR_MID) = 0;
    REG(b + NOC_TARG_ADDR_HI) = self_xy;
    REG(b + NOC_RET_ADDR_LO) = TABLE + 64u * index;
    REG(b + NOC_RET_ADDR_MID) = 0;
    REG(b + NOC_RET_ADDR_HI) = rect;
    REG(b + NOC_AT_LEN_BE) = 64;
    REG(b + NOC_CMD_CTRL) = 1;

    /* Wait for every tile's record of this launch. */
    for (uint32_t i = 0; i < tiles; i++) {
        while (REG(TABLE + 64u * i) != host) {
        }
    }
    uint32_t cyc;
    __asm__ volatile("csrr %0, mcycle" : "=r"(cyc));
    REG(L1_OUT) = 0x600DF00Du ^ host;
    REG(L1_OUT + 4) = cyc;
    return 0;
}
