// Compute kernel (TRISC0-2) of the streaming benchmark: N tiles of circular buffer 0 plus the same
// number of circular buffer 1 into circular buffer 16, one tile at a time. Compile-time arg 0: N.
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    constexpr uint32_t n = get_compile_time_arg_val(0);
    compute_kernel_hw_startup(0, 1, 16);
    add_init(0, 1);
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(0, 1);
        cb_wait_front(1, 1);
        tile_regs_acquire();
        add_tiles(0, 1, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(0, 1);
        cb_pop_front(1, 1);
        cb_reserve_back(16, 1);
        tile_regs_wait();
        pack_tile(0, 16);
        tile_regs_release();
        cb_push_back(16, 1);
    }
}
