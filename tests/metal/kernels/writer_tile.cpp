// Dataflow writer (BRISC): waits for one tile in circular buffer 16 and writes it to DRAM.
// Runtime args: tile_bytes, out_bank, out_addr.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t tile_bytes = get_arg_val<uint32_t>(0);
    const uint32_t out_bank = get_arg_val<uint32_t>(1);
    const uint32_t out_addr = get_arg_val<uint32_t>(2);

    cb_wait_front(16, 1);
    noc_async_write(get_read_ptr(16), get_noc_addr_from_bank_id<true>(out_bank, out_addr), tile_bytes);
    noc_async_write_barrier();
    cb_pop_front(16, 1);
}
