// Transpose of each 32x32 tile (api/compute/transpose.h, WH): CB 0 → CB 16, bf16.
// Runtime arg: [0] number of tiles.
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"
#include "api/compute/transpose.h"

using namespace ckernel;

void kernel_main() {
    const std::uint32_t n_tiles = get_arg_val<std::uint32_t>(0);
    constexpr std::uint32_t cb_in = 0, cb_out = 16;
    compute_kernel_hw_startup(cb_in, cb_out);
    transpose_init(cb_in);
    for (std::uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        transpose_tile(cb_in, 0, 0);
        tile_regs_commit();
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
        cb_pop_front(cb_in, 1);
    }
}
