// Dataflow writer (BRISC) of the streaming benchmark: writes N tiles of circular buffer 16 to a
// DRAM region, one tile at a time. Runtime args: tile_bytes, n_tiles, out_bank, out_addr.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t tile_bytes = get_arg_val<uint32_t>(0);
    const uint32_t n = get_arg_val<uint32_t>(1);
    const uint32_t out_bank = get_arg_val<uint32_t>(2);
    const uint32_t out_addr = get_arg_val<uint32_t>(3);
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(16, 1);
        noc_async_write(get_read_ptr(16), get_noc_addr_from_bank_id<true>(out_bank, out_addr + i * tile_bytes),
                        tile_bytes);
        noc_async_write_barrier();
        cb_pop_front(16, 1);
    }
}
