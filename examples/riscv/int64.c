/* 64-bit arithmetic on a 32-bit core: multiplication, signed and unsigned division and modulo
 * (libgcc's __udivdi3, __divdi3, __umoddi3, __moddi3), variable shifts, 64-bit clz/ctz/popcount
 * (__clzdi2, __ctzdi2, __popcountdi2), checked against the division identity and against
 * shift-and-add multiplication. */
#include "bhtest.h"

static uint64_t s = 0x9e3779b97f4a7c15ull;
static uint64_t rand64(void) { /* xorshift64* (Vigna 2016) */
    s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
    return s * 0x2545f4914f6cdd1dull;
}

static uint64_t slow_mul(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    while (b) { if (b & 1) r += a; a <<= 1; b >>= 1; }
    return r;
}

/* Kept out of line so the compiler cannot fold the shift amounts away. */
__attribute__((noinline)) static uint64_t shl(uint64_t x, uint32_t n) { return x << n; }
__attribute__((noinline)) static uint64_t shr(uint64_t x, uint32_t n) { return x >> n; }
__attribute__((noinline)) static int64_t sar(int64_t x, uint32_t n) { return x >> n; }

int main(void) {
    uint32_t hmul = BH_FNV_INIT, hdiv = BH_FNV_INIT, hshift = BH_FNV_INIT, hbits = BH_FNV_INIT;
    for (int i = 0; i < 300; i++) {
        uint64_t a = rand64(), b = rand64();
        /* vary the divisor's magnitude so every path of the division routines runs */
        uint64_t d = b >> (rand64() % 64);
        if (d == 0) d = 7;
        uint64_t p = a * b;
        CHECK(p == slow_mul(a, b));
        hmul = bh_fnv(hmul, (uint32_t)p);
        hmul = bh_fnv(hmul, (uint32_t)(p >> 32));

        uint64_t q = a / d, r = a % d;
        CHECK(r < d && q * d + r == a);
        hdiv = bh_fnv(hdiv, (uint32_t)q ^ (uint32_t)(q >> 32));
        hdiv = bh_fnv(hdiv, (uint32_t)r ^ (uint32_t)(r >> 32));

        int64_t sa = (int64_t)(a >> 1) * ((a & 1) ? -1 : 1);
        int64_t sd = (int64_t)(d >> 1) * ((b & 1) ? -1 : 1);
        if (sd == 0) sd = -3;
        int64_t sq = sa / sd, sr = sa % sd;
        CHECK(sq * sd + sr == sa);
        CHECK(sr == 0 || (sr < 0) == (sa < 0)); /* C99: remainder takes the dividend's sign */
        hdiv = bh_fnv(hdiv, (uint32_t)sq ^ (uint32_t)((uint64_t)sq >> 32));
        hdiv = bh_fnv(hdiv, (uint32_t)sr ^ (uint32_t)((uint64_t)sr >> 32));

        uint32_t n = (uint32_t)(b % 64);
        uint64_t l = shl(a, n), rr = shr(a, n);
        int64_t ar = sar((int64_t)a, n);
        CHECK(shr(l, n) == (a & (~0ull >> n)));
        CHECK((uint64_t)ar == (rr | (((int64_t)a < 0 && n) ? ~(~0ull >> n) : 0)));
        hshift = bh_fnv(hshift, (uint32_t)(l ^ rr ^ (uint64_t)ar));
        hshift = bh_fnv(hshift, (uint32_t)((l ^ rr ^ (uint64_t)ar) >> 32));

        uint64_t x = a >> (b % 64);
        if (x) {
            hbits = bh_fnv(hbits, (uint32_t)__builtin_clzll(x));
            hbits = bh_fnv(hbits, (uint32_t)__builtin_ctzll(x));
        }
        hbits = bh_fnv(hbits, (uint32_t)__builtin_popcountll(a));
    }
    /* Fixed corner cases. */
    uint64_t big = 0xffffffffffffffffull;
    CHECK(big / 0xffffffffull == 0x100000001ull);
    CHECK(big % 10 == 5);
    CHECK((int64_t)-7 / 2 == -3 && (int64_t)-7 % 2 == -1);
    CHECK(INT64_MIN / 2 == -(INT64_C(1) << 62));
    CHECK(((uint64_t)1 << 63) / 3 == 0x2aaaaaaaaaaaaaaaull);
    report(hmul);
    report(hdiv);
    report(hshift);
    report(hbits);
    report64(rand64());
    return bh_done();
}
