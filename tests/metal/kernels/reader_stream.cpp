// Dataflow reader (NCRISC) of the streaming benchmark: pushes N tiles from each of two DRAM
// regions, one tile at a time, into circular buffers 0 and 1. Runtime args: tile_bytes, n_tiles,
// a_bank, a_addr, b_bank, b_addr.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t tile_bytes = get_arg_val<uint32_t>(0);
    const uint32_t n = get_arg_val<uint32_t>(1);
    const uint32_t a_bank = get_arg_val<uint32_t>(2);
    const uint32_t a_addr = get_arg_val<uint32_t>(3);
    const uint32_t b_bank = get_arg_val<uint32_t>(4);
    const uint32_t b_addr = get_arg_val<uint32_t>(5);
    for (uint32_t i = 0; i < n; ++i) {
        cb_reserve_back(0, 1);
        cb_reserve_back(1, 1);
        noc_async_read(get_noc_addr_from_bank_id<true>(a_bank, a_addr + i * tile_bytes), get_write_ptr(0),
                       tile_bytes);
        noc_async_read(get_noc_addr_from_bank_id<true>(b_bank, b_addr + i * tile_bytes), get_write_ptr(1),
                       tile_bytes);
        noc_async_read_barrier();
        cb_push_back(0, 1);
        cb_push_back(1, 1);
    }
}
