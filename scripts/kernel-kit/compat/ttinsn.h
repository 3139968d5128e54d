// Teaches GNU as the `.ttinsn` directive that sfpi's assembler provides and tt-llk's
// ckernel_ops.h emits for every Tensix instruction (under __riscv_xtttensixbh).
// A Tensix instruction travels through a RISC-V core's instruction stream as a 32-bit word
// rotated left by 2, so that its low two bits are never 0b11 (the RISC-V 32-bit opcode space):
// see docs/kernel-kit.md. Included first into every kernel translation unit (-include).
#pragma once
__asm__(".ifndef BHEMU_TTINSN_DEFINED\n"
        ".set BHEMU_TTINSN_DEFINED, 1\n"
        ".macro .ttinsn w\n"
        ".word ((((\\w) << 2) | (((\\w) >> 30) & 3)) & 0xffffffff)\n"
        ".endm\n"
        ".endif\n");
