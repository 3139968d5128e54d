// Reader: copies `n_tiles` pages of an interleaved DRAM buffer into circular buffer 0, one page
// at a time. Runtime args: [0] buffer address, [1] number of tiles.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const std::uint32_t src = get_arg_val<std::uint32_t>(0);
    const std::uint32_t n_tiles = get_arg_val<std::uint32_t>(1);
    constexpr std::uint32_t cb_in = 0;
    const std::uint32_t page = get_tile_size(cb_in);
    const InterleavedAddrGen<true> dram = {.bank_base_address = src, .page_size = page};
    for (std::uint32_t i = 0; i < n_tiles; i++) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_page(i, dram, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
