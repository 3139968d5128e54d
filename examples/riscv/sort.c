/* Sorting: insertion sort, recursive quicksort, bottom-up merge sort and heapsort on the same
 * pseudo-random data; all four must agree and be ordered. */
#include "bhtest.h"

#define N 400
static uint32_t a[N], b[N], c[N], tmp[N];
static int32_t d[N];

static void insertion_sort(uint32_t *v, int n) {
    for (int i = 1; i < n; i++) {
        uint32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
}

static void quicksort(uint32_t *v, int lo, int hi) {
    if (lo >= hi) return;
    uint32_t pivot = v[lo + (hi - lo) / 2];
    int i = lo, j = hi;
    while (i <= j) {
        while (v[i] < pivot) i++;
        while (v[j] > pivot) j--;
        if (i <= j) { uint32_t t = v[i]; v[i] = v[j]; v[j] = t; i++; j--; }
    }
    quicksort(v, lo, j);
    quicksort(v, i, hi);
}

static void merge_sort(uint32_t *v, uint32_t *t, int n) {
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) t[k++] = v[i] <= v[j] ? v[i++] : v[j++];
            while (i < mid) t[k++] = v[i++];
            while (j < hi) t[k++] = v[j++];
        }
        for (int i = 0; i < n; i++) v[i] = t[i];
    }
}

static void sift_down(int32_t *v, int root, int n) {
    for (;;) {
        int child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && v[child + 1] > v[child]) child++;
        if (v[root] >= v[child]) return;
        int32_t t = v[root]; v[root] = v[child]; v[child] = t;
        root = child;
    }
}

static void heap_sort(int32_t *v, int n) {
    for (int i = n / 2 - 1; i >= 0; i--) sift_down(v, i, n);
    for (int end = n - 1; end > 0; end--) {
        int32_t t = v[0]; v[0] = v[end]; v[end] = t;
        sift_down(v, 0, end);
    }
}

int main(void) {
    for (int i = 0; i < N; i++) {
        uint32_t r = bh_rand() % 100000u;
        a[i] = b[i] = c[i] = r;
        d[i] = (int32_t)r - 50000;
    }
    insertion_sort(a, N);
    quicksort(b, 0, N - 1);
    merge_sort(c, tmp, N);
    heap_sort(d, N);
    uint32_t h = BH_FNV_INIT;
    for (int i = 0; i < N; i++) {
        CHECK(a[i] == b[i] && b[i] == c[i]);
        CHECK((uint32_t)(d[i] + 50000) == a[i]);
        if (i) CHECK(a[i - 1] <= a[i]);
        h = bh_fnv(h, a[i]);
    }
    report(a[0]);
    report(a[N / 2]);
    report(a[N - 1]);
    report((uint32_t)d[0]);
    report(h);
    return bh_done();
}
