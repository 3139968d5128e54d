/* Pseudo-random generators: xorshift32 (Marsaglia 2003), the Numerical Recipes LCG
 * (1664525, 1013904223), PCG32 (O'Neill 2014, XSH-RR, 64-bit state: exercises 64-bit multiply),
 * a chi-square test over 16 buckets and a Fisher–Yates shuffle that must stay a permutation. */
#include "bhtest.h"

static uint32_t xs = 1;
static uint32_t xorshift32(void) { xs ^= xs << 13; xs ^= xs >> 17; xs ^= xs << 5; return xs; }

static uint32_t lcg_state = 42;
static uint32_t lcg(void) { return lcg_state = lcg_state * 1664525u + 1013904223u; }

static uint64_t pcg_state = 0x853c49e6748fea9bull, pcg_inc = 0xda3e39cb94b95bdbull;
static uint32_t pcg32(void) {
    uint64_t old = pcg_state;
    pcg_state = old * 6364136223846793005ull + pcg_inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31u));
}

/* chi-square ×16 of counts in 16 buckets (scaled to stay integral) */
static uint32_t chi2(uint32_t (*gen)(void), uint32_t n) {
    uint32_t buckets[16] = {0};
    for (uint32_t i = 0; i < n; i++) buckets[gen() >> 28]++;
    uint32_t expect = n / 16, acc = 0;
    for (int i = 0; i < 16; i++) {
        int32_t d = (int32_t)buckets[i] - (int32_t)expect;
        acc += (uint32_t)(d * d) * 16u / expect;
    }
    return acc;
}

static uint16_t deck[256];

int main(void) {
    /* Marsaglia's xorshift32 from seed 1 starts 270369, 67634689 */
    CHECK(xorshift32() == 270369u);
    CHECK(xorshift32() == 67634689u);
    uint32_t c1 = chi2(xorshift32, 8000), c2 = chi2(lcg, 8000), c3 = chi2(pcg32, 8000);
    /* 15 degrees of freedom: chi2 < 50 with overwhelming probability (×16 scaling → 800) */
    CHECK(c1 < 800 && c2 < 800 && c3 < 800);
    report(c1);
    report(c2);
    report(c3);
    report(xorshift32());
    report(lcg());
    report(pcg32());
    for (uint32_t i = 0; i < 256; i++) deck[i] = (uint16_t)i;
    for (uint32_t i = 255; i > 0; i--) {
        uint32_t j = pcg32() % (i + 1);
        uint16_t t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    uint32_t seen[8] = {0}, h = BH_FNV_INIT;
    for (uint32_t i = 0; i < 256; i++) { seen[deck[i] / 32] |= 1u << (deck[i] % 32); h = bh_fnv(h, deck[i]); }
    for (int i = 0; i < 8; i++) CHECK(seen[i] == 0xffffffffu);
    report(h);
    report(deck[0]);
    report(deck[255]);
    return bh_done();
}
