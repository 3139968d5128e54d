/*
 * noc_stamp: a bare-metal BRISC kernel for slow dispatch (docs/blackhole-facts.md §9), used by bhemu's
 * boot test (crates/cli/tests/boot_firmware.rs).
 *
 * The firmware calls the kernel as a function at the kernel config base (0xA080) on BRISC's
 * stack. It stamps a per-tile value into L1, writes it to DRAM through NoC 0 and reads it back,
 * driving the NIU command-buffer registers directly (docs/blackhole-facts.md §5-6):
 *
 *   L1 0x30000  value, ~value, x, y         (value = 0xB0000000 | host_id<<16 | y<<8 | x)
 *   L1 0x30010  the same 16 bytes, read back from DRAM
 *   L1 0x30020  0x600DF00D ^ host_id       (written last: "kernel finished")
 *   DRAM        bank (y*17+x) % 8, address 0x100000 + (y*17+x)*64: the first 16 bytes
 *
 * x, y are the tile's translated coordinates from NOC_ID_LOGICAL.
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
#define NOC_STATUS(i) (NIU0 + 0x200u + 4u * (i))
#define NIU_MST_WR_ACK_RECEIVED 1u
#define NIU_MST_RD_RESP_RECEIVED 2u

#define NOC_CMD_RD 0u
#define NOC_CMD_WR 2u
#define NOC_CMD_RESP_MARKED (1u << 4)
#define NOC_CMD_VC_STATIC (1u << 7)
#define NOC_CMD_STATIC_VC(vc) ((uint32_t)(vc) << 13)

#define L1_OUT 0x30000u
#define LAUNCH_HOST_ID (0x70u + 108u)
#define DRAM_BASE 0x100000u

static void wait_idle(uint32_t buf) {
    while (REG(buf + NOC_CMD_CTRL) != 0) {
    }
}

__attribute__((section(".text.entry"))) uint32_t kernel_main(void) {
    uint32_t id = REG(NOC_ID_LOGICAL);
    uint32_t x = id & 0x3F, y = (id >> 6) & 0x3F;
    uint32_t host = REG(LAUNCH_HOST_ID);
    uint32_t value = 0xB0000000u | ((host & 0xFF) << 16) | (y << 8) | x;
    volatile uint32_t *out = (volatile uint32_t *)(uintptr_t)L1_OUT;
    out[0] = value;
    out[1] = ~value;
    out[2] = x;
    out[3] = y;
    for (int i = 4; i < 9; i++) out[i] = 0;

    uint32_t idx = y * 17 + x, bank = idx % 8;
    uint32_t dram_xy = ((12 + 3 * (bank % 4)) << 6) | (17 + bank / 4);
    uint32_t self_xy = (y << 6) | x;
    uint32_t dst = DRAM_BASE + idx * 64;

    /* Write 16 bytes of L1 to DRAM (non-posted, command buffer 0). */
    uint32_t wb = CMD_BUF(0);
    wait_idle(wb);
    uint32_t acks = REG(NOC_STATUS(NIU_MST_WR_ACK_RECEIVED));
    REG(wb + NOC_CTRL) = NOC_CMD_WR | NOC_CMD_VC_STATIC | NOC_CMD_STATIC_VC(0) | NOC_CMD_RESP_MARKED;
    REG(wb + NOC_TARG_ADDR_LO) = L1_OUT;
    REG(wb + NOC_TARG_ADDR_MID) = 0;
    REG(wb + NOC_TARG_ADDR_HI) = self_xy;
    REG(wb + NOC_RET_ADDR_LO) = dst;
    REG(wb + NOC_RET_ADDR_MID) = 0;
    REG(wb + NOC_RET_ADDR_HI) = dram_xy;
    REG(wb + NOC_AT_LEN_BE) = 16;
    REG(wb + NOC_CMD_CTRL) = 1;
    while (REG(NOC_STATUS(NIU_MST_WR_ACK_RECEIVED)) == acks) {
    }

    /* Read it back into L1 (command buffer 1). */
    uint32_t rb = CMD_BUF(1);
    wait_idle(rb);
    uint32_t resps = REG(NOC_STATUS(NIU_MST_RD_RESP_RECEIVED));
    REG(rb + NOC_CTRL) = NOC_CMD_RD | NOC_CMD_RESP_MARKED | NOC_CMD_VC_STATIC | NOC_CMD_STATIC_VC(1);
    REG(rb + NOC_TARG_ADDR_LO) = dst;
    REG(rb + NOC_TARG_ADDR_MID) = 0;
    REG(rb + NOC_TARG_ADDR_HI) = dram_xy;
    REG(rb + NOC_RET_ADDR_LO) = L1_OUT + 16;
    REG(rb + NOC_RET_ADDR_MID) = 0;
    REG(rb + NOC_RET_ADDR_HI) = self_xy;
    REG(rb + NOC_AT_LEN_BE) = 16;
    REG(rb + NOC_CMD_CTRL) = 1;
    while (REG(NOC_STATUS(NIU_MST_RD_RESP_RECEIVED)) == resps) {
    }

    out[8] = 0x600DF00Du ^ host;
    return 0;
}
