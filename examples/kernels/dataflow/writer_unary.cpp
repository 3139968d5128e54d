// Writer: drains `n_tiles` pages from circular buffer 16 into an interleaved DRAM buffer.
// Runtime args: [0] buffer address, [1] number of tiles.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const std::uint32_t dst = get_arg_val<std::uint32_t>(0);
    const std::uint32_t n_tiles = get_arg_val<std::uint32_t>(1);
    constexpr std::uint32_t cb_out = 16;
    const std::uint32_t page = get_tile_size(cb_out);
    const InterleavedAddrGen<true> dram = {.bank_base_address = dst, .page_size = page};
    for (std::uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_out, 1);
        noc_async_write_page(i, dram, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
