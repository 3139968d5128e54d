/* A hash table: open addressing with linear probing and tombstones, FNV-1a over byte-string
 * keys. Inserts, looks up, deletes half, re-inserts, and checks every membership answer against
 * a plain array of what should be present. */
#include "bhtest.h"

#define CAP 1024u
#define NKEYS 600u
#define KEYLEN 8u

enum { EMPTY = 0, FULL = 1, DEAD = 2 };
struct slot { uint8_t state; uint8_t key[KEYLEN]; uint32_t value; };
static struct slot table[CAP];
static uint8_t keys[NKEYS][KEYLEN];
static uint8_t present[NKEYS];
static uint32_t probes;

static uint32_t fnv1a(const uint8_t *k) {
    uint32_t h = BH_FNV_INIT;
    for (uint32_t i = 0; i < KEYLEN; i++) { h ^= k[i]; h *= 16777619u; }
    return h;
}
static int same(const uint8_t *a, const uint8_t *b) {
    for (uint32_t i = 0; i < KEYLEN; i++) if (a[i] != b[i]) return 0;
    return 1;
}
static struct slot *find(const uint8_t *k) {
    for (uint32_t i = fnv1a(k) % CAP, n = 0; n < CAP; i = (i + 1) % CAP, n++) {
        probes++;
        if (table[i].state == EMPTY) return 0;
        if (table[i].state == FULL && same(table[i].key, k)) return &table[i];
    }
    return 0;
}
static int insert(const uint8_t *k, uint32_t v) {
    struct slot *s = find(k);
    if (s) { s->value = v; return 0; }
    for (uint32_t i = fnv1a(k) % CAP, n = 0; n < CAP; i = (i + 1) % CAP, n++) {
        if (table[i].state != FULL) {
            table[i].state = FULL;
            for (uint32_t j = 0; j < KEYLEN; j++) table[i].key[j] = k[j];
            table[i].value = v;
            return 1;
        }
    }
    return -1;
}
static int erase(const uint8_t *k) {
    struct slot *s = find(k);
    if (!s) return 0;
    s->state = DEAD;
    return 1;
}

int main(void) {
    for (uint32_t i = 0; i < NKEYS; i++)
        for (uint32_t j = 0; j < KEYLEN; j++) keys[i][j] = (uint8_t)('a' + bh_rand() % 26u);
    /* force a few duplicates */
    for (uint32_t j = 0; j < KEYLEN; j++) { keys[7][j] = keys[3][j]; keys[500][j] = keys[42][j]; }
    uint32_t inserted = 0;
    for (uint32_t i = 0; i < NKEYS; i++) {
        int r = insert(keys[i], i);
        CHECK(r >= 0);
        inserted += (uint32_t)r;
    }
    report(inserted);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < NKEYS; i++) {
        struct slot *s = find(keys[i]);
        CHECK(s != 0);
        if (s) sum += s->value;
    }
    report(sum);
    uint32_t erased = 0;
    for (uint32_t i = 0; i < NKEYS; i += 2) erased += (uint32_t)erase(keys[i]);
    report(erased);
    for (uint32_t i = 0; i < NKEYS; i++) present[i] = 1;
    for (uint32_t i = 0; i < NKEYS; i += 2) present[i] = 0;
    /* duplicates share a slot: erasing keys[42] also removed keys[500] */
    present[500] = 0; present[3] = 1; present[7] = 1; /* 3 odd, 7 odd: still there */
    uint32_t found = 0;
    for (uint32_t i = 0; i < NKEYS; i++) {
        int hit = find(keys[i]) != 0;
        CHECK(hit == present[i]);
        found += (uint32_t)hit;
    }
    report(found);
    for (uint32_t i = 0; i < NKEYS; i += 4) CHECK(insert(keys[i], i * 3u) == 1);
    uint32_t h = BH_FNV_INIT, live = 0;
    for (uint32_t i = 0; i < CAP; i++)
        if (table[i].state == FULL) { live++; h = bh_fnv(h, table[i].value * 31u + i); }
    report(live);
    report(h);
    report(probes);
    return bh_done();
}
