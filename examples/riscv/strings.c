/* String handling with hand-written routines: length, copy, compare, search (naive and
 * Knuth–Morris–Pratt), reverse, integer <-> text conversion in several bases, case mapping and
 * word counting. Bytes are uint8_t so char signedness never matters. */
#include "bhtest.h"

static uint32_t slen(const uint8_t *s) { uint32_t n = 0; while (s[n]) n++; return n; }
static void scpy(uint8_t *d, const uint8_t *s) { while ((*d++ = *s++)) { } }
static int32_t scmp(const uint8_t *a, const uint8_t *b) {
    while (*a && *a == *b) { a++; b++; }
    return (int32_t)*a - (int32_t)*b;
}
static int32_t find_naive(const uint8_t *h, const uint8_t *n) {
    uint32_t hl = slen(h), nl = slen(n);
    for (uint32_t i = 0; i + nl <= hl; i++) {
        uint32_t j = 0;
        while (j < nl && h[i + j] == n[j]) j++;
        if (j == nl) return (int32_t)i;
    }
    return -1;
}
static int32_t find_kmp(const uint8_t *h, const uint8_t *n) {
    int32_t fail[64];
    int32_t nl = (int32_t)slen(n), hl = (int32_t)slen(h);
    if (nl == 0) return 0;
    if (nl > 64) return -2;
    fail[0] = 0;
    for (int32_t i = 1, k = 0; i < nl; i++) {
        while (k && n[i] != n[k]) k = fail[k - 1];
        if (n[i] == n[k]) k++;
        fail[i] = k;
    }
    for (int32_t i = 0, k = 0; i < hl; i++) {
        while (k && h[i] != n[k]) k = fail[k - 1];
        if (h[i] == n[k]) k++;
        if (k == nl) return i - nl + 1;
    }
    return -1;
}
static void reverse(uint8_t *s) {
    uint32_t n = slen(s);
    for (uint32_t i = 0; i < n / 2; i++) { uint8_t t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; }
}
static void utoa(uint32_t v, uint32_t base, uint8_t *out) {
    static const uint8_t digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    uint32_t i = 0;
    do { out[i++] = digits[v % base]; v /= base; } while (v);
    out[i] = 0;
    reverse(out);
}
static uint32_t atou(const uint8_t *s, uint32_t base) {
    uint32_t v = 0;
    for (; *s; s++) {
        uint32_t d = *s >= 'a' ? (uint32_t)(*s - 'a' + 10) : (uint32_t)(*s - '0');
        v = v * base + d;
    }
    return v;
}
static uint32_t hash_str(const uint8_t *s) {
    uint32_t h = BH_FNV_INIT;
    while (*s) { h ^= *s++; h *= 16777619u; }
    return h;
}

static const uint8_t text[] =
    "The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. "
    "Sphinx of black quartz, judge my vow! How vexingly quick daft zebras jump.";

int main(void) {
    static uint8_t buf[256], num[40];
    CHECK(slen(text) == sizeof text - 1);
    scpy(buf, text);
    CHECK(scmp(buf, text) == 0);
    static const uint8_t *needles[] = {
        (const uint8_t *)"fox", (const uint8_t *)"quick daft", (const uint8_t *)"jugs.",
        (const uint8_t *)"zebra!", (const uint8_t *)"T", (const uint8_t *)"ump.",
    };
    uint32_t h = BH_FNV_INIT;
    for (uint32_t i = 0; i < sizeof needles / sizeof needles[0]; i++) {
        int32_t a = find_naive(text, needles[i]), b = find_kmp(text, needles[i]);
        CHECK(a == b);
        h = bh_fnv(h, (uint32_t)a);
    }
    report(h);
    reverse(buf);
    report(hash_str(buf));
    reverse(buf);
    CHECK(scmp(buf, text) == 0);
    uint32_t words = 0, upper = 0;
    for (uint32_t i = 0, in = 0; buf[i]; i++) {
        uint8_t c = buf[i];
        int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (letter && !in) words++;
        in = letter;
        if (c >= 'a' && c <= 'z') { buf[i] = (uint8_t)(c - 32); upper++; }
    }
    report(words);
    report(upper);
    report(hash_str(buf));
    CHECK(scmp((const uint8_t *)"abc", (const uint8_t *)"abd") < 0);
    CHECK(scmp((const uint8_t *)"b", (const uint8_t *)"abc") > 0);
    h = BH_FNV_INIT;
    for (uint32_t i = 0; i < 100; i++) {
        uint32_t v = bh_rand() >> (i % 32), base = 2 + i % 35;
        utoa(v, base, num);
        CHECK(atou(num, base) == v);
        h ^= hash_str(num);
        h *= 16777619u;
    }
    report(h);
    utoa(0xdeadbeefu, 16, num);
    CHECK(scmp(num, (const uint8_t *)"deadbeef") == 0);
    utoa(4294967295u, 10, num);
    CHECK(scmp(num, (const uint8_t *)"4294967295") == 0);
    return bh_done();
}
