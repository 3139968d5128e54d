/* Entry point of bhemu's bare-metal RISC-V test programs (see bhtest.h).
 *
 * Sets up gp and sp, clears .bss, calls main(), then reports through the riscv-tests `tohost`
 * convention (riscv-tests env/p/riscv_test.h, RVTEST_PASS/RVTEST_FAIL): writes 1 for pass, or
 * (n << 1) | 1 for failure n, where n is main's return value, and spins until the host stops it. */
    .section .text.init, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$   /* must not be relaxed against itself */
    .option pop
    la      sp, __stack_top
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    main
    slli    a0, a0, 1
    ori     a0, a0, 1
    la      t0, tohost
    sw      a0, 0(t0)
3:  j       3b
    .size _start, . - _start

    /* riscv-tests declare tohost/fromhost as 8-byte objects in section .tohost. */
    .section .tohost, "aw", @progbits
    .balign 8
    .globl tohost
    .type tohost, @object
tohost:
    .dword 0
    .size tohost, 8
    .globl fromhost
    .type fromhost, @object
fromhost:
    .dword 0
    .size fromhost, 8
