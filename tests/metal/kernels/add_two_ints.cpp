// Dataflow kernel (BRISC): reads one 32-bit integer from each of two DRAM banks, adds them, and
// writes the sum to a third DRAM location. Runtime args: a_bank, a_addr, b_bank, b_addr,
// out_bank, out_addr, l1_scratch (16 bytes of this core's L1).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_bank = get_arg_val<uint32_t>(0);
    const uint32_t a_addr = get_arg_val<uint32_t>(1);
    const uint32_t b_bank = get_arg_val<uint32_t>(2);
    const uint32_t b_addr = get_arg_val<uint32_t>(3);
    const uint32_t out_bank = get_arg_val<uint32_t>(4);
    const uint32_t out_addr = get_arg_val<uint32_t>(5);
    const uint32_t l1 = get_arg_val<uint32_t>(6);

    noc_async_read(get_noc_addr_from_bank_id<true>(a_bank, a_addr), l1, 4);
    noc_async_read(get_noc_addr_from_bank_id<true>(b_bank, b_addr), l1 + 4, 4);
    noc_async_read_barrier();

    volatile tt_l1_ptr uint32_t* words = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(l1);
    words[2] = words[0] + words[1];

    noc_async_write(l1 + 8, get_noc_addr_from_bank_id<true>(out_bank, out_addr), 4);
    noc_async_write_barrier();
}
