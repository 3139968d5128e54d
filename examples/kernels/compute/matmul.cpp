// Matmul of single tiles: for each step, C (CB 16) = A (CB 0) × B (CB 1), 32×32 bf16 tiles,
// through the FPU's matrix path (unpack A→SrcB and B→SrcA, MVMUL into the destination register).
// Runtime arg: [0] number of tile products.
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"

using namespace ckernel;

void kernel_main() {
    const std::uint32_t n_tiles = get_arg_val<std::uint32_t>(0);
    constexpr std::uint32_t cb_a = 0, cb_b = 1, cb_out = 16;
    compute_kernel_hw_startup(cb_a, cb_b, cb_out);
    matmul_init(cb_a, cb_b);
    for (std::uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        tile_regs_acquire();
        matmul_tiles(cb_a, cb_b, 0, 0, 0);
        tile_regs_commit();
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);
    }
}
