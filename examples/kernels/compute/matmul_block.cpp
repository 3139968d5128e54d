// Block matmul: C (2x2 tiles, CB 16) = A (2x2 tiles, CB 0) x B (2x2 tiles, CB 1), 32x32 bf16 tiles
// stored row-major by tile. One matmul_block call per inner-dimension step kt accumulates
// A[:, kt] x B[kt, :] into the four destination tiles (DST += C), which are then packed in order.
// Runtime arg: [0] number of blocks.
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"

using namespace ckernel;

void kernel_main() {
    const std::uint32_t n_blocks = get_arg_val<std::uint32_t>(0);
    constexpr std::uint32_t cb_a = 0, cb_b = 1, cb_out = 16;
    constexpr std::uint32_t rt = 2, ct = 2, kt = 2;
    compute_kernel_hw_startup(cb_a, cb_b, cb_out);
    matmul_block_init(cb_a, cb_b, 0, ct, rt, kt);
    for (std::uint32_t i = 0; i < n_blocks; i++) {
        cb_wait_front(cb_a, rt * kt);
        cb_wait_front(cb_b, kt * ct);
        tile_regs_acquire();
        for (std::uint32_t k = 0; k < kt; k++) {
            matmul_block(cb_a, cb_b, k, k * ct, 0, 0, ct, rt, kt);
        }
        tile_regs_commit();
        cb_reserve_back(cb_out, rt * ct);
        tile_regs_wait();
        for (std::uint32_t t = 0; t < rt * ct; t++) {
            pack_tile(t, cb_out);
        }
        tile_regs_release();
        cb_push_back(cb_out, rt * ct);
        cb_pop_front(cb_a, rt * kt);
        cb_pop_front(cb_b, kt * ct);
    }
}
