/* bhtest.h — the one header of bhemu's self-checking C test programs.
 *
 * The same source builds two ways, and the test harness (crates/cli/tests/riscv_programs.rs)
 * demands identical results from both:
 *   - natively (`gcc -O2 prog.c`): report() prints each value as a decimal line on stdout and
 *     main's return value is the process exit status;
 *   - bare-metal RV32 (`riscv64-unknown-elf-gcc -march=... -mabi=ilp32 -nostdlib -T link.ld
 *     start.S prog.c libgcc.a`): report() appends to the array `results` (count in
 *     `results_len`), which the harness reads with `bhemu riscv --dump`; start.S then writes
 *     main's return value to `tohost` (0 → pass).
 *
 * CHECK(cond) records the first failing line; `return bh_done();` from main returns that line
 * number (0 if every check held), so a failure reads "failure 57" = line 57 of the program.
 *
 * A program may announce the -march it needs with a line "bhemu-march: <isa>" in a comment; the
 * harness and scripts/build-riscv-demo.sh default to rv32im.
 *
 * Portability: use fixed-width types only (the host is LP64, the target ILP32), no signed
 * overflow, no `char` signedness assumptions (char is unsigned on RISC-V, signed on x86). */
#ifndef BHTEST_H
#define BHTEST_H

#include <stdint.h>
#include <stddef.h>

#if defined(__riscv) && !defined(__linux__)
#define BH_BARE 1
#endif

#define BH_MAX_RESULTS 64

static uint32_t bh_first_failure;

static inline void bh_fail(uint32_t line) {
    if (bh_first_failure == 0) bh_first_failure = line;
}

#define CHECK(cond) do { if (!(cond)) bh_fail(__LINE__); } while (0)

#ifdef BH_BARE

/* Read by the host after the run (`bhemu riscv --dump results_len --dump results`). */
uint32_t results[BH_MAX_RESULTS];
uint32_t results_len;

static inline void report(uint32_t v) {
    if (results_len < BH_MAX_RESULTS) results[results_len] = v;
    else bh_fail(__LINE__);
    results_len++;
}

/* -nostdlib leaves GCC's implicit calls (struct copies, loop idioms) unresolved: provide them.
 * The optimize attribute stops GCC from turning these very loops back into calls to themselves. */
#define BH_RT __attribute__((used, optimize("no-tree-loop-distribute-patterns")))
BH_RT void *memcpy(void *d, const void *s, size_t n) {
    uint8_t *dp = d; const uint8_t *sp = s;
    while (n--) *dp++ = *sp++;
    return d;
}
BH_RT void *memmove(void *d, const void *s, size_t n) {
    uint8_t *dp = d; const uint8_t *sp = s;
    if (dp < sp) { while (n--) *dp++ = *sp++; }
    else { dp += n; sp += n; while (n--) *--dp = *--sp; }
    return d;
}
BH_RT void *memset(void *d, int c, size_t n) {
    uint8_t *dp = d;
    while (n--) *dp++ = (uint8_t)c;
    return d;
}
BH_RT int memcmp(const void *a, const void *b, size_t n) {
    const uint8_t *ap = a, *bp = b;
    for (; n; n--, ap++, bp++) if (*ap != *bp) return *ap < *bp ? -1 : 1;
    return 0;
}

#else /* native */

#include <stdio.h>

static inline void report(uint32_t v) { printf("%u\n", (unsigned)v); }

#endif

static inline void report64(uint64_t v) {
    report((uint32_t)v);
    report((uint32_t)(v >> 32));
}

static inline int bh_done(void) { return (int)bh_first_failure; }

/* A small deterministic generator shared by the programs (xorshift32, Marsaglia 2003). */
static uint32_t bh_rng_state = 2463534242u;
static inline uint32_t bh_rand(void) {
    uint32_t x = bh_rng_state;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    return bh_rng_state = x;
}

/* FNV-1a over 32-bit words, to fold many values into one reported value. */
static inline uint32_t bh_fnv(uint32_t h, uint32_t v) {
    for (int i = 0; i < 4; i++) { h ^= (v >> (8 * i)) & 0xffu; h *= 16777619u; }
    return h;
}
#define BH_FNV_INIT 2166136261u

#endif
