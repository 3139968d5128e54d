// Dataflow kernel (BRISC): the spin workload of examples/kernels/spin.c as a tt-metal kernel —
// a 7-instruction register-only loop run N times — then the loop's checksum and the cycles it
// took (mcycle) at an L1 address. Runtime args: N (at least 1), L1 address of the two words.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "../../../examples/kernels/spin_loop.h"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    const uint32_t out = get_arg_val<uint32_t>(1);
    uint32_t a = 1, b = 2, c = 3, c0, c1;
    asm volatile("csrr %0, mcycle" : "=r"(c0));
    SPIN_LOOP(n, a, b, c);
    asm volatile("csrr %0, mcycle" : "=r"(c1));
    volatile tt_l1_ptr uint32_t* w = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(out);
    w[0] = a ^ b ^ c;
    w[1] = c1 - c0;
}
