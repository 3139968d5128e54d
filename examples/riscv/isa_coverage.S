/* Every instruction form the baby RISC-V cores implement (docs/blackhole-facts.md §10), for the disassembly
 * comparison with objdump (crates/cli/tests/riscv_disasm.rs). Not meant to run.
 * Assembled with -march=rv32ima_zicsr_zifencei_zba_zbb_zbkb. Left out: lr/sc (absent on
 * Blackhole), `grevi` with modes other than rev8 (24) and brev8 (7) — binutils knows no Bitmanip
 * 0.94 draft — and `.ttinsn` words, which objdump decodes as compressed instructions. */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    /* RV32I: upper immediates, jumps, branches (forward, backward, all conditions) */
    lui     a0, 0x12345
    lui     t6, 0xfffff
    auipc   a1, 0
    auipc   s0, 0x80000
    jal     ra, 1f
    jal     zero, 1f
    jal     t0, 1f
1:  jalr    zero, 0(ra)
    jalr    ra, 0(a5)
    jalr    t1, -4(a2)
    jalr    zero, 12(t0)
    beq     a0, a1, 1b
    bne     a0, zero, 2f
    blt     a0, a1, 2f
    bge     a0, a1, 2f
    bltu    a0, a1, 2f
    bgeu    a0, a1, 2f
    beq     zero, a1, 2f
    blt     zero, a1, 2f
    bge     a1, zero, 2f
    blt     a1, zero, 2f
    bge     zero, a1, 2f
2:  lb      a0, -1(sp)
    lh      a1, 2(sp)
    lw      a2, 2047(s0)
    lbu     a3, -2048(s1)
    lhu     a4, 0(a5)
    sb      a0, -1(sp)
    sh      a1, 6(gp)
    sw      a2, 2044(tp)
    /* register-immediate */
    addi    a0, a1, -2048
    addi    a0, zero, 2047
    addi    a0, a1, 0
    addi    zero, zero, 0
    slti    a0, a1, -1
    sltiu   a0, a1, 1
    sltiu   a0, a1, 5
    xori    a0, a1, -1
    xori    a0, a1, 0x55
    ori     a0, a1, 0x7ff
    andi    a0, a1, 0xff
    andi    a0, a1, -16
    slli    a0, a1, 0
    slli    a0, a1, 31
    srli    a0, a1, 1
    srai    a0, a1, 31
    /* register-register */
    add     a0, a1, a2
    sub     a0, a1, a2
    sub     a0, zero, a2
    sll     a0, a1, a2
    slt     a0, a1, a2
    slt     a0, a1, zero
    slt     a0, zero, a2
    sltu    a0, a1, a2
    sltu    a0, zero, a2
    xor     a0, a1, a2
    srl     a0, a1, a2
    sra     a0, a1, a2
    or      a0, a1, a2
    and     a0, a1, a2
    /* M */
    mul     a0, a1, a2
    mulh    a0, a1, a2
    mulhsu  a0, a1, a2
    mulhu   a0, a1, a2
    div     a0, a1, a2
    divu    a0, a1, a2
    rem     a0, a1, a2
    remu    a0, a1, a2
    /* Zaamo */
    amoswap.w   a0, a1, (a2)
    amoadd.w    a0, a1, (a2)
    amoxor.w.aq a0, a1, (a2)
    amoand.w.rl a0, a1, (a2)
    amoor.w.aqrl a0, a1, (a2)
    amomin.w    a0, a1, (a2)
    amomax.w    zero, a1, (sp)
    amominu.w   a0, a1, (a2)
    amomaxu.w   a0, a1, (a2)
    /* Zicsr / Zicntr, machine CSRs */
    csrrw   a0, mstatus, a1
    csrrs   a0, mie, a1
    csrrc   a0, mip, a1
    csrrwi  a0, mtvec, 5
    csrrsi  a0, mscratch, 31
    csrrci  a0, mepc, 1
    csrw    mcause, a1
    csrr    a0, mtval
    csrs    mstatus, a1
    csrc    mstatus, a1
    csrwi   mie, 0
    csrsi   mstatus, 8
    csrci   mstatus, 8
    csrr    a0, mhartid
    csrr    a0, misa
    csrr    a0, mvendorid
    csrr    a0, marchid
    csrr    a0, mimpid
    csrr    a0, mcycle
    csrr    a0, minstret
    csrr    a0, mcycleh
    csrr    a0, minstreth
    rdcycle a0
    rdcycleh a1
    rdinstret a2
    rdinstreth a3
    csrr    a0, 0x7c0
    csrr    a0, 0xbc0
    /* fences and system */
    fence
    fence   rw, rw
    fence   r, w
    fence   iorw, o
    fence.tso
    fence.i
    ecall
    ebreak
    mret
    /* Zba */
    sh1add  a0, a1, a2
    sh2add  a0, a1, a2
    sh3add  a0, a1, a2
    /* Zbb */
    andn    a0, a1, a2
    orn     a0, a1, a2
    xnor    a0, a1, a2
    clz     a0, a1
    ctz     a0, a1
    cpop    a0, a1
    max     a0, a1, a2
    maxu    a0, a1, a2
    min     a0, a1, a2
    minu    a0, a1, a2
    sext.b  a0, a1
    sext.h  a0, a1
    zext.h  a0, a1
    rol     a0, a1, a2
    ror     a0, a1, a2
    rori    a0, a1, 0
    rori    a0, a1, 31
    orc.b   a0, a1
    rev8    a0, a1
    /* Zbkb subset */
    pack    a0, a1, a2
    brev8   a0, a1
    /* pseudo-instructions as the assembler expands them */
    nop
    li      a0, -1
    mv      a0, a1
    not     a0, a1
    neg     a0, a1
    seqz    a0, a1
    snez    a0, a1
    sltz    a0, a1
    sgtz    a0, a1
    zext.b  a0, a1
    j       _start
    jr      a0
    ret
    tail    _start
    call    _start
