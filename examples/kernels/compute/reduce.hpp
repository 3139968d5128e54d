// Shared body of the reduce kernels (api/compute/reduce.h): for each tile, CB 16 = the sum of CB 0's
// tile over REDUCE_DIM, scaled by CB 1's tile (the scaler, one per step); the FPU's GAPOOL/MVMUL
// path. The including file defines REDUCE_DIM (ReduceDim::REDUCE_ROW / REDUCE_COL / REDUCE_SCALAR).
// Runtime arg: [0] number of tiles.
#pragma once
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/reduce.h"
#include "api/compute/reg_api.h"

using namespace ckernel;

void kernel_main() {
    const std::uint32_t n_tiles = get_arg_val<std::uint32_t>(0);
    constexpr std::uint32_t cb_a = 0, cb_scaler = 1, cb_out = 16;
    compute_kernel_hw_startup(cb_a, cb_scaler, cb_out);
    reduce_init<PoolType::SUM, REDUCE_DIM>(cb_a, cb_scaler, cb_out);
    for (std::uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_scaler, 1);
        tile_regs_acquire();
        reduce_tile<PoolType::SUM, REDUCE_DIM>(cb_a, cb_scaler, 0, 0, 0);
        tile_regs_commit();
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_scaler, 1);
    }
    reduce_uninit(cb_a);
}
