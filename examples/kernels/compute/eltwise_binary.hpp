// Shared body of the add/sub/mul compute kernels: for each tile, C = A op B from CB 0 and CB 1
// into CB 16, through the FPU's element-wise path (unpack A→SrcA and B→SrcB, ELW* into the
// destination register, pack). The including file defines BINARY_INIT and BINARY_TILES.
// Runtime arg: [0] number of tiles.
#pragma once
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"

using namespace ckernel;

void kernel_main() {
    const std::uint32_t n_tiles = get_arg_val<std::uint32_t>(0);
    constexpr std::uint32_t cb_a = 0, cb_b = 1, cb_out = 16;
    compute_kernel_hw_startup(cb_a, cb_b, cb_out);
    BINARY_INIT(cb_a, cb_b);
    for (std::uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        tile_regs_acquire();
        BINARY_TILES(cb_a, cb_b, 0, 0, 0);
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
