/* Checksums: bitwise and table-driven CRC-32 (IEEE 802.3, reflected 0xEDB88320), CRC-16/CCITT-FALSE
 * and Adler-32, checked against the published check values of "123456789" (Greg Cook's CRC
 * catalogue) and "Wikipedia" (RFC 1950 Adler-32 example), then run over a pseudo-random buffer. */
#include "bhtest.h"

static uint32_t crc_table[256];

static uint32_t crc32_bitwise(const uint8_t *p, uint32_t n) {
    uint32_t crc = 0xffffffffu;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void crc32_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32_table(const uint8_t *p, uint32_t n) {
    uint32_t crc = 0xffffffffu;
    while (n--) crc = crc_table[(crc ^ *p++) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

static uint16_t crc16_ccitt(const uint8_t *p, uint32_t n) {
    uint16_t crc = 0xffffu;
    while (n--) {
        crc ^= (uint16_t)(*p++ << 8);
        for (int k = 0; k < 8; k++)
            crc = (uint16_t)(crc & 0x8000u ? (uint32_t)(crc << 1) ^ 0x1021u : (uint32_t)(crc << 1));
    }
    return crc;
}

static uint32_t adler32(const uint8_t *p, uint32_t n) {
    uint32_t a = 1, b = 0;
    while (n--) { a = (a + *p++) % 65521u; b = (b + a) % 65521u; }
    return (b << 16) | a;
}

static uint8_t buf[4096];

int main(void) {
    static const uint8_t check[] = "123456789";
    static const uint8_t wiki[] = "Wikipedia";
    crc32_init();
    CHECK(crc32_bitwise(check, 9) == 0xcbf43926u);
    CHECK(crc32_table(check, 9) == 0xcbf43926u);
    CHECK(crc16_ccitt(check, 9) == 0x29b1u);
    CHECK(adler32(wiki, 9) == 0x11e60398u);
    for (uint32_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)bh_rand();
    uint32_t c1 = crc32_bitwise(buf, sizeof buf), c2 = crc32_table(buf, sizeof buf);
    CHECK(c1 == c2);
    report(crc32_table(check, 9));
    report(c1);
    report(crc16_ccitt(buf, sizeof buf));
    report(adler32(buf, sizeof buf));
    /* Appending the little-endian CRC makes the residue constant (0x2144df1c after the final xor). */
    uint8_t tail[4] = {(uint8_t)c1, (uint8_t)(c1 >> 8), (uint8_t)(c1 >> 16), (uint8_t)(c1 >> 24)};
    uint32_t crc = ~crc32_table(buf, sizeof buf);
    for (int i = 0; i < 4; i++) crc = crc_table[(crc ^ tail[i]) & 0xffu] ^ (crc >> 8);
    CHECK(~crc == 0x2144df1cu);
    report(~crc);
    return bh_done();
}
