// Dataflow reader (NCRISC): pushes one tile from each of up to two DRAM locations into circular
// buffers 0 and 1. Runtime args: tile_bytes, a_bank, a_addr, b_bank, b_addr (b_addr 0: one input).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t tile_bytes = get_arg_val<uint32_t>(0);
    const uint32_t a_bank = get_arg_val<uint32_t>(1);
    const uint32_t a_addr = get_arg_val<uint32_t>(2);
    const uint32_t b_bank = get_arg_val<uint32_t>(3);
    const uint32_t b_addr = get_arg_val<uint32_t>(4);

    cb_reserve_back(0, 1);
    noc_async_read(get_noc_addr_from_bank_id<true>(a_bank, a_addr), get_write_ptr(0), tile_bytes);
    noc_async_read_barrier();
    cb_push_back(0, 1);

    if (b_addr != 0) {
        cb_reserve_back(1, 1);
        noc_async_read(get_noc_addr_from_bank_id<true>(b_bank, b_addr), get_write_ptr(1), tile_bytes);
        noc_async_read_barrier();
        cb_push_back(1, 1);
    }
}
