/* Integer matrix multiply: 16x16 int32 products checked against identities (A·I = A,
 * (A·B)ᵀ = Bᵀ·Aᵀ, A·(B+C) = A·B + A·C), and an int8 x int8 -> int32 product as ML kernels do. */
#include "bhtest.h"

#define N 16
typedef int32_t mat[N][N];

static mat A, B, C, I, P, Q, R, S, T;

static void mul(mat x, mat y, mat out) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            uint32_t acc = 0; /* unsigned: wraparound is defined and identical on both hosts */
            for (int k = 0; k < N; k++) acc += (uint32_t)x[i][k] * (uint32_t)y[k][j];
            out[i][j] = (int32_t)acc;
        }
}

static void transpose(mat x, mat out) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) out[j][i] = x[i][j];
}

static int equal(mat x, mat y) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (x[i][j] != y[i][j]) return 0;
    return 1;
}

static uint32_t digest(mat x) {
    uint32_t h = BH_FNV_INIT;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) h = bh_fnv(h, (uint32_t)x[i][j]);
    return h;
}

static int8_t qa[32][64], qb[64][32];
static int32_t qc[32][32];

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (int32_t)(bh_rand() % 2001u) - 1000;
            B[i][j] = (int32_t)(bh_rand() % 2001u) - 1000;
            C[i][j] = (int32_t)(bh_rand() % 201u) - 100;
            I[i][j] = i == j;
        }
    mul(A, I, P);
    CHECK(equal(P, A));
    mul(A, B, P);              /* P = A·B */
    transpose(P, Q);           /* Q = (A·B)ᵀ */
    transpose(A, R);
    transpose(B, S);
    mul(S, R, T);              /* T = Bᵀ·Aᵀ */
    CHECK(equal(Q, T));
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) R[i][j] = B[i][j] + C[i][j];
    mul(A, R, S);              /* S = A·(B+C) */
    mul(A, C, T);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) CHECK(S[i][j] == P[i][j] + T[i][j]);
    int32_t trace = 0;
    for (int i = 0; i < N; i++) trace += P[i][i];
    report((uint32_t)trace);
    report(digest(P));
    report((uint32_t)P[3][7]);

    for (int i = 0; i < 32; i++)
        for (int k = 0; k < 64; k++) { qa[i][k] = (int8_t)bh_rand(); qb[k][i] = (int8_t)bh_rand(); }
    uint32_t h = BH_FNV_INIT;
    int32_t lo = 0, hi = 0;
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++) {
            int32_t acc = 0;
            for (int k = 0; k < 64; k++) acc += (int32_t)qa[i][k] * qb[k][j];
            qc[i][j] = acc;
            if (acc < lo) lo = acc;
            if (acc > hi) hi = acc;
            h = bh_fnv(h, (uint32_t)acc);
        }
    CHECK(lo >= -64 * 128 * 128 && hi <= 64 * 128 * 128);
    report(h);
    report((uint32_t)lo);
    report((uint32_t)hi);
    return bh_done();
}
