// Binary reader: copies `n_pages` pages from each of two DRAM buffers (same bank) into two
// circular buffers, one page of each per step.
// Runtime args: [0] DRAM NoC x, [1] DRAM NoC y, [2] source A address, [3] source B address,
//               [4] number of pages, [5] page size in bytes, [6] CB for A, [7] CB for B.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const std::uint32_t x = get_arg_val<std::uint32_t>(0);
    const std::uint32_t y = get_arg_val<std::uint32_t>(1);
    const std::uint32_t src_a = get_arg_val<std::uint32_t>(2);
    const std::uint32_t src_b = get_arg_val<std::uint32_t>(3);
    const std::uint32_t n_pages = get_arg_val<std::uint32_t>(4);
    const std::uint32_t page = get_arg_val<std::uint32_t>(5);
    const std::uint32_t cb_a = get_arg_val<std::uint32_t>(6);
    const std::uint32_t cb_b = get_arg_val<std::uint32_t>(7);
    for (std::uint32_t i = 0; i < n_pages; i++) {
        cb_reserve_back(cb_a, 1);
        cb_reserve_back(cb_b, 1);
        noc_async_read(get_noc_addr(x, y, src_a + i * page), get_write_ptr(cb_a), page);
        noc_async_read(get_noc_addr(x, y, src_b + i * page), get_write_ptr(cb_b), page);
        noc_async_read_barrier();
        cb_push_back(cb_a, 1);
        cb_push_back(cb_b, 1);
    }
}
