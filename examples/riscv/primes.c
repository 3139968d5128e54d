/* Number theory: sieve of Eratosthenes (π(20000) = 2262), Euclid's gcd and lcm, modular
 * exponentiation with 64-bit intermediates, a Fermat/Miller–Rabin cross-check against the
 * sieve, and the longest Collatz chain below 10000 (start 6171, 262 terms; Project Euler 14 style). */
#include "bhtest.h"

#define LIMIT 20000u
static uint8_t composite[LIMIT];

static uint32_t gcd(uint32_t a, uint32_t b) { while (b) { uint32_t t = a % b; a = b; b = t; } return a; }

static uint32_t modpow(uint32_t b, uint32_t e, uint32_t m) {
    uint64_t r = 1, x = b % m;
    while (e) { if (e & 1) r = r * x % m; x = x * x % m; e >>= 1; }
    return (uint32_t)r;
}

static int miller_rabin(uint32_t n) {
    if (n < 2) return 0;
    static const uint32_t bases[] = {2, 3, 5, 7};
    uint32_t d = n - 1, s = 0;
    while (!(d & 1)) { d >>= 1; s++; }
    for (int i = 0; i < 4; i++) {
        uint32_t a = bases[i];
        if (a % n == 0) continue;
        uint64_t x = modpow(a, d, n);
        if (x == 1 || x == n - 1) continue;
        int witness = 1;
        for (uint32_t r = 1; r < s; r++) {
            x = x * x % n;
            if (x == n - 1) { witness = 0; break; }
        }
        if (witness) return 0;
    }
    return 1;
}

int main(void) {
    uint32_t count = 0, sum = 0, last = 0;
    composite[0] = composite[1] = 1;
    for (uint32_t i = 2; i < LIMIT; i++) {
        if (composite[i]) continue;
        count++; sum += i; last = i;
        for (uint32_t j = i * i; j < LIMIT; j += i) composite[j] = 1;
    }
    CHECK(count == 2262);
    report(count);
    report(sum);
    report(last);
    for (uint32_t n = 0; n < LIMIT; n++) CHECK(miller_rabin(n) == !composite[n]);
    CHECK(miller_rabin(2147483647u)); /* Mersenne prime 2^31 - 1 (valid for n < 3215031751 with bases 2,3,5,7) */
    uint32_t g = 0, l = 0;
    for (uint32_t i = 0; i < 200; i++) {
        uint32_t a = bh_rand() % 100000u + 1, b = bh_rand() % 100000u + 1, d = gcd(a, b);
        CHECK(a % d == 0 && b % d == 0 && gcd(a / d, b / d) == 1);
        g += d;
        l ^= (uint32_t)((uint64_t)a / d * b);
    }
    report(g);
    report(l);
    report(modpow(3, 1000000, 1000000007u));
    CHECK(modpow(2, 1000000006u, 1000000007u) == 1); /* Fermat */
    uint32_t best = 0, best_len = 0;
    for (uint32_t start = 1; start < 10000; start++) {
        uint32_t n = start, len = 1;
        while (n != 1) { n = n & 1 ? 3 * n + 1 : n / 2; len++; }
        if (len > best_len) { best_len = len; best = start; }
    }
    CHECK(best == 6171 && best_len == 262);
    report(best);
    report(best_len);
    return bh_done();
}
