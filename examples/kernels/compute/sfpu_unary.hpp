// Shared body of the one-input SFPU examples (sfpu_*.cpp): each tile of CB 0 is copied into
// the destination register, the kernel's `sfpu_face()` runs on each of its four faces between
// `sfpu_setup()` and `sfpu_teardown()`, and the tile is packed into CB 16. Runtime arg: [0]
// number of tiles. The including file defines those three functions under TRISC_MATH, with
// tt-llk's raw TTI_SFP* instructions (sfpi's vector types need Tenstorrent's compiler).
//
// Dst addressing on Blackhole: an SFPLOAD/SFPSTORE at address A reaches rows A & ~3 .. +3,
// the even columns when A & 2 is clear, the odd ones when set (tt-isa-documentation
// BlackholeA0/TensixTile/TensixCoprocessor/SFPLOAD.md); INCRWC by 2 moves to the next half,
// so eight groups cover a 16x16 face.
#pragma once
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"
#include "api/compute/tile_move_copy.h"
#ifdef TRISC_MATH
#include "llk_math_eltwise_sfpu_common.h"
#endif

using namespace ckernel;

#ifdef TRISC_MATH
inline void sfpu_setup();
inline void sfpu_face();
inline void sfpu_teardown();

inline void sfpu_tile(std::uint32_t dst) {
    _llk_math_eltwise_sfpu_start_(dst);
    sfpu_setup();
    for (int face = 0; face < 4; face++) {
        sfpu_face();
        _llk_math_eltwise_sfpu_inc_dst_face_addr_();
    }
    sfpu_teardown();
    _llk_math_eltwise_sfpu_done_();
}
#endif

void kernel_main() {
    const std::uint32_t n_tiles = get_arg_val<std::uint32_t>(0);
    constexpr std::uint32_t cb_in = 0, cb_out = 16;
    compute_kernel_hw_startup(cb_in, cb_out);
    copy_init(cb_in);
    for (std::uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_tile(cb_in, 0, 0);
        MATH((sfpu_tile(0)));
        tile_regs_commit();
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
        cb_pop_front(cb_in, 1);
    }
}
