/*
 * bhemu demo kernels: shared definitions. Every Tensix tile runs these four bare-metal
 * programs straight from the cores' reset pcs (no firmware): BRISC at 0x0 configures the
 * coprocessor and releases the TRISCs, which start at their default reset pcs 0x6000 /
 * 0xA000 / 0xE000 (tt-isa-documentation: BlackholeA0/TensixTile/SoftReset.md).
 *
 * L1 layout of one tile (docs/demo.md):
 *   0x20000  tile A, 32x32 bf16 (four 16x16 faces, row-major)  -> SrcA (unpacker 0)
 *   0x20800  tile B, 32x32 bf16                                 -> SrcB (unpacker 1)
 *   0x30000  A + B, bf16 (packed from Dst rows 0..63)
 *   0x30800  B @ A, bf16 (packed from Dst rows 64..127)
 *   0x31000  DEMO_DONE once the packer has finished
 *
 * A Tensix instruction enters a TRISC's instruction stream as a `.ttinsn` word (the macro
 * of scripts/kernel-kit/compat/ttinsn.h); each word below carries its assembly text, as
 * `bhemu asm --tensix` reads and writes it.
 */
#pragma once
#include <stdint.h>

#define TTI(w) __asm__ volatile(".ttinsn %0" ::"i"(w) : "memory")
#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))

#define L1_OUT_DONE 0x31000u
#define DEMO_DONE 0x600DF00Du

/* Entry at the reset pc: a stack in L1 below STACK_TOP, then main. */
#define DEMO_ENTRY(STACK_TOP)                                                  \
    int main(void);                                                            \
    __attribute__((naked, section(".text.entry"))) void _start(void) {         \
        __asm__ volatile("li sp, %0\n\tj main" ::"i"(STACK_TOP));              \
    }
