// Writer: drains `n_pages` pages from a circular buffer into one DRAM bank.
// Runtime args: [0] DRAM NoC x, [1] DRAM NoC y, [2] destination address in the bank,
//               [3] number of pages, [4] page size in bytes, [5] circular buffer index.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const std::uint32_t x = get_arg_val<std::uint32_t>(0);
    const std::uint32_t y = get_arg_val<std::uint32_t>(1);
    const std::uint32_t dst = get_arg_val<std::uint32_t>(2);
    const std::uint32_t n_pages = get_arg_val<std::uint32_t>(3);
    const std::uint32_t page = get_arg_val<std::uint32_t>(4);
    const std::uint32_t cb = get_arg_val<std::uint32_t>(5);
    for (std::uint32_t i = 0; i < n_pages; i++) {
        cb_wait_front(cb, 1);
        noc_async_write(get_read_ptr(cb), get_noc_addr(x, y, dst + i * page), page);
        noc_async_write_barrier();
        cb_pop_front(cb, 1);
    }
}
