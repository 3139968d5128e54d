/*
 * The spin workload's loop, shared by examples/kernels/spin.c (bare metal) and
 * tests/metal/kernels/spin.cpp (a tt-metal dataflow kernel): seven register-only instructions
 * per iteration (addi, add, xor, slli, or, add, bnez), run until n reaches 0. n must be at
 * least 1. The checksum a ^ b ^ c is restated by every test that checks it.
 */
#ifndef BHEMU_SPIN_LOOP_H
#define BHEMU_SPIN_LOOP_H

#define SPIN_LOOP(n, a, b, c)          \
    __asm__ volatile(                  \
        "1:\n"                         \
        "addi %0, %0, -1\n"            \
        "add %1, %1, %0\n"             \
        "xor %2, %2, %1\n"             \
        "slli %3, %2, 1\n"             \
        "or %3, %3, %1\n"              \
        "add %2, %2, %3\n"             \
        "bnez %0, 1b\n"                \
        : "+r"(n), "+r"(a), "+r"(b), "+r"(c))

#endif
