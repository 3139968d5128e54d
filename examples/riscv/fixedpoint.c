/* Fixed-point DSP: a Q15 FIR low-pass filter over a synthetic two-tone signal, CORDIC sine and
 * cosine in Q16 (checked against sin²+cos² ≈ 1), a Newton integer square root and saturating
 * Q15 arithmetic. Right shifts of negative values are arithmetic on both GCC targets
 * (GCC manual, "Integers implementation"). */
#include "bhtest.h"

#define Q16 65536
#define TAPS 16
static const int16_t fir[TAPS] = { /* symmetric low-pass, Q15, sum = 32767 */
    -160, -350, -312, 410, 1900, 3850, 5530, 6515, 6515, 5530, 3850, 1900, 410, -312, -350, -160 + 1,
};
/* CORDIC angles atan(2^-i) in Q16 radians */
static const int32_t atan_tab[16] = {
    51472, 30386, 16055, 8150, 4091, 2047, 1024, 512, 256, 128, 64, 32, 16, 8, 4, 2,
};
#define CORDIC_K 39797 /* 0.607252935 in Q16 */

static void cordic(int32_t angle, int32_t *s, int32_t *c) {
    int32_t x = CORDIC_K, y = 0, z = angle;
    for (int i = 0; i < 16; i++) {
        int32_t dx = x >> i, dy = y >> i;
        if (z >= 0) { x -= dy; y += dx; z -= atan_tab[i]; }
        else { x += dy; y -= dx; z += atan_tab[i]; }
    }
    *s = y; *c = x;
}

static uint32_t isqrt(uint32_t n) {
    if (n < 2) return n;
    uint32_t x = n, y = x / 2 + (x & 1); /* (x + 1) / 2 without overflow */
    while (y < x) { x = y; y = (x + n / x) / 2; }
    return x;
}

static int16_t sat16(int32_t v) { return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }
static int16_t qmul(int16_t a, int16_t b) { return sat16(((int32_t)a * b + (1 << 14)) >> 15); }

static int16_t signal[512], filtered[512];

int main(void) {
    /* square wave at period 64 plus a fast ±4000 zig-zag at period 4 */
    for (int i = 0; i < 512; i++) {
        int32_t slow = (i / 32) % 2 ? 12000 : -12000;
        int32_t fast = (i % 4 < 2) ? 4000 : -4000;
        signal[i] = sat16(slow + fast);
    }
    int64_t energy_in = 0, energy_out = 0;
    for (int i = 0; i < 512; i++) {
        int32_t acc = 0;
        for (int k = 0; k < TAPS; k++) acc += (int32_t)fir[k] * (i - k >= 0 ? signal[i - k] : 0);
        filtered[i] = sat16(acc >> 15);
    }
    uint32_t h = BH_FNV_INIT;
    for (int i = 64; i < 512; i++) {
        int32_t hp_in = signal[i] - signal[i - 1], hp_out = filtered[i] - filtered[i - 1];
        energy_in += (int64_t)hp_in * hp_in;
        energy_out += (int64_t)hp_out * hp_out;
        h = bh_fnv(h, (uint32_t)(int32_t)filtered[i]);
    }
    CHECK(energy_out * 4 < energy_in); /* the zig-zag is attenuated */
    report(h);
    report64((uint64_t)energy_out);

    uint32_t hs = BH_FNV_INIT;
    for (int32_t a = -102943; a <= 102943; a += 4096) { /* ±π/2 in Q16 */
        int32_t s, c;
        cordic(a, &s, &c);
        int64_t r2 = (int64_t)s * s + (int64_t)c * c; /* ≈ Q16² */
        int64_t err = r2 - (int64_t)Q16 * Q16;
        CHECK(err < ((int64_t)1 << 24) && err > -((int64_t)1 << 24));
        CHECK(c >= -8);
        hs = bh_fnv(hs, (uint32_t)s);
        hs = bh_fnv(hs, (uint32_t)c);
    }
    report(hs);

    uint32_t hq = 0;
    for (uint32_t i = 0; i < 300; i++) {
        uint32_t n = bh_rand() >> (i % 24), r = isqrt(n);
        CHECK((uint64_t)r * r <= n && (uint64_t)(r + 1) * (r + 1) > n);
        hq = hq * 31u + r;
    }
    CHECK(isqrt(4294967295u) == 65535u);
    report(hq);

    CHECK(qmul(-32768, -32768) == 32767);
    CHECK(qmul(16384, 16384) == 8192);
    int16_t acc = 0;
    for (int i = 0; i < 100; i++) acc = sat16((int32_t)acc + qmul((int16_t)bh_rand(), 23170));
    report((uint32_t)(int32_t)acc);
    return bh_done();
}
