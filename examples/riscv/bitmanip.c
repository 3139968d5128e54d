/* bhemu-march: rv32im_zba_zbb
 * Bit manipulation built for Zba/Zbb, so GCC emits clz, ctz, cpop, rol/ror, min/max(u),
 * andn/orn/xnor, sext.b/h, zext.h and sh1add/sh2add/sh3add. GCC 12 emits neither rev8 nor orc.b
 * for RV32 (it calls __bswapsi2), so those two come from inline assembly in the bare-metal build
 * and from portable C natively. Each result is compared with a plain loop kept out of line. */
#include "bhtest.h"

__attribute__((noinline)) static uint32_t ref_clz(uint32_t x) {
    uint32_t n = 0;
    for (uint32_t m = 0x80000000u; m && !(x & m); m >>= 1) n++;
    return n;
}
__attribute__((noinline)) static uint32_t ref_ctz(uint32_t x) {
    uint32_t n = 0;
    for (uint32_t m = 1; m && !(x & m); m <<= 1) n++;
    return n;
}
__attribute__((noinline)) static uint32_t ref_pop(uint32_t x) {
    uint32_t n = 0;
    for (int i = 0; i < 32; i++) n += (x >> i) & 1u;
    return n;
}
__attribute__((noinline)) static uint32_t ref_bswap(uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) r |= ((x >> (8 * i)) & 0xffu) << (24 - 8 * i);
    return r;
}

__attribute__((noinline)) static uint32_t andn(uint32_t x, uint32_t y) { return x & ~y; }
__attribute__((noinline)) static uint32_t orn(uint32_t x, uint32_t y) { return x | ~y; }
__attribute__((noinline)) static uint32_t xnor(uint32_t x, uint32_t y) { return ~(x ^ y); }

/* rev8: byte reverse; orc.b: each byte becomes 0xff if non-zero, else 0 (Zbb spec, ratified 1.0.0). */
static inline uint32_t rev8(uint32_t x) {
#ifdef BH_BARE
    uint32_t r;
    __asm__("rev8 %0, %1" : "=r"(r) : "r"(x));
    return r;
#else
    return __builtin_bswap32(x);
#endif
}
static inline uint32_t orc_b(uint32_t x) {
#ifdef BH_BARE
    uint32_t r;
    __asm__("orc.b %0, %1" : "=r"(r) : "r"(x));
    return r;
#else
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) if ((x >> (8 * i)) & 0xffu) r |= 0xffu << (8 * i);
    return r;
#endif
}

static inline uint32_t rotl(uint32_t x, uint32_t n) { n &= 31; return (x << n) | (x >> ((32 - n) & 31)); }
static inline uint32_t rotr(uint32_t x, uint32_t n) { n &= 31; return (x >> n) | (x << ((32 - n) & 31)); }
static inline int32_t smin(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t smax(int32_t a, int32_t b) { return a > b ? a : b; }
static inline uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }

static uint64_t table64[64];
static uint16_t table16[64];

__attribute__((noinline)) static uint64_t sum_indexed(const uint64_t *t, uint32_t i, uint32_t j) {
    return t[i] + t[(i + j) & 63] + table16[j & 63]; /* address arithmetic: sh3add / sh1add */
}

int main(void) {
    uint32_t h = BH_FNV_INIT;
    for (int i = 0; i < 64; i++) { table64[i] = ((uint64_t)bh_rand() << 32) | bh_rand(); table16[i] = (uint16_t)bh_rand(); }
    for (int i = 0; i < 500; i++) {
        uint32_t x = bh_rand() >> (bh_rand() % 32), y = bh_rand();
        if (x) {
            CHECK((uint32_t)__builtin_clz(x) == ref_clz(x));
            CHECK((uint32_t)__builtin_ctz(x) == ref_ctz(x));
            h = bh_fnv(h, (uint32_t)__builtin_clz(x) * 33u + (uint32_t)__builtin_ctz(x));
        }
        CHECK((uint32_t)__builtin_popcount(x) == ref_pop(x));
        CHECK(__builtin_bswap32(x) == ref_bswap(x));
        CHECK(rev8(x) == ref_bswap(x));
        h = bh_fnv(h, orc_b(x & y));
        uint32_t n = y % 32;
        CHECK(rotr(rotl(x, n), n) == x);
        CHECK(rotl(x, n) == rotr(x, 32 - n));
        h = bh_fnv(h, rotl(x, n) ^ rotr(y, n));
        h = bh_fnv(h, (uint32_t)smin((int32_t)x, (int32_t)y) ^ (uint32_t)smax((int32_t)x, (int32_t)y));
        h = bh_fnv(h, umin(x, y) + umax(x, y) * 3u);
        h = bh_fnv(h, andn(x, y));
        h = bh_fnv(h, orn(x, y));
        h = bh_fnv(h, xnor(x, y));
        h = bh_fnv(h, (uint32_t)(int32_t)(int8_t)x);        /* sext.b */
        h = bh_fnv(h, (uint32_t)(int32_t)(int16_t)y);       /* sext.h */
        h = bh_fnv(h, (uint32_t)(uint16_t)(x ^ y));         /* zext.h */
        h = bh_fnv(h, (uint32_t)__builtin_popcount(x) + __builtin_bswap32(y));
        uint64_t s = sum_indexed(table64, x % 64, y);
        h = bh_fnv(h, (uint32_t)s ^ (uint32_t)(s >> 32));
    }
    CHECK(__builtin_clz(1u) == 31 && __builtin_ctz(0x80000000u) == 31);
    CHECK(__builtin_popcount(0xffffffffu) == 32 && __builtin_popcount(0u) == 0);
    CHECK(smin(-5, 3) == -5 && umin(0xffffffffu, 3u) == 3u);
    CHECK((uint32_t)(int32_t)(int8_t)0x80u == 0xffffff80u);
    CHECK(orc_b(0x00120300u) == 0x00ffff00u && rev8(0x11223344u) == 0x44332211u);
    report(h);
    report(bh_rand());
    return bh_done();
}
