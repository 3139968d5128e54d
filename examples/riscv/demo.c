/* The built-in demo of `bhemu demo` (crates/cli/assets/riscv-demo.elf, rebuilt by
 * scripts/build-riscv-demo.sh): CRC-32, a sort and an integer matrix multiply, self-checked.
 * The order of the reported values is read by crates/cli/src/cmd_riscv.rs (DEMO_RESULTS). */
#include "bhtest.h"

static uint8_t data[2048];
static uint32_t keys[256];
static int32_t ma[12][12], mb[12][12], mc[12][12];

static uint32_t crc32(const uint8_t *p, uint32_t n) { /* reflected 0xEDB88320, bitwise */
    uint32_t crc = 0xffffffffu;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void shell_sort(uint32_t *v, int n) {
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++) {
            uint32_t x = v[i];
            int j = i;
            while (j >= gap && v[j - gap] > x) { v[j] = v[j - gap]; j -= gap; }
            v[j] = x;
        }
}

int main(void) {
    static const uint8_t check[] = "123456789";
    uint32_t c0 = crc32(check, 9);
    CHECK(c0 == 0xcbf43926u);
    for (uint32_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)bh_rand();
    uint32_t c1 = crc32(data, sizeof data);

    uint32_t sum_before = 0, sum_after = 0, h = BH_FNV_INIT;
    for (int i = 0; i < 256; i++) { keys[i] = bh_rand() % 1000000u; sum_before += keys[i]; }
    shell_sort(keys, 256);
    for (int i = 0; i < 256; i++) {
        sum_after += keys[i];
        if (i) CHECK(keys[i - 1] <= keys[i]);
        h = bh_fnv(h, keys[i]);
    }
    CHECK(sum_before == sum_after);

    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            ma[i][j] = (int32_t)(bh_rand() % 201u) - 100;
            mb[i][j] = i == j ? 1 : 0;
        }
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            int32_t acc = 0;
            for (int k = 0; k < 12; k++) acc += ma[i][k] * mb[k][j];
            mc[i][j] = acc;
            CHECK(acc == ma[i][j]); /* A · I = A */
        }
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            int32_t acc = 0;
            for (int k = 0; k < 12; k++) acc += ma[i][k] * ma[k][j];
            mc[i][j] = acc;
        }
    int32_t trace = 0;
    for (int i = 0; i < 12; i++) trace += mc[i][i];

    report(c0);            /* 0: CRC-32("123456789") */
    report(c1);            /* 1: CRC-32 of 2 KiB of xorshift bytes */
    report(keys[0]);       /* 2: smallest of 256 sorted keys */
    report(keys[255]);     /* 3: largest */
    report(h);             /* 4: FNV-1a of the sorted keys */
    report((uint32_t)trace); /* 5: trace of A·A, A 12x12 */
    return bh_done();
}
