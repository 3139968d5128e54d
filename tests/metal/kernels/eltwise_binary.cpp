// Compute kernel (TRISC0-2): one tile of circular buffer 0 op one tile of circular buffer 1 into
// circular buffer 16, op = ELTWISE_OP (add/sub/mul, a define set by the host).
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    compute_kernel_hw_startup(0, 1, 16);
    ELTWISE_OP_INIT(0, 1);
    cb_wait_front(0, 1);
    cb_wait_front(1, 1);
    tile_regs_acquire();
    ELTWISE_OP(0, 1, 0, 0, 0);
    tile_regs_commit();
    cb_pop_front(0, 1);
    cb_pop_front(1, 1);
    cb_reserve_back(16, 1);
    tile_regs_wait();
    pack_tile(0, 16);
    tile_regs_release();
    cb_push_back(16, 1);
}
