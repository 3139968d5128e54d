/* Recursion: Ackermann, n-queens, naive Fibonacci, Towers of Hanoi, permutations and a
 * recursive-descent expression evaluator. Known values: A(2,3) = 9, A(3,n) = 2^(n+3) - 3,
 * 8 queens = 92 solutions (OEIS A000170), fib(20) = 6765, hanoi(n) = 2^n - 1 moves. */
#include "bhtest.h"

static uint32_t ack(uint32_t m, uint32_t n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static uint32_t queens(uint32_t n, uint32_t row, uint32_t cols, uint32_t d1, uint32_t d2) {
    if (row == n) return 1;
    uint32_t count = 0;
    for (uint32_t c = 0; c < n; c++) {
        uint32_t a = 1u << c, b = 1u << (row + c), e = 1u << (row + n - c);
        if ((cols & a) || (d1 & b) || (d2 & e)) continue;
        count += queens(n, row + 1, cols | a, d1 | b, d2 | e);
    }
    return count;
}

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static uint32_t hanoi_moves, hanoi_hash = BH_FNV_INIT;
static void hanoi(uint32_t n, uint32_t from, uint32_t to, uint32_t via) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to);
    hanoi_moves++;
    if (hanoi_moves < 64) hanoi_hash = bh_fnv(hanoi_hash, from * 4 + to);
    hanoi(n - 1, via, to, from);
}

static uint8_t perm[8];
static uint32_t perm_count, perm_hash = BH_FNV_INIT;
static void permute(uint32_t k, uint32_t n) {
    if (k == n) {
        uint32_t v = 0;
        for (uint32_t i = 0; i < n; i++) v = v * 10 + perm[i];
        perm_count++;
        perm_hash = bh_fnv(perm_hash, v);
        return;
    }
    for (uint32_t i = k; i < n; i++) {
        uint8_t t = perm[k]; perm[k] = perm[i]; perm[i] = t;
        permute(k + 1, n);
        t = perm[k]; perm[k] = perm[i]; perm[i] = t;
    }
}

/* expr := term (('+'|'-') term)* ; term := factor (('*'|'/') factor)* ; factor := num | '(' expr ')' | '-' factor */
static const char *src;
static int32_t expr(void);
static int32_t factor(void) {
    if (*src == '(') { src++; int32_t v = expr(); src++; return v; }
    if (*src == '-') { src++; return -factor(); }
    int32_t v = 0;
    while (*src >= '0' && *src <= '9') v = v * 10 + (*src++ - '0');
    return v;
}
static int32_t term(void) {
    int32_t v = factor();
    while (*src == '*' || *src == '/') {
        char op = *src++;
        int32_t r = factor();
        v = op == '*' ? v * r : (r ? v / r : 0);
    }
    return v;
}
static int32_t expr(void) {
    int32_t v = term();
    while (*src == '+' || *src == '-') {
        char op = *src++;
        int32_t r = term();
        v = op == '+' ? v + r : v - r;
    }
    return v;
}
static int32_t eval(const char *s) { src = s; return expr(); }

int main(void) {
    CHECK(ack(2, 3) == 9);
    uint32_t a35 = ack(3, 5);
    CHECK(a35 == 253);
    CHECK(queens(6, 0, 0, 0, 0) == 4);
    uint32_t q8 = queens(8, 0, 0, 0, 0);
    CHECK(q8 == 92);
    uint32_t f = fib(20);
    CHECK(f == 6765);
    hanoi(12, 0, 2, 1);
    CHECK(hanoi_moves == 4095);
    for (uint32_t i = 0; i < 7; i++) perm[i] = (uint8_t)i;
    permute(0, 7);
    CHECK(perm_count == 5040);
    int32_t e1 = eval("(1+2)*3-4/(1+1)");
    CHECK(e1 == 7);
    int32_t e2 = eval("-(12*(3+4)-(100/7))*2+(((5)))");
    report(a35);
    report(q8);
    report(queens(9, 0, 0, 0, 0));
    report(f);
    report(hanoi_hash);
    report(perm_hash);
    report((uint32_t)e1);
    report((uint32_t)e2);
    return bh_done();
}
