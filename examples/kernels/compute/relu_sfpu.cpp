// ReLU on the SFPU with raw TTI_SFP* instructions (sfpi's vector types need Tenstorrent's
// compiler): each tile of CB 0 is copied into the destination register, then for every row
// group the SFPU loads it into LREG0, sets the lane condition where the value is negative
// (SFPSETCC, sign test), loads 0.0 into those lanes (SFPLOADI), re-enables all lanes (SFPENCC)
// and stores LREG0 back (lane predication is switched on around the loop); the tile is packed into CB 16. Runtime arg: [0] number of tiles.
// SFPU semantics: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/SFPLOAD.md,
// SFPSETCC.md, SFPLOADI.md, SFPENCC.md, SFPSTORE.md.
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
/// One face is 16 rows; each SFPLOAD/SFPSTORE covers a group of rows, and INCRWC advances the
/// destination row counter by 2 (sfpi's `dst_reg++` on Blackhole), 8 times per face.
inline void relu_face() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);
        TTI_SFPSETCC(0, p_sfpu::LREG0, 0, 0);  // Mod1 LREG_LT0: LaneFlags = (LREG0 < 0)
        TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_FLOATB, 0x0000);  // only flagged lanes
        TTI_SFPENCC(0, 0, 0, 0);  // Mod1 0: LaneFlags = true, lane enabling left on
        TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);
        TTI_INCRWC(0, 2, 0, 0);
    }
}

inline void relu_tile(std::uint32_t dst) {
    _llk_math_eltwise_sfpu_start_(dst);
    TTI_SFPENCC(1, 0, 0, 2);  // Mod1 EI, Imm2 E: UseLaneFlagsForLaneEnable = true
    for (int face = 0; face < 4; face++) {
        relu_face();
        _llk_math_eltwise_sfpu_inc_dst_face_addr_();
    }
    TTI_SFPENCC(0, 0, 0, 2);  // Mod1 EI, Imm2 0: lane enabling off again
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
        MATH((relu_tile(0)));
        tile_regs_commit();
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
        cb_pop_front(cb_in, 1);
    }
}
