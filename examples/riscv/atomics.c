/* bhemu-march: rv32ima
 * Atomic memory operations, built with the A extension so GCC emits amoadd.w, amoand.w,
 * amoor.w, amoxor.w and amoswap.w. Only word-sized fetch-and-op, exchange and test-and-set are
 * used: compare-exchange, nand and sub-word atomics compile to LR/SC loops, which Blackhole's
 * baby cores lack (Zaamo only; docs/blackhole-facts.md §10). The harness checks the object code has no lr/sc. */
#include "bhtest.h"

static uint32_t counter, mask, flags, lock, slot;
static int32_t balance;

static void spin_lock(uint32_t *l) { while (__sync_lock_test_and_set(l, 1u)) { } }
static void spin_unlock(uint32_t *l) { __sync_lock_release(l); }

int main(void) {
    uint32_t h = BH_FNV_INIT;
    mask = 0xffffffffu;
    for (uint32_t i = 0; i < 200; i++) {
        uint32_t r = bh_rand();
        uint32_t old = __atomic_fetch_add(&counter, r, __ATOMIC_SEQ_CST);
        h = bh_fnv(h, old);
        old = __atomic_fetch_and(&mask, ~(1u << (r % 32)) | (r & 0x0f0f0f0fu), __ATOMIC_ACQ_REL);
        h = bh_fnv(h, old);
        old = __atomic_fetch_or(&flags, 1u << (i % 32), __ATOMIC_RELAXED);
        h = bh_fnv(h, old);
        old = __atomic_fetch_xor(&flags, r, __ATOMIC_RELEASE);
        h = bh_fnv(h, old);
        old = __atomic_exchange_n(&slot, i * 7u, __ATOMIC_ACQUIRE);
        CHECK(i == 0 ? old == 0 : old == (i - 1) * 7u);
        int32_t prev = __atomic_fetch_sub(&balance, (int32_t)(r % 1000u), __ATOMIC_SEQ_CST);
        h = bh_fnv(h, (uint32_t)prev);
        uint32_t now = __atomic_add_fetch(&counter, 1u, __ATOMIC_SEQ_CST);
        CHECK(now == __atomic_load_n(&counter, __ATOMIC_ACQUIRE));
        CHECK(__sync_fetch_and_add(&counter, 0u) == now);
        spin_lock(&lock);
        CHECK(__atomic_load_n(&lock, __ATOMIC_RELAXED) == 1u);
        __atomic_store_n(&slot, __atomic_load_n(&slot, __ATOMIC_RELAXED) + 1u, __ATOMIC_RELEASE);
        spin_unlock(&lock);
        CHECK(lock == 0u);
        __atomic_fetch_sub(&slot, 1u, __ATOMIC_RELAXED);
    }
    CHECK(__sync_lock_test_and_set(&lock, 5u) == 0u);
    CHECK(__sync_or_and_fetch(&lock, 2u) == 7u);
    CHECK(__sync_and_and_fetch(&lock, 6u) == 6u);
    CHECK(__sync_xor_and_fetch(&lock, 6u) == 0u);
    report(counter);
    report(mask);
    report(flags);
    report((uint32_t)balance);
    report(slot);
    report(h);
    return bh_done();
}
