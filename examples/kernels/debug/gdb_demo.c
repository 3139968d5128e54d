/*
 * gdb_demo: a slow-dispatch BRISC kernel for the `--gdb` session test (docs/gdb.md). Built
 * with -g -Og by crates/cli/tests/gdb_session.rs (not by scripts/build-kernels.sh).
 *
 *   L1 0x30000  sum of squares 1..4 (30)
 */
#include <stdint.h>

#define L1_OUT 0x30000u

/* Starts at 100 (in .data, rewritten by every launch) so the first store changes it. */
volatile uint32_t total = 100;

__attribute__((noinline)) uint32_t square(uint32_t v) { return v * v; }

__attribute__((section(".text.entry"))) uint32_t kernel_main(void) {
    uint32_t sum = 0;
    for (uint32_t i = 1; i <= 4; i++) {
        sum += square(i);
        total = sum;
    }
    *(volatile uint32_t *)(uintptr_t)L1_OUT = sum;
    return 0;
}
